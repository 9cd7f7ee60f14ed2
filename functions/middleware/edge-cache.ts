/**
 * The edge cache for anonymous reads: channel pages and public API GETs are stored in the Cache
 * API under a key that holds the channel's content version, so a change is a new key. A request
 * with a session cookie neither reads nor fills the cache, and a response that sets a cookie, is
 * private or is not a success or a redirect is never stored.
 */
import { createMiddleware } from 'hono/factory';
import { env, waitUntil } from 'cloudflare:workers';
import { contentVersion } from '../../src/server/channels';
import { hasSessionCookie } from '../../src/server/session-cookie';
import { PathSegmentSchema } from '../../src/schemas/params';

/** How long the edge keeps an entry; the version in the key makes it stale sooner. */
const EDGE_TTL_SECONDS = 600;
/** Paths under a channel that depend on who asks, or that must reach the Worker every time. */
const PERSONAL = /^\/(?:login|oauth|mypage|write|posts\/\d+\/edit|auth\/status|oauth\/.*)(?:\/|$)/;

function channelOf(pathname: string): { domain: string; slug: string; rest: string } | null {
	const match = /^(?:\/public\/v1)?\/([^/]+)\/([^/]+)(\/.*)?$/.exec(pathname);
	if (!match) return null;
	const domain = PathSegmentSchema.safeParse(match[1]);
	const slug = PathSegmentSchema.safeParse(match[2]);
	if (!domain.success || !slug.success) return null;
	return { domain: domain.data, slug: slug.data, rest: match[3] ?? '/' };
}

export const edgeCache = createMiddleware(async (c, next) => {
	const request = c.req.raw;
	const url = new URL(request.url);
	const channel = request.method === 'GET' ? channelOf(url.pathname) : null;
	if (!channel || PERSONAL.test(channel.rest) || hasSessionCookie(request.headers.get('cookie'))) {
		await next();
		return;
	}
	const version = await contentVersion(env.DB, channel.domain, channel.slug);
	if (version === null) {
		await next();
		return;
	}
	const keyUrl = new URL(url);
	keyUrl.searchParams.set('__v', String(version));
	const key = new Request(keyUrl.toString(), { method: 'GET' });
	// Workers' CacheStorage has `default`; the DOM typing the pages also load does not know it.
	const cache = (caches as CacheStorage & { default: Cache }).default;
	const hit = await cache.match(key);
	if (hit) {
		const response = new Response(hit.body, hit);
		response.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
		response.headers.set('X-Edge-Cache', 'HIT');
		c.res = response;
		return;
	}
	await next();
	const response = c.res;
	const storable =
		(response.status === 200 || response.status === 301 || response.status === 302) &&
		!response.headers.has('set-cookie') &&
		!/private|no-store/.test(response.headers.get('cache-control') ?? '');
	if (storable) {
		const stored = new Response(response.clone().body, response);
		stored.headers.set('Cache-Control', `public, s-maxage=${EDGE_TTL_SECONDS}`);
		waitUntil(cache.put(key, stored));
	}
	const sent = new Response(response.body, response);
	if (!sent.headers.has('cache-control')) sent.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
	sent.headers.set('X-Edge-Cache', storable ? 'MISS' : 'BYPASS');
	c.res = sent;
});
