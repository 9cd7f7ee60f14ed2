/**
 * A local stand-in for Cloudflare Turnstile, as scripts/idp/ stands in for the sign-in providers:
 * `npm start`, the browser tests and the workers tests run the product's real Turnstile code
 * against it (docs/reference/spam-defence.md).
 *
 * - GET /turnstile/v0/api.js: the widget script, the subset of Cloudflare's api.js the product
 *   uses: `turnstile.render(container, { sitekey, action, language, callback, 'expired-callback',
 *   'error-callback' })` answers a widget id, `turnstile.reset(id)`, `turnstile.remove(id)`,
 *   `turnstile.getResponse(id)`, implicit rendering of `.cf-turnstile` elements (data-sitekey,
 *   data-action, data-callback) and `?onload=NAME`. As the real one, it shows the challenge in an
 *   iframe of its own origin, which posts the token to the page.
 * - GET /turnstile/v0/frame: that iframe: an "I am human" checkbox; ticking it asks POST
 *   /turnstile/v0/token for a token (a person's click, or Playwright's).
 * - POST /turnstile/v0/siteverify: Cloudflare's siteverify, form-encoded or JSON (`secret`,
 *   `response`, `remoteip`, `idempotency_key`), with its answer (`success`, `error-codes`,
 *   `challenge_ts`, `hostname`, `action`, `cdata`) and error codes: missing-input-secret,
 *   invalid-input-secret, missing-input-response, invalid-input-response, timeout-or-duplicate,
 *   bad-request. A token is good for the secret of the site key it was issued for, once (the same
 *   idempotency key may ask again and gets the same answer), for TOKEN_TTL_MS.
 */
import http from 'node:http';
import { listen, readBody } from '../lib/stand-in.mjs';
import { randomBytes } from 'node:crypto';

/** The stand-in's site key and secret (`npm start` and the tests pass them to the Worker). */
const LOCAL_SITE_KEY = '0xLOCAL-turnstile-site-key';
const LOCAL_SECRET = '0xLOCAL-turnstile-secret-key';
/** As Cloudflare's: a token expires 300 seconds after it was issued. */
const TOKEN_TTL_MS = 300_000;

const BODY_LIMIT = 64 * 1024;

/** The widget script: the subset of api.js the product uses. `origin` is the stand-in's own. */
function widgetScript(origin) {
	return `(() => {
	'use strict';
	const ORIGIN = ${JSON.stringify(origin)};
	const widgets = new Map();
	let next = 0;
	const call = (fn, ...args) => { const f = typeof fn === 'string' ? window[fn] : fn; if (typeof f === 'function') f(...args); };
	const element = (container) => typeof container === 'string' ? document.querySelector(container) : container;
	window.addEventListener('message', (event) => {
		if (event.origin !== ORIGIN || !event.data || event.data.source !== 'local-turnstile') return;
		const widget = widgets.get(event.data.widgetId);
		if (!widget || event.source !== widget.frame.contentWindow) return;
		if (event.data.event === 'token') {
			widget.token = event.data.token;
			const input = widget.container.querySelector('input[name="cf-turnstile-response"]');
			if (input) input.value = widget.token;
			clearTimeout(widget.timer);
			widget.timer = setTimeout(() => { widget.token = undefined; call(widget.options['expired-callback']); }, ${TOKEN_TTL_MS});
			call(widget.options.callback, widget.token);
		} else if (event.data.event === 'error') {
			call(widget.options['error-callback'], event.data.code);
		}
	});
	const frameUrl = (id, options) => {
		const url = new URL('/turnstile/v0/frame', ORIGIN);
		url.searchParams.set('widgetId', id);
		url.searchParams.set('sitekey', String(options.sitekey ?? ''));
		if (options.action) url.searchParams.set('action', String(options.action));
		if (options.language) url.searchParams.set('language', String(options.language));
		url.searchParams.set('hostname', location.hostname);
		return url.href;
	};
	const turnstile = {
		render(container, options = {}) {
			const host = element(container);
			if (!host) throw new Error('turnstile.render: no container');
			const id = 'cf-local-' + ++next;
			const frame = document.createElement('iframe');
			frame.src = frameUrl(id, options);
			frame.title = 'Widget containing a Cloudflare security challenge';
			frame.style.cssText = 'border:0;width:300px;max-width:100%;height:65px;display:block';
			const input = document.createElement('input');
			input.type = 'hidden';
			input.name = 'cf-turnstile-response';
			host.append(frame, input);
			widgets.set(id, { container: host, frame, options, token: undefined, timer: undefined });
			return id;
		},
		reset(id) {
			for (const [key, widget] of widgets) {
				if (id !== undefined && key !== id) continue;
				widget.token = undefined;
				clearTimeout(widget.timer);
				widget.frame.src = frameUrl(key, widget.options);
			}
		},
		remove(id) {
			const widget = widgets.get(id);
			if (!widget) return;
			clearTimeout(widget.timer);
			widget.frame.remove();
			widget.container.querySelector('input[name="cf-turnstile-response"]')?.remove();
			widgets.delete(id);
		},
		getResponse(id) {
			return (id === undefined ? [...widgets.values()][0] : widgets.get(id))?.token;
		},
		isExpired(id) {
			return widgets.get(id)?.token === undefined;
		},
	};
	window.turnstile = turnstile;
	const script = document.currentScript;
	const params = script ? new URL(script.src).searchParams : new URLSearchParams();
	const start = () => {
		if (params.get('render') !== 'explicit') {
			for (const host of document.querySelectorAll('.cf-turnstile')) {
				if (host.dataset.rendered) continue;
				host.dataset.rendered = '1';
				turnstile.render(host, { sitekey: host.dataset.sitekey, action: host.dataset.action, language: host.dataset.language, callback: host.dataset.callback, 'expired-callback': host.dataset.expiredCallback, 'error-callback': host.dataset.errorCallback });
			}
		}
		if (params.get('onload')) call(params.get('onload'));
	};
	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
`;
}

const LABELS = { en: 'I am human', ja: '人間です', ko: '사람입니다', zh: '我是人類' };

/** The challenge's frame: one checkbox; ticking it asks for a token and posts it to the page. */
function framePage(params) {
	const language = (params.get('language') ?? 'en').slice(0, 2);
	const label = LABELS[language] ?? LABELS.en;
	const config = JSON.stringify({
		widgetId: params.get('widgetId') ?? '',
		sitekey: params.get('sitekey') ?? '',
		action: params.get('action') ?? '',
		hostname: params.get('hostname') ?? '',
	}).replaceAll('<', '\\u003c');
	return `<!doctype html><html lang="${language}"><meta charset="utf-8"><title>Local Turnstile</title>
<style>
	:root { color-scheme: light dark; font: 14px system-ui, sans-serif; }
	body { margin: 0; }
	label { box-sizing: border-box; display: flex; align-items: center; gap: 10px; height: 63px; padding: 0 14px; border: 1px solid #8886; border-radius: 4px; cursor: pointer; }
	input { width: 24px; height: 24px; margin: 0; }
	small { margin-left: auto; opacity: .7; font-size: 11px; }
</style>
<label><input type="checkbox" id="human"> <span id="text">${label}</span><small>Local Turnstile</small></label>
<script>
	const config = ${config};
	const box = document.getElementById('human');
	const send = (message) => parent.postMessage({ source: 'local-turnstile', widgetId: config.widgetId, ...message }, '*');
	box.addEventListener('change', async () => {
		if (!box.checked) return;
		box.disabled = true;
		const response = await fetch('/turnstile/v0/token', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(config) });
		const answer = await response.json();
		if (answer.token) { document.getElementById('text').textContent += ' ✓'; send({ event: 'token', token: answer.token }); }
		else { box.checked = false; box.disabled = false; send({ event: 'error', code: answer.error ?? '110100' }); }
	});
</script></html>`;
}

/**
 * Starts the stand-in.
 * @param {{ port?: number, host?: string, sites?: Record<string, string>, now?: () => number }} [options]
 *   `sites`: site key → secret (the local pair by default); `now`: the clock tokens expire by.
 */
export async function startTurnstile({ port = 0, host = '127.0.0.1', sites = { [LOCAL_SITE_KEY]: LOCAL_SECRET }, now = Date.now } = {}) {
	/** @type {Map<string, { sitekey: string, action: string, hostname: string, issuedAt: number, spentBy: string | null, answer: unknown }>} */
	const tokens = new Map();
	const secrets = new Set(Object.values(sites));

	/** @param {Record<string, string | undefined>} input */
	const siteverify = (input) => {
		const errors = [];
		const secret = input['secret'];
		const response = input['response'];
		if (!secret) errors.push('missing-input-secret');
		else if (!secrets.has(secret)) errors.push('invalid-input-secret');
		if (!response) errors.push('missing-input-response');
		if (errors.length > 0) return { success: false, 'error-codes': errors, messages: [] };
		const token = tokens.get(/** @type {string} */ (response));
		if (!token || sites[token.sitekey] !== secret) return { success: false, 'error-codes': ['invalid-input-response'], messages: [] };
		const key = input['idempotency_key'] ?? null;
		if (token.spentBy !== null) {
			// A retry with the same idempotency key gets the first answer again; anything else is a duplicate.
			if (key !== null && token.spentBy === key) return token.answer;
			return { success: false, 'error-codes': ['timeout-or-duplicate'], messages: [] };
		}
		if (now() - token.issuedAt > TOKEN_TTL_MS) return { success: false, 'error-codes': ['timeout-or-duplicate'], messages: [] };
		token.spentBy = key ?? '';
		token.answer = {
			success: true,
			'error-codes': [],
			challenge_ts: new Date(token.issuedAt).toISOString(),
			hostname: token.hostname,
			action: token.action,
			cdata: '',
			metadata: { interactive: true },
			messages: [],
		};
		return token.answer;
	};

	let base = '';
	const server = http.createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', base);
		const origin = base;
		const json = (status, body) =>
			res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
		try {
			if (req.method === 'GET' && url.pathname === '/turnstile/v0/api.js') {
				res
					.writeHead(200, {
						'Content-Type': 'text/javascript; charset=utf-8',
						'Cache-Control': 'no-store',
						'Cross-Origin-Resource-Policy': 'cross-origin',
					})
					.end(widgetScript(origin));
				return;
			}
			if (req.method === 'GET' && url.pathname === '/turnstile/v0/frame') {
				res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(framePage(url.searchParams));
				return;
			}
			if (req.method === 'POST' && url.pathname === '/turnstile/v0/token') {
				const body = JSON.parse((await readBody(req, BODY_LIMIT)).toString('utf8') || '{}');
				const sitekey = typeof body.sitekey === 'string' ? body.sitekey : '';
				// Cloudflare's 110100: an unknown site key.
				if (!(sitekey in sites)) return json(400, { error: '110100' });
				const action = typeof body.action === 'string' ? body.action.slice(0, 32) : '';
				const token = `LOCAL.${randomBytes(32).toString('base64url')}`;
				tokens.set(token, {
					sitekey,
					action,
					hostname: typeof body.hostname === 'string' ? body.hostname.slice(0, 253) : '',
					issuedAt: now(),
					spentBy: null,
					answer: null,
				});
				return json(200, { token });
			}
			if (req.method === 'POST' && url.pathname === '/turnstile/v0/siteverify') {
				const text = (await readBody(req, BODY_LIMIT)).toString('utf8');
				const type = req.headers['content-type'] ?? '';
				let input;
				try {
					input = type.includes('application/json') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
				} catch {
					return json(400, { success: false, 'error-codes': ['bad-request'], messages: [] });
				}
				if (!input || typeof input !== 'object') return json(400, { success: false, 'error-codes': ['bad-request'], messages: [] });
				return json(200, siteverify(input));
			}
			res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
		} catch (error) {
			json(400, { success: false, 'error-codes': ['bad-request'], messages: [String(error instanceof Error ? error.message : error)] });
		}
	});
	const { origin, close } = await listen(server, port, host);
	base = origin;
	return {
		origin,
		/** The Worker's variables that point the product at this stand-in. */
		vars: {
			TURNSTILE_SITE_KEY: Object.keys(sites)[0] ?? LOCAL_SITE_KEY,
			TURNSTILE_SECRET_KEY: Object.values(sites)[0] ?? LOCAL_SECRET,
			TURNSTILE_VERIFY_URL: `${base}/turnstile/v0/siteverify`,
			TURNSTILE_SCRIPT_URL: `${base}/turnstile/v0/api.js`,
		},
		close,
	};
}
