/** The name of the sign-in session cookie; a request that carries it is never served from the cache. */
export const SESSION_COOKIE = '__Host-session';
/** The same cookie's name on plain-http localhost, where browsers refuse the __Host- prefix. */
export const DEV_SESSION_COOKIE = 'session';

export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
	if (!cookieHeader) return false;
	return cookieHeader.split(';').some((part) => {
		const name = part.split('=')[0]?.trim();
		return name === SESSION_COOKIE || name === DEV_SESSION_COOKIE;
	});
}
