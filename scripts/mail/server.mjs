/**
 * A local stand-in for a transactional-mail HTTP API, as scripts/turnstile/ stands in for
 * Turnstile: `npm start` and the workers tests point the product's `http` mailer at it
 * (src/server/notifications/mailer.ts), and the emails land where a test (or a person) can read
 * them. Nothing is sent anywhere.
 *
 * - POST /send: one message, JSON `{ from, fromName, to, subject, text, html, headers }` with
 *   `Authorization: Bearer TOKEN`. A wrong token is 401, a message without from, to, subject or text
 *   is 400; otherwise 200 `{ id }`, and the message is kept (the newest MESSAGES_KEPT).
 * - GET /messages?to=ADDRESS: the kept messages (to one address, or all), oldest first, as JSON
 *   `{ messages: [{ id, receivedAt, from, fromName, to, subject, text, html, headers }] }`.
 * - DELETE /messages: forgets them all.
 * - GET /: the messages as a plain page, newest first, for a person running `npm start`.
 */
import http from 'node:http';
import { listen, readBody } from '../lib/stand-in.mjs';
import { randomBytes } from 'node:crypto';

/** The stand-in's token and sender (`npm start` and the tests pass them to the Worker). */
const LOCAL_TOKEN = 'local-mail-token';
const LOCAL_FROM = 'notifications@mail.localhost';
const BODY_LIMIT = 256 * 1024;
const MESSAGES_KEPT = 1000;

/** @param {string} value */
const escapeHtml = (value) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Starts the stand-in.
 * @param {{ port?: number, host?: string, token?: string, from?: string }} [options]
 */
export async function startMailCapture({ port = 0, host = '127.0.0.1', token = LOCAL_TOKEN, from = LOCAL_FROM } = {}) {
	/** @type {{ id: string, receivedAt: number, from: string, fromName: string, to: string, subject: string, text: string, html: string | null, headers: Record<string, string> }[]} */
	let messages = [];

	const server = http.createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', 'http://mail.localhost');
		const json = (status, body) =>
			res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
		try {
			if (req.method === 'POST' && url.pathname === '/send') {
				if (req.headers.authorization !== `Bearer ${token}`) return json(401, { error: 'unauthorized' });
				const body = JSON.parse((await readBody(req, BODY_LIMIT)).toString('utf8') || 'null');
				const fields = ['from', 'to', 'subject', 'text'];
				if (!body || typeof body !== 'object' || fields.some((field) => typeof body[field] !== 'string' || body[field] === '')) {
					return json(400, { error: `from, to, subject and text are required` });
				}
				const headers = body.headers && typeof body.headers === 'object' ? body.headers : {};
				if (Object.values(headers).some((value) => typeof value !== 'string' || /[\r\n]/.test(value))) {
					return json(400, { error: 'header values are one-line strings' });
				}
				const message = {
					id: randomBytes(8).toString('hex'),
					receivedAt: Date.now(),
					from: body.from,
					fromName: typeof body.fromName === 'string' ? body.fromName : '',
					to: body.to,
					subject: body.subject,
					text: body.text,
					html: typeof body.html === 'string' ? body.html : null,
					headers,
				};
				messages.push(message);
				if (messages.length > MESSAGES_KEPT) messages = messages.slice(-MESSAGES_KEPT);
				return json(200, { id: message.id });
			}
			if (req.method === 'GET' && url.pathname === '/messages') {
				const to = url.searchParams.get('to');
				return json(200, { messages: to === null ? messages : messages.filter((message) => message.to === to) });
			}
			if (req.method === 'DELETE' && url.pathname === '/messages') {
				messages = [];
				return json(200, { deleted: true });
			}
			if (req.method === 'GET' && url.pathname === '/') {
				const items = [...messages]
					.reverse()
					.map(
						(message) =>
							`<article><h2>${escapeHtml(message.subject)}</h2><p>To ${escapeHtml(message.to)} · ${new Date(message.receivedAt).toISOString()}</p><pre>${escapeHtml(
								Object.entries(message.headers)
									.map(([name, value]) => `${name}: ${value}`)
									.join('\n'),
							)}</pre><pre>${escapeHtml(message.text)}</pre></article>`,
					)
					.join('');
				res
					.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
					.end(`<!doctype html><meta charset="utf-8"><title>Local mail</title><h1>Local mail (${messages.length})</h1>${items}`);
				return;
			}
			res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
		} catch (error) {
			json(400, { error: String(error instanceof Error ? error.message : error) });
		}
	});
	const { origin, close } = await listen(server, port, host);
	return {
		origin,
		/** The Worker's variables that point the product at this stand-in. */
		vars: { MAIL_PROVIDER: 'http', MAIL_HTTP_URL: `${origin}/send`, MAIL_HTTP_TOKEN: token, MAIL_FROM: from },
		close,
	};
}
