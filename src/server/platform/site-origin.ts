/**
 * The site's own origin, for what must not follow the Host a request came with: the providers'
 * redirect URIs and the Origin check of writes. SITE_ORIGIN (wrangler.toml's [vars]) when the
 * deployment sets it; empty, the origin of the request (the local default, where the site is
 * reached as 127.0.0.1, localhost or a LAN address alike).
 */
import { env } from 'cloudflare:workers';

/**
 * The origin of the site for a request to `requestUrl`.
 * @throws Error when SITE_ORIGIN is set but is not an http(s) origin: a configuration fault
 */
export function siteOrigin(requestUrl: string | URL, configured: unknown = (env as { SITE_ORIGIN?: unknown }).SITE_ORIGIN): string {
	if (typeof configured !== 'string' || configured.trim() === '') return (requestUrl instanceof URL ? requestUrl : new URL(requestUrl)).origin;
	const url = URL.parse(configured.trim());
	if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== configured.trim().replace(/\/$/, '')) {
		throw new Error(`SITE_ORIGIN must be an origin like https://board.example, not ${JSON.stringify(configured)}`);
	}
	return url.origin;
}
