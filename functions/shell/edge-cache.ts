/**
 * The edge cache for anonymous reads, in front of everything else the Worker does: channel pages
 * and public API GETs are stored under a key that holds the build, the channel's content version
 * and, for the reads that show one post (its page, its JSON, its comments), that post's version,
 * so a change is a new key. Two levels: the isolate's memory (a small LRU, no I/O at all) and the
 * Cache API of the data centre. A request with a session cookie this deployment minted, whose end
 * has not passed, neither reads nor fills the cache with its own answer (All Posts, a board page and
 * a post page are the guest's answer with the member's parts put in: functions/shell/member-pages.ts), and a
 * response that sets a cookie, is private, or is not a success or a redirect is never stored. A
 * guest's page of those three routes is stored with the places of the member's parts in it
 * (functions/shell/page-spots.ts), found once, so that a member's page is spliced, not parsed.
 *
 * Freshness, for guests and for the member pages made from theirs (any other answer to a member is
 * made for them). The isolate that served a write reads the channel row again at once (the API's
 * channel middleware drops its copy), so the next read it serves shows the write; every other
 * isolate sees it within the two seconds it answers its channel row:
 * - the layout changes (the board tree, categories, settings) or members' names: channels.content_version,
 *   in every key of the channel, seen by every isolate within the two seconds it answers its channel row;
 * - a list changes (a post written, moved, retitled, deleted or hidden): the version of that list
 *   (its board's, All Posts', its author's profile: channels.list_versions, touchCache), in the key
 *   of the reads that show that list only, seen within those same two seconds; a body-only edit
 *   moves no list, only the post's removal version (below);
 * - a comment deleted or hidden, a post edited, moved, deleted or hidden: the post's removal version
 *   (touchPost, touchCache), in the key, seen within those same two seconds, and only the post's
 *   own entries (and those of the posts that share its bucket) go cold;
 * - a comment written or edited: the post's version (touchPost), kept with each entry rather than
 *   in its key. An entry of an older version is never answered: the reader that finds it so waits
 *   for the page made again, which takes its place;
 * - everything else an entry shows (like counts, the comment and like counts of lists and
 *   profiles) is at most GUEST_MAX_AGE_MS old: both levels drop an entry at that age, and a hot
 *   entry is refreshed in the background from REFRESH_AFTER_MS on, so no reader waits for it.
 */
import { DIRECTORY, resolveCommunity, type Channel } from '@/server/channels/channels';
import { database } from '@/server/platform/database';
import { databaseNamed } from '@/server/platform/databases';
import { listVersion, postRemovalVersion, postVersion, type ListScope } from '@/server/content-versions/versions';
import { loadLayout, loadLayoutShape, loadProviders, type LayoutData } from '@/server/channels/layout';
import { readAuthCookie } from '@/server/sign-in/cookies';
import { sessionTokenState } from '@/server/sign-in/session-token';
import { sessionSecret } from '@/server/sign-in/session-secret';
import { bookmarkOf } from '@/server/platform/d1-session';
import { cacheableRoute, canonicalPath, canonicalUrl, listScopeOf, type CacheableRequest } from '@functions/shell/cache-routes';
import { answerMember, isBoardPage, isGuestPage, memberPageOf, rewritableRoute, type GuestAnswer } from '@functions/shell/member-pages';
import { PART_SELECTORS } from '@functions/shell/member-rewriters';
import { decodeSpots, encodeSpots, locateSpots } from '@functions/shell/page-spots';
import type { PageSpots } from '@functions/shell/splice';
import { requestUrl } from '@/server/platform/request-url';

/** The oldest answer a guest gets: what no version in the key covers (like counts) is this fresh. */
export const GUEST_MAX_AGE_MS = 60_000;
/** From this age on, a read of an entry also refreshes it in the background. */
export const REFRESH_AFTER_MS = 50_000;
/** The isolate-memory level: at most this many responses and bytes (an isolate has 128 MB). */
const MEMORY_ENTRIES = 1024;
const MEMORY_BYTES = 32 * 1024 * 1024;
/** The time an answer was made, kept with it in the Cache API (and never sent to a reader). */
const STORED_AT = 'X-Edge-Stored-At';
/** The post version an answer was made at, kept with it in the Cache API (and never sent to a reader). */
const STORED_POST_VERSION = 'X-Edge-Post-Version';
/** Where a page's member parts go (functions/shell/page-spots.ts), kept with it in the Cache API (and never sent to a reader). */
const STORED_SPOTS = 'X-Edge-Member-Spots';

interface MemoryEntry {
	status: number;
	/** The headers a hit is sent with (a Headers object: workerd copies it without converting each pair). */
	headers: Headers;
	body: ArrayBuffer;
	/** When the origin made the answer (ms). */
	storedAt: number;
	/** The post version (postVersion) it was made at, for the reads of one post; null for any other. */
	postVersion: number | null;
	/** Where a member's parts go in a page a member's may be made from; null for any other answer, or a page that has none found. */
	spots: PageSpots | null;
}
const memory = new Map<string, MemoryEntry>();
let memoryBytes = 0;
/** The keys being refreshed in the background by this isolate. */
const refreshing = new Set<string>();

/** How many request paths and URLs the isolate remembers the route and canonical form of. */
const ROUTE_MEMO_ENTRIES = 1024;

/** A bounded map: past `maxEntries`, the oldest entry goes (enough for a memo of pure results). */
function boundedMap<V>(maxEntries: number) {
	const entries = new Map<string, V>();
	return {
		get: (key: string) => entries.get(key),
		set(key: string, value: V) {
			if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
			entries.set(key, value);
		},
	};
}

/** The cacheable route of each path asked recently: a pure function of the path, so remembered. */
const routes = boundedMap<CacheableRequest | null>(ROUTE_MEMO_ENTRIES);

function routeOf(url: URL): CacheableRequest | null {
	let route = routes.get(url.pathname);
	if (route === undefined) {
		route = cacheableRoute(url);
		routes.set(url.pathname, route);
	}
	return route;
}

/**
 * The canonical URL of each URL asked recently, per channel and content version (what it is
 * normalised against: the channel's list size, its boards and categories); null for a request the
 * edge cache leaves to the Worker.
 */
const canonicals = boundedMap<string | null>(ROUTE_MEMO_ENTRIES);

function canonicalOf(url: URL, route: CacheableRequest, channel: Channel, layout: () => Promise<LayoutData>): Promise<string | null> | string | null {
	// A URL without a query is its path: the layout is not read for it (nor waited for after a new post).
	if (url.search === '') return canonicalPath(url, route).toString();
	// What it is normalised against moves with the layout and with any list (a list's size).
	const memoKey = `${channel.id}.${channel.contentVersion}.${listVersion(channel, { kind: 'all' })} ${url.href}`;
	const known = canonicals.get(memoKey);
	if (known !== undefined) return known;
	return layout().then((data) => {
		const canonical = canonicalUrl(url, route, channel, data)?.toString() ?? null;
		canonicals.set(memoKey, canonical);
		return canonical;
	});
}

function remember(key: string, entry: MemoryEntry): void {
	if (entry.body.byteLength > MEMORY_BYTES / 8) return;
	forget(key);
	memory.set(key, entry);
	memoryBytes += entry.body.byteLength;
	// A Map iterates in insertion order, so the first key is the least recently used.
	for (const oldest of memory.keys()) {
		if (memory.size <= MEMORY_ENTRIES && memoryBytes <= MEMORY_BYTES) break;
		forget(oldest);
	}
}

function forget(key: string): void {
	const entry = memory.get(key);
	if (!entry) return;
	memory.delete(key);
	memoryBytes -= entry.body.byteLength;
}

const isFresh = (entry: MemoryEntry, now: number) => now - entry.storedAt < GUEST_MAX_AGE_MS;

function recall(key: string, now: number): MemoryEntry | undefined {
	const entry = memory.get(key);
	if (!entry) return undefined;
	forget(key);
	if (!isFresh(entry, now)) return undefined;
	memory.set(key, entry);
	memoryBytes += entry.body.byteLength;
	return entry;
}

/** An entry as a hit is sent: a known length (one piece, not chunked), revalidated by browsers. */
function entryOf(
	status: number,
	stored: Headers,
	body: ArrayBuffer,
	storedAt: number,
	postVersion: number | null,
	spots: PageSpots | null,
): MemoryEntry {
	const headers = new Headers(stored);
	headers.delete(STORED_AT);
	headers.delete(STORED_POST_VERSION);
	headers.delete(STORED_SPOTS);
	headers.set('Content-Length', String(body.byteLength));
	headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
	headers.set('X-Edge-Cache', 'HIT');
	return { status, headers, body, storedAt, postVersion, spots };
}

/**
 * The bytes and member spots of the guest's answers made from an entry that has spots, for a member's
 * page made from them (answerMember splices the parts in): a guest's answer is a Response, which
 * carries neither.
 */
const storedPages = new WeakMap<Response, NonNullable<GuestAnswer['stored']>>();

function sentWith(response: Response, body: ArrayBuffer, spots: PageSpots | null): Response {
	if (spots) storedPages.set(response, { body, spots });
	return response;
}

function fromMemory(entry: MemoryEntry): Response {
	return sentWith(new Response(entry.body, { status: entry.status, headers: entry.headers }), entry.body, entry.spots);
}

/**
 * The request a guest's answer is made from: the canonical URL, and no cookies, so that nothing
 * the browser sent can make the stored answer personal.
 */
function guestRequest(request: Request, canonical: string): Request {
	const headers = new Headers(request.headers);
	headers.delete('cookie');
	return new Request(canonical, { method: 'GET', headers });
}

/**
 * Whether the request carries a session cookie this deployment minted for the channel whose end
 * (the one the token carries: session-token.ts) has not passed at `now`. No D1: a session ended
 * before that (logged out, idle for a week) is known only to D1, and its cookie is cleared by the
 * answer that finds it so (src/server/sign-in/request-session.ts).
 */
async function hasLiveSession(request: Request, channel: Channel, now: number): Promise<boolean> {
	const token = readAuthCookie(request, 'session', channel.domain, channel.slug);
	return token !== null && (await sessionTokenState(sessionSecret(), channel.id, token, now)) === 'live';
}

/**
 * Where an answer is stored: the canonical URL with the versions of what it shows as a last query
 * key, `__v` (a client's own `__v` never reaches a canonical URL): the build, the channel's content
 * version, the version of the list it shows (if any) and, for a post's reads, its removal version.
 * Its version proper is kept with the entry.
 */
function cacheKey(canonical: string, channel: Channel, lists: ListScope | null, postId: number | null): string {
	const list = lists === null ? '' : `.l${listVersion(channel, lists)}`;
	const version = `${__BUILD_ID__}.${channel.contentVersion}${list}${postId === null ? '' : `.${postRemovalVersion(channel, postId)}`}`;
	return `${canonical}${canonical.includes('?') ? '&' : '?'}__v=${version}`;
}

/** Everything a fill of the cache needs: where the answer goes, and how to ask for it. */
interface Fill {
	keyText: string;
	cache: Cache;
	ctx: ExecutionContext;
	ask: () => Promise<Response>;
	now: number;
	/** The version of the post the answer shows, as this isolate knows it; null for other reads. */
	postVersion: number | null;
	/** Whether a member's page may be made from the answer: its member parts' places are found when it is stored. */
	memberPage: boolean;
}

/** Asks the origin for the guest's answer and stores it when it may be; answers what to send. */
async function fill({ keyText, cache, ctx, ask, now, postVersion, memberPage }: Fill): Promise<Response> {
	const response = await ask();
	const storable =
		// A post's page or read that answers 404 or 410 (missing, removed) is kept too, under the
		// post's removal version like its 200: a crawler's second ask costs no D1 query.
		(response.status === 200 ||
			response.status === 301 ||
			response.status === 302 ||
			(postVersion !== null && (response.status === 404 || response.status === 410))) &&
		!response.headers.has('set-cookie') &&
		!/private|no-store/.test(response.headers.get('cache-control') ?? '');
	if (!storable) {
		const sent = new Response(response.body, response);
		sent.headers.set('X-Edge-Cache', 'BYPASS');
		return sent;
	}
	const body = await response.arrayBuffer();
	const spots = memberPage && isGuestPage(response) ? await locateSpots(body, PART_SELECTORS) : null;
	const stored = new Response(body, response);
	stored.headers.set('Cache-Control', `public, s-maxage=${GUEST_MAX_AGE_MS / 1000}`);
	stored.headers.set(STORED_AT, String(now));
	if (postVersion !== null) stored.headers.set(STORED_POST_VERSION, String(postVersion));
	if (spots) stored.headers.set(STORED_SPOTS, encodeSpots(spots, PART_SELECTORS));
	remember(keyText, entryOf(stored.status, stored.headers, body, now, postVersion, spots));
	ctx.waitUntil(cache.put(new Request(keyText), stored));
	const sent = sentWith(new Response(body, response), body, spots);
	sent.headers.set('Content-Length', String(body.byteLength));
	if (!sent.headers.has('cache-control')) sent.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
	sent.headers.set('X-Edge-Cache', 'MISS');
	return sent;
}

/** Makes the entry again in the background, once at a time per isolate. */
function refresh(fillRequest: Fill): void {
	if (refreshing.has(fillRequest.keyText)) return;
	refreshing.add(fillRequest.keyText);
	fillRequest.ctx.waitUntil(
		fill(fillRequest)
			.then((response) => response.body?.cancel())
			.catch(() => undefined)
			.finally(() => refreshing.delete(fillRequest.keyText)),
	);
}

/**
 * The entry a hit is answered from; an entry near the end of its life is made again meanwhile. An
 * entry older than its post's version (a comment written or edited since it was made) is not
 * answered ('old'): the reader waits for the page made again, so no one reads a post's page without
 * a comment the isolate knows of.
 */
function hitOf(entry: MemoryEntry, fillRequest: Fill): MemoryEntry | 'old' {
	const { now, postVersion: current } = fillRequest;
	// Versions only grow: an entry made by an isolate that read the channel row later is not old.
	if (current !== null && entry.postVersion !== null && entry.postVersion < current) return 'old';
	if (now - entry.storedAt >= REFRESH_AFTER_MS) refresh(fillRequest);
	return entry;
}

/** The guest's answer for the entry if this isolate's memory or the data centre's cache holds it (no D1 read to find it), else null. */
async function storedAnswer(fillRequest: Fill): Promise<Response | null> {
	const hit = await storedEntry(fillRequest);
	if (hit === 'old') return fill(fillRequest);
	return hit && fromMemory(hit);
}

/** The entry for the guest's answer if this isolate's memory or the data centre's cache holds it, 'old' if it must be made again, else null. */
async function storedEntry(fillRequest: Fill): Promise<MemoryEntry | 'old' | null> {
	const { keyText, cache, now } = fillRequest;
	const inMemory = recall(keyText, now);
	if (inMemory) return hitOf(inMemory, fillRequest);
	const hit = await cache.match(new Request(keyText));
	if (!hit) return null;
	const body = await hit.arrayBuffer();
	const storedVersion = hit.headers.get(STORED_POST_VERSION);
	// Spots another build wrote, or none: a member's page made from the entry is rewritten by HTMLRewriter.
	const spots = decodeSpots(hit.headers.get(STORED_SPOTS), PART_SELECTORS, body.byteLength);
	const entry = entryOf(
		hit.status,
		hit.headers,
		body,
		Number(hit.headers.get(STORED_AT)),
		storedVersion === null ? null : Number(storedVersion),
		spots,
	);
	if (!isFresh(entry, now)) return null;
	remember(keyText, entry);
	return hitOf(entry, fillRequest);
}

/** The guest's answer for the entry: from this isolate's memory, the data centre's cache, or made and stored. */
async function guestAnswer(fillRequest: Fill): Promise<Response> {
	return (await storedAnswer(fillRequest)) ?? fill(fillRequest);
}

/**
 * Answers `request` from the edge cache when it can, otherwise from `origin`, storing what may be.
 * A member's request (a session cookie this deployment minted, whose end has not passed) goes to
 * `origin` as it is, except All Posts, a board page and a post page, which are the guest's answer with the
 * member's parts put in where the rule of functions/shell/member-pages.ts allows; a guest's is
 * answered for its canonical URL (functions/shell/cache-routes.ts), so that junk query strings,
 * made-up session cookies and ended ones land on the same entry as everyone else. `now` is the
 * request's time (tests pass it; entries, the channel row and session tokens age by it).
 */
export async function withEdgeCache(
	request: Request,
	directory: Db,
	ctx: ExecutionContext,
	origin: (request: Request) => Promise<Response>,
	now = Date.now(),
): Promise<Response> {
	const url = requestUrl(request);
	const route = request.method === 'GET' ? routeOf(url) : null;
	if (!route) return origin(request);
	// The community's rows may live in another database than the directory (docs/reference/databases.md).
	const open = (binding: D1Database) => (binding === databaseNamed(DIRECTORY) ? directory : database(binding));
	const community = await resolveCommunity((name) => databaseNamed(name), open, route.channel.domain, route.channel.slug, now);
	if (!community) return origin(request);
	const { db, channel } = community;
	const member = await hasLiveSession(request, channel, now);
	if (member && !rewritableRoute(route)) return origin(request);
	const layout = () => loadLayout(db, channel);
	const canonical = await canonicalOf(url, route, channel, layout);
	if (canonical === null) return origin(request);
	const keyText = cacheKey(canonical, channel, listScopeOf(route, canonical), route.postId);
	// Workers' CacheStorage has `default`; the DOM typing the pages also load does not know it.
	const cache = (caches as CacheStorage & { default: Cache }).default;
	const fillRequest: Fill = {
		keyText,
		cache,
		ctx,
		ask: () => origin(guestRequest(request, canonical)),
		now,
		postVersion: route.postId === null ? null : postVersion(channel, route.postId),
		memberPage: rewritableRoute(route),
	};
	if (!member) return guestAnswer(fillRequest);
	// A post's page and All Posts are chosen by the channel's sign-in providers alone, a board's by its board
	// too (whether a guest may read it, whether it is for announcements): none of them moves with a new post,
	// so a layout whose counts a new post made old still decides, with no round trip before the session's.
	const page = memberPageOf(
		route,
		url.href,
		canonical,
		isBoardPage(route) ? await loadLayoutShape(db, channel) : { providers: await loadProviders(db, channel) },
	);
	if (!page) return origin(request);
	// A member who wrote in the last minutes (their bookmark cookie: docs/reference/consistency.md) reads
	// their write: their page is made from a guest's page rendered now, on their request's D1 session
	// (which starts at that bookmark), never from a stored one. A stored guest's answer that is no page
	// to put parts into (a post a guest may not read) is known before the session is read: the full
	// render then costs its own round trip alone.
	// A stored entry is used as it is: the guest's Response is made only if the parts cannot be spliced in.
	const hit = bookmarkOf(request) === null ? await storedEntry(fillRequest) : null;
	const entry = hit === 'old' ? null : hit;
	const made = hit === 'old' ? await fill(fillRequest) : null;
	const known = entry ?? made;
	if (known && !isGuestPage(known)) {
		await made?.body?.cancel();
		return origin(request);
	}
	const guestPage = async (): Promise<GuestAnswer> => {
		if (entry) {
			return {
				status: entry.status,
				headers: entry.headers,
				stored: entry.spots && { body: entry.body, spots: entry.spots },
				response: () => fromMemory(entry),
			};
		}
		const response = made ?? (await fill(fillRequest));
		return { status: response.status, headers: response.headers, stored: storedPages.get(response) ?? null, response: () => response };
	};
	return answerMember({ request, db, channel, page, guestAnswer: guestPage, origin, now });
}
