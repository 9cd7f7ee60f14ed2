/**
 * What a link in a post may point at, as the editor takes it from a person or a paste: the URL
 * rule of src/lib/safe-url.ts (an https URL or a path on this site). An `http://` link is raised
 * to `https://` (the rule has no plain-http links, and nearly every site answers both), an address
 * without a scheme ("example.com/page") gets `https://`, and an absolute link to this site's own
 * origin becomes its path. Anything else (javascript:, data:, mailto:, a protocol-relative `//host`)
 * is null.
 */
import { isHttpsUrl, isSitePath } from '@/lib/safe-url';

/** A host name with at least one dot, then an optional path: what people type for a link. */
const BARE_ADDRESS = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?::\d+)?(?:[/?#]|$)/i;

export function normalizeLink(raw: string, origin?: string): string | null {
	let url = raw.trim();
	if (url === '') return null;
	if (origin && (url === origin || url.startsWith(`${origin}/`) || url.startsWith(`${origin}?`) || url.startsWith(`${origin}#`))) {
		url = url.slice(origin.length);
		if (!url.startsWith('/')) url = `/${url}`;
	}
	if (url.startsWith('/')) return isSitePath(url) ? url : null;
	if (/^http:\/\//i.test(url)) url = `https://${url.slice('http://'.length)}`;
	else if (!/^[a-z][a-z0-9+.-]*:/i.test(url) && BARE_ADDRESS.test(url)) url = `https://${url}`;
	return isHttpsUrl(url) ? url : null;
}
