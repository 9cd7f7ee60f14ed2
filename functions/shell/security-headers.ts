/**
 * Stamps the security headers (src/server/platform/security-policy.ts) on every answer of the Worker: pages,
 * JSON, redirects, error pages and edge-cache hits alike. A page keeps the Content-Security-Policy
 * Astro wrote for it; any other answer gets the strict policy that lets nothing load, unless
 * `fallbackPolicy` is off. A page or JSON answer that search engines must not index (src/server/seo/page-seo.ts:
 * isNoindex of its `path`; a redirect too), and any error, says so with `X-Robots-Tag: noindex`;
 * images, scripts and the crawlers' own files are left as they are.
 */
import { DEFAULT_REFERRER_POLICY, SECURITY_HEADERS, STRICT_POLICY } from '@/server/platform/security-policy';
import { isNoindex } from '@/server/seo/page-seo';

export function withSecurityHeaders(response: Response, { fallbackPolicy = true, path }: { fallbackPolicy?: boolean; path?: string } = {}): Response {
	const secured = mutable(response);
	for (const [name, value] of Object.entries(SECURITY_HEADERS)) secured.headers.set(name, value);
	if (!secured.headers.has('Referrer-Policy')) secured.headers.set('Referrer-Policy', DEFAULT_REFERRER_POLICY);
	if (fallbackPolicy && !secured.headers.has('Content-Security-Policy')) secured.headers.set('Content-Security-Policy', STRICT_POLICY);
	const type = secured.headers.get('Content-Type');
	const isDocument = type === null || /^(?:text\/html|application\/json)/.test(type);
	if (secured.status >= 400 || (isDocument && path !== undefined && isNoindex(path, secured.status))) secured.headers.set('X-Robots-Tag', 'noindex');
	return secured;
}

/**
 * `response` itself when its headers can be changed (a page or JSON the Worker made), else a copy:
 * the headers of a fetched response (the assets binding, the Cache API) are immutable.
 */
export function mutable(response: Response): Response {
	try {
		response.headers.set('X-Content-Type-Options', 'nosniff');
		return response;
	} catch {
		return new Response(response.body, response);
	}
}
