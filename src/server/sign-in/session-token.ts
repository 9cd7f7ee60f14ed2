/**
 * Session tokens that prove their origin and say when they end: 256 random bits and the end of
 * their session (its absolute limit, SESSION_MAX_MS after sign-in), with an HMAC-SHA256 of both,
 * bound to the channel, under the deployment's SESSION_SECRET. A token this deployment did not mint
 * is refused without asking D1, so a made-up session cookie costs one HMAC and cannot push a request
 * past the edge cache; nor can a minted one whose end has passed, which the edge cache reads
 * without D1 (functions/shell/edge-cache.ts). Whether a minted token's session still lives before its end
 * (not logged out, not idle for a week) is D1's answer (sessions.ts). This module has no imports,
 * so that Node scripts (the benchmark) can mint tokens too.
 */

/** No session outlives this, however active: the end a token carries is its sign-in plus this. */
export const SESSION_MAX_MS = 30 * 24 * 60 * 60 * 1000;

/** The shortest SESSION_SECRET accepted: 32 characters, as `openssl rand -base64 32` gives 44. */
export const MIN_SECRET_LENGTH = 32;

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC-SHA256 key of a secret, imported once per isolate (also for email.ts's link tokens). */
export function hmacKey(secret: string): Promise<CryptoKey> {
	let key = keys.get(secret);
	if (!key) {
		key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
		keys.set(secret, key);
	}
	return key;
}

/** Bytes as base64url without padding. */
export function base64url(bytes: Uint8Array): string {
	return btoa(String.fromCharCode(...bytes))
		.replace(/\+/g, '-')
		.replace(/\//g, '_')
		.replace(/=+$/, '');
}

/** A 32-byte MAC (43 base64url characters) as bytes, or null. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
	if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
	const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
	return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

const signedText = (channelId: number, random: string, end: string) => encoder.encode(`session:${channelId}:${random}:${end}`);

/** A token's end: whole seconds since the epoch in base 36 (six characters until 2038, seven after). */
const END_PATTERN = /^[1-9a-z][0-9a-z]{0,7}$/;

/**
 * A new session token for the channel, ending at `expiresAt` (epoch ms; the session row's own
 * `expires_at`): `{random}.{end}.{mac}`, the random part and the MAC in base64url.
 */
export async function mintSessionToken(secret: string, channelId: number, expiresAt = Date.now() + SESSION_MAX_MS): Promise<string> {
	const random = base64url(crypto.getRandomValues(new Uint8Array(32)));
	const end = Math.ceil(expiresAt / 1000).toString(36);
	const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), signedText(channelId, random, end)));
	return `${random}.${end}.${base64url(mac)}`;
}

/** How many verified tokens an isolate remembers (the oldest is forgotten first). */
const VERIFIED_ENTRIES = 1024;
/** Tokens that verified, under `{secret}\n{channelId}\n{token}`. Failures are not kept, so made-up cookies cannot push real ones out. */
const verified = new Set<string>();

/**
 * What a session cookie's token is for the channel at `now`: `foreign` when this deployment did not
 * mint it for the channel (checked in time independent of where it differs; a token of the earlier
 * `{random}.{mac}` form, which said no end, is foreign too), `ended` when it did but the end it
 * carries has passed, else `live` (its session may still have ended early: D1 says). A member's
 * request asks twice (the edge cache, then the page) and a member asks again and again: a token
 * that verified is remembered, in a bounded set.
 */
export async function sessionTokenState(secret: string | null, channelId: number, token: string, now: number): Promise<'live' | 'ended' | 'foreign'> {
	if (!secret) return 'foreign';
	const [random, end, macText, extra] = token.split('.');
	if (!random || !end || !END_PATTERN.test(end) || extra !== undefined) return 'foreign';
	const key = `${secret}\n${channelId}\n${token}`;
	if (!verified.has(key)) {
		const mac = macText === undefined ? null : fromBase64url(macText);
		if (!mac || !fromBase64url(random)) return 'foreign';
		if (!(await crypto.subtle.verify('HMAC', await hmacKey(secret), mac, signedText(channelId, random, end)))) return 'foreign';
		verified.add(key);
		for (const oldest of verified) {
			if (verified.size <= VERIFIED_ENTRIES) break;
			verified.delete(oldest);
		}
	}
	return parseInt(end, 36) * 1000 > now ? 'live' : 'ended';
}
