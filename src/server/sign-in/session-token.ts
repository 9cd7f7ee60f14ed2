/**
 * Session tokens that prove their origin: 256 random bits and an HMAC-SHA256 of them, bound to the
 * channel, under the deployment's SESSION_SECRET. A token this deployment did not mint is refused
 * without asking D1, so a made-up session cookie costs one HMAC and cannot push a request past the
 * edge cache. Whether a minted token's session still lives is D1's answer (sessions.ts). This
 * module has no imports, so that Node scripts (the benchmark) can mint tokens too.
 */

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

const signedText = (channelId: number, random: string) => encoder.encode(`session:${channelId}:${random}`);

/** A new session token for the channel: `{random}.{mac}`, both base64url. */
export async function mintSessionToken(secret: string, channelId: number): Promise<string> {
	const random = base64url(crypto.getRandomValues(new Uint8Array(32)));
	const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), signedText(channelId, random)));
	return `${random}.${base64url(mac)}`;
}

/** How many verified tokens an isolate remembers (the oldest is forgotten first). */
const VERIFIED_ENTRIES = 1024;
/** Tokens that verified, under `{secret}\n{channelId}\n{token}`. Failures are not kept, so made-up cookies cannot push real ones out. */
const verified = new Set<string>();

/**
 * Whether this deployment minted `token` for the channel (in time independent of where it differs).
 * A member's request asks twice (the edge cache, then the page) and a member asks again and again:
 * a token that verified is remembered, in a bounded set.
 */
export async function isMintedSessionToken(secret: string | null, channelId: number, token: string): Promise<boolean> {
	if (!secret) return false;
	const key = `${secret}\n${channelId}\n${token}`;
	if (verified.has(key)) return true;
	const [random, macText, extra] = token.split('.');
	const mac = macText === undefined ? null : fromBase64url(macText);
	if (!random || !mac || extra !== undefined || !fromBase64url(random)) return false;
	if (!(await crypto.subtle.verify('HMAC', await hmacKey(secret), mac, signedText(channelId, random)))) return false;
	verified.add(key);
	for (const oldest of verified) {
		if (verified.size <= VERIFIED_ENTRIES) break;
		verified.delete(oldest);
	}
	return true;
}
