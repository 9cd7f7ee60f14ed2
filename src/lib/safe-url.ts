/**
 * The one rule for URLs that come from people or from settings: a link may be an https URL or a
 * path on this site, and nothing a browser would send elsewhere. Browsers read `\` as `/` and drop
 * tabs and line breaks inside URLs, so `/\evil.example` and `/<tab>/evil.example` are protocol-relative
 * links to another host; both are refused, as are control characters, white space and
 * `javascript:`, `data:` or any other scheme. Used by post bodies, channel settings and redirects.
 */

/** Control characters (C0, DEL, C1), white space of any kind, and invisible format characters. */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Z}\s\\]/u;
const MAX_URL_LENGTH = 2048;

/** A path on this site: starts with one `/`, holds no backslash, control or white-space character. */
export function isSitePath(raw: string): boolean {
	return raw.length <= MAX_URL_LENGTH && raw.startsWith('/') && !raw.startsWith('//') && !UNSAFE_CHARACTERS.test(raw);
}

/** An absolute https URL with a host and no user name or password in it. */
export function isHttpsUrl(raw: string): boolean {
	if (raw.length > MAX_URL_LENGTH || UNSAFE_CHARACTERS.test(raw) || !/^https:\/\/[^/]/i.test(raw)) return false;
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return false;
	}
	return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}

/** A link a page may carry: an https URL or a path on this site. */
export function isSafeLink(raw: string): boolean {
	return isSitePath(raw) || isHttpsUrl(raw);
}
