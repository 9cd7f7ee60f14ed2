/**
 * The sign-in cookies. Each channel has its own: a session in one community is not a session in
 * another, and a channel whose cookie a request does not carry is still served from the edge cache.
 * Names carry the `__Host-` prefix (Secure, Path=/, no Domain) wherever the browser is in a secure
 * context: https, and http on loopback for local use. Values are random tokens; D1 keeps only
 * their SHA-256.
 */
import { parse, serialize } from 'hono/utils/cookie';
import { requestUrl } from '@/server/platform/request-url';

export type CookieKind = 'session' | 'signup' | 'oauth';

/** Cookie lifetimes in seconds: an OAuth transaction and a sign-up in progress are short-lived. */
export const OAUTH_COOKIE_SECONDS = 10 * 60;
export const SIGNUP_COOKIE_SECONDS = 30 * 60;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether the browser treats `url` as a secure context, where Secure and `__Host-` cookies work. */
export function isSecureContext(url: URL): boolean {
	return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
}

/**
 * The cookie's name for a channel. `_` separates the parts because domains and slugs cannot
 * contain it (src/schemas/params.ts).
 */
export function cookieName(kind: CookieKind, domain: string, slug: string, secure = true): string {
	return `${secure ? '__Host-' : ''}${kind}_${domain}_${slug}`;
}

/**
 * The value of one of the channel's sign-in cookies that `request` carries, or null. Only the name
 * this site sets for the request's context counts: on https (and loopback) the `__Host-` one, so
 * a cookie planted without the prefix (by a sibling subdomain or an http page) is never read.
 */
export function readAuthCookie(request: Request, kind: CookieKind, domain: string, slug: string): string | null {
	const header = request.headers.get('cookie');
	if (!header) return null;
	const name = cookieName(kind, domain, slug, request.url.startsWith('https:') || isSecureContext(requestUrl(request)));
	return parse(header, name)[name] ?? null;
}

export interface AuthCookieOptions {
	/** Seconds until the browser drops it; 0 deletes it. */
	maxAge: number;
	/**
	 * 'None' only for the Apple transaction: Apple returns with a cross-site form POST, which a
	 * Lax cookie would not accompany. State and nonce guard that request instead.
	 */
	sameSite?: 'Lax' | 'None';
}

/** A Set-Cookie value for one of the channel's sign-in cookies on the site at `url`. */
export function authCookie(url: URL, kind: CookieKind, domain: string, slug: string, value: string, options: AuthCookieOptions): string {
	const secure = isSecureContext(url);
	const sameSite = options.sameSite === 'None' && secure ? 'None' : 'Lax';
	const name = cookieName(kind, domain, slug, secure);
	return serialize(name, value, { path: '/', httpOnly: true, secure, sameSite, maxAge: options.maxAge });
}

/** A Set-Cookie value that deletes the cookie. */
export function clearAuthCookie(url: URL, kind: CookieKind, domain: string, slug: string): string {
	return authCookie(url, kind, domain, slug, '', { maxAge: 0 });
}
