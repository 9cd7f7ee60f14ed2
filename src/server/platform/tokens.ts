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
	const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
	return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
