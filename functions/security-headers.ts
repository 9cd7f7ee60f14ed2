/**
 * Stamps the security headers (src/lib/security-policy.ts) on every answer of the Worker: pages,
 * JSON, redirects, error pages and edge-cache hits alike. A page keeps the Content-Security-Policy
 * Astro wrote for it; any other answer gets the strict policy that lets nothing load, unless
 * `fallbackPolicy` is off.
 */
import { DEFAULT_REFERRER_POLICY, SECURITY_HEADERS, STRICT_POLICY } from '@/lib/security-policy';

export function withSecurityHeaders(response: Response, { fallbackPolicy = true } = {}): Response {
	// The headers of a fetched response (the assets binding, the Cache API) are immutable: copy it.
	const secured = new Response(response.body, response);
	for (const [name, value] of Object.entries(SECURITY_HEADERS)) secured.headers.set(name, value);
	if (!secured.headers.has('Referrer-Policy')) secured.headers.set('Referrer-Policy', DEFAULT_REFERRER_POLICY);
	if (fallbackPolicy && !secured.headers.has('Content-Security-Policy')) secured.headers.set('Content-Security-Policy', STRICT_POLICY);
	return secured;
}
