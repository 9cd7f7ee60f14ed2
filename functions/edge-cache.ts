/**
 * The edge cache for anonymous reads, in front of everything else the Worker does: channel pages
 * and public API GETs are stored under a key that holds the build and the channel's content
 * version, so a change is a new key. Two levels: the isolate's memory (a small LRU, no I/O at all)
 * and the Cache API of the data centre. A request with a session cookie this deployment minted
 * neither reads nor fills the cache, and a response that sets a cookie, is private, or is not a
 * success or a redirect is never stored.
 */
import { resolveChannel, type Channel } from '@/server/channels/channels';
import { loadLayout } from '@/server/channels/layout';
import { readAuthCookie } from '@/server/sign-in/cookies';
import { isMintedSessionToken } from '@/server/sign-in/session-token';
import { sessionSecret } from '@/server/sign-in/session-secret';
import { cacheableRoute, canonicalUrl } from '@functions/cache-routes';

/** How long the edge keeps an entry; the version in the key makes it stale sooner. */
const EDGE_TTL_SECONDS = 600;
/** The isolate-memory level: at most this many responses and bytes (an isolate has 128 MB). */
const MEMORY_ENTRIES = 256;
const MEMORY_BYTES = 16 * 1024 * 1024;

interface MemoryEntry {
	status: number;
	headers: [string, string][];
	body: ArrayBuffer;
}
const memory = new Map<string, MemoryEntry>();
let memoryBytes = 0;

function remember(key: string, entry: MemoryEntry): void {
	if (entry.body.byteLength > MEMORY_BYTES / 8) return;
	const previous = memory.get(key);
	if (previous) memoryBytes -= previous.body.byteLength;
	memory.delete(key);
	memory.set(key, entry);
	memoryBytes += entry.body.byteLength;
	// A Map iterates in insertion order, so the first key is the least recently used.
	for (const [oldest, value] of memory) {
		if (memory.size <= MEMORY_ENTRIES && memoryBytes <= MEMORY_BYTES) break;
		memory.delete(oldest);
		memoryBytes -= value.body.byteLength;
	}
}

function recall(key: string): MemoryEntry | undefined {
	const entry = memory.get(key);
	if (entry) {
		memory.delete(key);
		memory.set(key, entry);
	}
	return entry;
}

function fromMemory(entry: MemoryEntry): Response {
	const response = new Response(entry.body, { status: entry.status, headers: entry.headers });
	// A known length lets the body go out in one piece instead of chunked.
	response.headers.set('Content-Length', String(entry.body.byteLength));
	response.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
	response.headers.set('X-Edge-Cache', 'HIT');
	return response;
}

/**
 * The request a guest's answer is made from: the canonical URL, and no cookies, so that nothing
 * the browser sent can make the stored answer personal.
 */
function guestRequest(request: Request, canonical: URL): Request {
	const headers = new Headers(request.headers);
	headers.delete('cookie');
	return new Request(canonical, { method: 'GET', headers });
}

/** Whether the request carries a session cookie this deployment minted for the channel. */
async function hasMintedSession(request: Request, channel: Channel): Promise<boolean> {
	const token = readAuthCookie(request, 'session', channel.domain, channel.slug);
	return token !== null && isMintedSessionToken(sessionSecret(), channel.id, token);
}

/**
 * Answers `request` from the edge cache when it can, otherwise from `origin`, storing what may be.
 * A member's request (a session cookie this deployment minted) goes to `origin` as it is; a
 * guest's is answered for its canonical URL (functions/cache-routes.ts), so that junk query strings
 * and made-up session cookies land on the same entry as everyone else.
 */
export async function withEdgeCache(
	request: Request,
	db: D1Database,
	ctx: ExecutionContext,
	origin: (request: Request) => Promise<Response>,
	now = Date.now(),
): Promise<Response> {
	const url = new URL(request.url);
	const route = request.method === 'GET' ? cacheableRoute(url) : null;
	if (!route) return origin(request);
	const channel = await resolveChannel(db, route.channel.domain, route.channel.slug, now);
	if (!channel || (await hasMintedSession(request, channel))) return origin(request);
	const canonical = canonicalUrl(url, route, channel, await loadLayout(db, channel));
	if (!canonical) return origin(request);
	const keyUrl = new URL(canonical);
	keyUrl.searchParams.set('__v', `${__BUILD_ID__}.${channel.contentVersion}`);
	const keyText = keyUrl.toString();
	const inMemory = recall(keyText);
	if (inMemory) return fromMemory(inMemory);
	const key = new Request(keyText, { method: 'GET' });
	// Workers' CacheStorage has `default`; the DOM typing the pages also load does not know it.
	const cache = (caches as CacheStorage & { default: Cache }).default;
	const hit = await cache.match(key);
	if (hit) {
		const entry: MemoryEntry = { status: hit.status, headers: [...hit.headers], body: await hit.arrayBuffer() };
		remember(keyText, entry);
		return fromMemory(entry);
	}
	const response = await origin(guestRequest(request, canonical));
	const storable =
		(response.status === 200 || response.status === 301 || response.status === 302) &&
		!response.headers.has('set-cookie') &&
		!/private|no-store/.test(response.headers.get('cache-control') ?? '');
	if (!storable) {
		const sent = new Response(response.body, response);
		sent.headers.set('X-Edge-Cache', 'BYPASS');
		return sent;
	}
	const body = await response.arrayBuffer();
	const stored = new Response(body, response);
	stored.headers.set('Cache-Control', `public, s-maxage=${EDGE_TTL_SECONDS}`);
	remember(keyText, { status: stored.status, headers: [...stored.headers], body });
	ctx.waitUntil(cache.put(key, stored));
	const sent = new Response(body, response);
	sent.headers.set('Content-Length', String(body.byteLength));
	if (!sent.headers.has('cache-control')) sent.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
	sent.headers.set('X-Edge-Cache', 'MISS');
	return sent;
}
