/** Random secrets for the browser and the hashes D1 keeps of them. */

/** 256 random bits, base64url: a sign-up or sign-in transaction token (session tokens are signed: sign-in/session-token.ts). */
export function randomToken(): string {
	const bytes = crypto.getRandomValues(new Uint8Array(32));
	return btoa(String.fromCharCode(...bytes))
		.replace(/\+/g, '-')
		.replace(/\//g, '_')
		.replace(/=+$/, '');
}

/** Whether `value` has the shape randomToken gives (43 base64url characters): anything else names no row. */
export function isRandomToken(value: string): boolean {
	return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** The SHA-256 of a token, hex: what D1 stores, so that a database leak reveals no usable token. */
export async function hashToken(token: string): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(token)));
	let hex = '';
	for (const byte of digest) hex += HEX[byte];
	return hex;
}

const encoder = new TextEncoder();
/** Each byte's two hex digits (every request hashes its session token). */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
