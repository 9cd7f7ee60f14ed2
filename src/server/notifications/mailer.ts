/**
 * Sending an email, behind one small interface so that an operator can switch provider
 * (docs/reference/notifications.md#email). `mailerFromEnv` picks the provider from the deployment's
 * configuration; without a complete one there is no mailer, and members are not offered email.
 *
 * - `MAIL_PROVIDER = "cloudflare"`: Cloudflare Email Service through a `send_email` binding named
 *   `EMAIL` (wrangler.toml `[[send_email]]`), with its structured `send({ from, to, subject, text,
 *   html, headers })`: the service writes the MIME, signs it (DKIM) and sets Date and Message-ID.
 *   Its allowlist takes List-Unsubscribe (https URIs only), List-Unsubscribe-Post and
 *   Auto-Submitted, which are all this product sets.
 * - `MAIL_PROVIDER = "http"`: a transactional-mail HTTP API at `MAIL_HTTP_URL`, POSTed JSON
 *   `{ from, fromName, to, subject, text, html, headers }` with `Authorization: Bearer
 *   MAIL_HTTP_TOKEN` (a secret); any 2xx is sent. The local stand-in (scripts/mail/server.mjs)
 *   speaks it, and so does a small adapter Worker in front of another provider.
 *
 * `MAIL_FROM` (the sender's address, on a domain the provider may send from) is required by both.
 */

export interface MailMessage {
	to: string;
	subject: string;
	text: string;
	html?: string;
	/** Extra headers (List-Unsubscribe, …): never From, To, Subject, Date or Message-ID. */
	headers: Record<string, string>;
	/** The sender's display name (the community's title); the address is MAIL_FROM. */
	fromName?: string;
}

export interface Mailer {
	/** Sends one message. @throws Error when the provider refuses it or cannot be reached */
	send(message: MailMessage): Promise<void>;
}

/** The part of the `send_email` binding this module uses (Cloudflare Email Service's structured send). */
interface SendEmailBinding {
	send(message: {
		from: string | { email: string; name: string };
		to: string;
		subject: string;
		text: string;
		html?: string;
		headers?: Record<string, string>;
	}): Promise<unknown>;
}

/** What the configuration may hold; each value is checked, as a Worker's env is whatever was deployed. */
interface MailEnv {
	MAIL_PROVIDER?: unknown;
	MAIL_FROM?: unknown;
	MAIL_HTTP_URL?: unknown;
	MAIL_HTTP_TOKEN?: unknown;
	EMAIL?: unknown;
}

/** A display name on one line, without the characters that would need quoting. */
const displayName = (name: string | undefined) =>
	(name ?? '')
		.replace(/[\r\n"<>\\]+/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();

/** A subject on one line (a header: a line break in it would end it). */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Whether the binding looks like Email Service's (a `send` function). */
const isSendEmail = (value: unknown): value is SendEmailBinding =>
	typeof value === 'object' && value !== null && typeof (value as { send?: unknown }).send === 'function';

/** Email Service's `send_email` binding. */
function cloudflareMailer(binding: SendEmailBinding, from: string): Mailer {
	return {
		async send(message) {
			const name = displayName(message.fromName);
			await binding.send({
				from: name ? { email: from, name } : from,
				to: message.to,
				subject: oneLine(message.subject),
				text: message.text,
				...(message.html === undefined ? {} : { html: message.html }),
				headers: message.headers,
			});
		},
	};
}

/** A transactional-mail HTTP API (JSON, bearer token). */
function httpMailer(url: URL, token: string, from: string): Mailer {
	return {
		async send(message) {
			const response = await fetch(url, {
				method: 'POST',
				headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({
					from,
					fromName: displayName(message.fromName),
					to: message.to,
					subject: oneLine(message.subject),
					text: message.text,
					html: message.html ?? null,
					headers: message.headers,
				}),
			});
			// The answer's body is read either way, so the connection is not held.
			const answer = await response.text();
			if (!response.ok) throw new Error(`The mail API answered ${response.status}: ${answer.slice(0, 200)}`);
		},
	};
}

/** What is missing, logged once per isolate rather than once per message. */
let logged = '';

function missing(reason: string): null {
	if (logged !== reason) {
		logged = reason;
		console.warn(`Email is off: ${reason}`);
	}
	return null;
}

/**
 * The deployment's mailer, or null when email is not configured (nothing is logged when
 * MAIL_PROVIDER is empty, the default: email is off by design).
 */
export function mailerFromEnv(workerEnv: object): Mailer | null {
	const env = workerEnv as MailEnv;
	const provider = text(env.MAIL_PROVIDER);
	if (provider === '') return null;
	const from = text(env.MAIL_FROM);
	if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(from)) return missing('MAIL_FROM is not an address');
	if (provider === 'cloudflare') {
		return isSendEmail(env.EMAIL)
			? cloudflareMailer(env.EMAIL, from)
			: missing('MAIL_PROVIDER is "cloudflare" but there is no send_email binding named EMAIL');
	}
	if (provider === 'http') {
		const url = URL.parse(text(env.MAIL_HTTP_URL));
		const token = text(env.MAIL_HTTP_TOKEN);
		if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return missing('MAIL_HTTP_URL is not an http(s) URL');
		if (token === '') return missing('MAIL_HTTP_TOKEN is not set');
		return httpMailer(url, token, from);
	}
	return missing(`MAIL_PROVIDER ${JSON.stringify(provider)} is neither "cloudflare" nor "http"`);
}
