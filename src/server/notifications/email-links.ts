/**
 * The links every email carries and the body they go in (./email.ts says what each link does): the
 * signed confirmation and unsubscribe tokens, the signed outcome a link's page is sent back with,
 * the links' paths and URLs, and the small HTML body. Signatures are HMACs under SESSION_SECRET, so
 * a forged or altered token is refused without asking D1.
 */
import { base64url, fromBase64url, hmacKey } from '@/server/sign-in/session-token';
import type { Language } from '@/schemas/channel';
import { sessionSecret } from '@/server/sign-in/session-secret';

// --- Tokens ----------------------------------------------------------------------------------

const encoder = new TextEncoder();
/** The first 16 bytes of the address's SHA-256, base64url (22 characters): names it in a link without showing it. */
export async function addressHash(address: string): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(address)));
	return base64url(digest.slice(0, 16));
}

async function mac(secret: string, text: string): Promise<string> {
	return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(text))));
}

/** Whether `macText` is the HMAC of `text` (compared by WebCrypto, in time independent of where it differs). */
async function verifies(secret: string, macText: string, text: string): Promise<boolean> {
	const bytes = fromBase64url(macText);
	return bytes !== null && crypto.subtle.verify('HMAC', await hmacKey(secret), bytes, encoder.encode(text));
}

const confirmText = (memberId: number, expires: number, hash: string) => `email-confirm:${memberId}:${expires}:${hash}`;
const unsubscribeText = (memberId: number, hash: string) => `email-unsubscribe:${memberId}:${hash}`;

const CONFIRM_TOKEN = /^([1-9]\d{0,14})\.([1-9]\d{0,14})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const UNSUBSCRIBE_TOKEN = /^([1-9]\d{0,14})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export async function confirmToken(secret: string, memberId: number, address: string, expires: number): Promise<string> {
	const hash = await addressHash(address);
	return `${memberId}.${expires}.${hash}.${await mac(secret, confirmText(memberId, expires, hash))}`;
}

export async function unsubscribeToken(secret: string, memberId: number, address: string): Promise<string> {
	const hash = await addressHash(address);
	return `${memberId}.${hash}.${await mac(secret, unsubscribeText(memberId, hash))}`;
}

export type LinkCheck = { kind: 'valid'; memberId: number; hash: string } | { kind: 'expired' } | { kind: 'invalid' };

/** What a confirmation link's token is, by its signature and expiry alone (no D1): for the page's GET, and before the POST reads D1. */
export async function checkConfirmToken(token: string, now: number, secret: string | null = sessionSecret()): Promise<LinkCheck> {
	const match = CONFIRM_TOKEN.exec(token);
	if (!match || !secret) return { kind: 'invalid' };
	const [, member, expiresText, hash, macText] = match as unknown as [string, string, string, string, string];
	const memberId = Number(member);
	const expires = Number(expiresText);
	if (!(await verifies(secret, macText, confirmText(memberId, expires, hash)))) return { kind: 'invalid' };
	return expires <= now ? { kind: 'expired' } : { kind: 'valid', memberId, hash };
}

/** What an unsubscribe link's token is, by its signature alone (no D1). */
export async function checkUnsubscribeToken(token: string, secret: string | null = sessionSecret()): Promise<LinkCheck> {
	const match = UNSUBSCRIBE_TOKEN.exec(token);
	if (!match || !secret) return { kind: 'invalid' };
	const [, member, hash, macText] = match as unknown as [string, string, string, string];
	const memberId = Number(member);
	if (!(await verifies(secret, macText, unsubscribeText(memberId, hash)))) return { kind: 'invalid' };
	return { kind: 'valid', memberId, hash };
}

// --- A link's outcome ------------------------------------------------------------------------

/** The two pages of our links. */
export type LinkPage = 'confirm' | 'unsubscribe';
/** How long the page after a link's button says how it went (a reload within it says it again). */
export const OUTCOME_TTL_MS = 10 * 60 * 1000;
const OUTCOME = /^(done|expired|invalid)\.([1-9]\d{0,14})\.([A-Za-z0-9_-]{43})$/;
const outcomeText = (page: LinkPage, channelId: number, outcome: LinkOutcome, expires: number) =>
	`email-outcome:${page}:${channelId}:${outcome}:${expires}`;

/**
 * The `?result=` a link's POST sends the browser back to its page with: `{outcome}.{expiry}.{HMAC}`
 * under SESSION_SECRET, for that page of that community, good for OUTCOME_TTL_MS; null without a
 * secret. The page says "confirmed" or "unsubscribed" only when verifiedOutcome accepts it, so a link
 * another site wrote (`?result=done`) cannot make it say so.
 */
export async function signedOutcome(
	page: LinkPage,
	channelId: number,
	outcome: LinkOutcome,
	now: number,
	secret: string | null = sessionSecret(),
): Promise<string | null> {
	if (!secret) return null;
	const expires = now + OUTCOME_TTL_MS;
	return `${outcome}.${expires}.${await mac(secret, outcomeText(page, channelId, outcome, expires))}`;
}

/** The outcome a `?result=` value proves for the page, or null: missing, forged, altered, another page's or community's, expired. */
export async function verifiedOutcome(
	value: string | null,
	page: LinkPage,
	channelId: number,
	now: number,
	secret: string | null = sessionSecret(),
): Promise<LinkOutcome | null> {
	const match = OUTCOME.exec(value ?? '');
	if (!match || !secret) return null;
	const [, outcome, expiresText, macText] = match as unknown as [string, LinkOutcome, string, string];
	const expires = Number(expiresText);
	if (expires <= now || expires > now + OUTCOME_TTL_MS) return null;
	return (await verifies(secret, macText, outcomeText(page, channelId, outcome, expires))) ? outcome : null;
}

// --- Links -----------------------------------------------------------------------------------

/** How a link ended: done, or why not. */
export type LinkOutcome = 'done' | 'expired' | 'invalid';

/** The paths of the two links under a community. */
export const emailLinkPaths = (basePath: string) => ({ confirm: `${basePath}/email/confirm`, unsubscribe: `${basePath}/email/unsubscribe` });

export function linkUrl(origin: string, path: string, token: string): string {
	const url = new URL(path, `${origin}/`);
	url.searchParams.set('token', token);
	return url.href;
}

/** A small HTML body: paragraphs of text and links, every value escaped. */
export function htmlOf(parts: (string | { href: string; label?: string } | null)[], language: Language): string {
	const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
	const body = parts
		.filter((part) => part !== null)
		.map((part) =>
			typeof part === 'string'
				? `<p>${escape(part).replace(/\n/g, '<br>')}</p>`
				: `<p><a href="${escape(part.href)}">${escape(part.label ?? part.href)}</a></p>`,
		)
		.join('\n');
	return `<!doctype html><html lang="${language === 'zh' ? 'zh-Hant' : language}"><meta charset="utf-8"><body>\n${body}\n</body></html>`;
}
