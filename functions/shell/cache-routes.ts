/**
 * Which anonymous GETs the edge cache may answer, and the one canonical URL each is stored under.
 * Only what a route reads belongs in the key: a page drops unknown query keys and normalises the
 * values it reads the way it reads them (an unknown category shows the whole board, a page past
 * the last shows the last), so a random query string cannot make a new cache entry. An API read
 * with an unknown key or a bad value is not cached and answers its 400 from the Worker, which
 * costs no D1 query. A client-supplied `__v` is dropped like any unknown key. The API prefixes
 * (`/v1/`, `/admin/v1/`) are never read as a channel.
 */
import type { Channel } from '@/server/channels/channels';
import type { ListScope } from '@/server/content-versions/versions';
import type { LayoutData } from '@/server/channels/layout';
import { GUEST } from '@/server/visibility/visibility';
import { planBoardPage } from '@/server/posts/board-page';
import { POPULAR_SORT, popularAsked } from '@/server/posts/popular';
import { IdSchema, PAGE_SIZE, PageSchema, channelPathOf, lenientPage, parseId, type ChannelPath } from '@/schemas/params';
import { shownPage } from '@/server/platform/paging';
import { DEFAULT_SEARCH_TYPE, SEARCH_TYPES, searchKeywordProblem } from '@/schemas/search';
import { searchPageOf, searchTypeOf } from '@/server/search/search';

/** What a normaliser knows: the channel, its layout and the id in the route's path, if any. */
interface RouteContext {
	channel: Channel;
	layout: LayoutData;
	pathId: number | null;
	query: URLSearchParams;
}

/** A query value in its canonical form; null drops the key, undefined makes the request uncacheable. */
type Normalize = (value: string, context: RouteContext) => string | null | undefined;

interface CacheRoute {
	path: RegExp;
	query: Record<string, Normalize>;
	/** API reads refuse unknown keys and bad values (400), so such a request is not cached. */
	strict: boolean;
	/** The id in the path is a post's: the answer shows that post and its comments, and is keyed by its version. */
	showsPost?: true;
	/**
	 * The list of posts the answer shows, whose version is in its key: All Posts (any board's posts),
	 * search results, the board in the path or in the boardId query key (All Posts without one), or
	 * the member in the path.
	 */
	lists?: 'all' | 'search' | 'pathBoard' | 'queryBoard' | 'member';
}

/** Page 1 is the default and has no key. */
const pageKey = (shown: number) => (shown === 1 ? null : String(shown));

/** The board page a guest is shown for the URL, read as the page reads it (src/server/posts/board-page.ts). */
function guestBoardPage({ layout, pathId, query }: RouteContext, page: string | null) {
	return planBoardPage(layout, { boardId: pathId, subjectId: query.get('subjectId'), page }, GUEST);
}

/**
 * The Popular order (src/server/posts/popular.ts) reads `sort` and `after`, and neither `page` nor
 * `subjectId`; the newest-first list reads no `after`. The page sends an `after` that names no post
 * of the list to the first page without storing that answer, so the keys are the list's own posts.
 */
const popularSort: Normalize = (_value, { query }) => (popularAsked(query) ? POPULAR_SORT : null);
const popularAfter: Normalize = (_value, { query }) => popularAsked(query)?.after?.toString() ?? null;
/** A board a guest may not read shows no list, in either order: one key. */
const boardListed =
	(normalize: Normalize): Normalize =>
	(value, context) =>
		guestBoardPage(context, null).listing ? normalize(value, context) : null;
/** A normaliser of the newest-first list, whose key the Popular order drops. */
const newestOnly =
	(normalize: Normalize): Normalize =>
	(value, context) =>
		popularAsked(context.query) ? null : normalize(value, context);

const allPostsPage: Normalize = newestOnly((value, { channel }) => pageKey(shownPage(lenientPage(value), channel.listedCount, PAGE_SIZE)));
/** A board everyone may read keys its page as shown; any other board page shows no list, whatever the page. */
const boardPage: Normalize = newestOnly((value, context) => {
	const plan = guestBoardPage(context, value);
	return plan.listing ? pageKey(plan.page) : null;
});
const boardSubject: Normalize = newestOnly((_value, context) => guestBoardPage(context, null).listing?.subject?.subjectId.toString() ?? null);
const memberPage: Normalize = (value) => pageKey(lenientPage(value));
const strictId: Normalize = (value) => {
	const id = IdSchema.safeParse(value);
	return id.success ? String(id.data) : undefined;
};
/** An id a page reads leniently: a valid one is kept, anything else dropped. */
const lenientId: Normalize = (value) => parseId(value)?.toString() ?? null;
/**
 * The post page's comment ids (`commentId`, then `commentsAfter`): the page reads `commentsAfter`
 * only without a valid `commentId`, so then it is dropped. An id of the right shape is kept, and
 * the page sends one that names no comment of the post to the post's own URL without being stored
 * (src/pages/[domain]/[slug]/posts/[postId].astro): the keys of a post are its comments' ids.
 */
const commentAfter: Normalize = (value, { query }) => (parseId(query.get('commentId')) === null ? (parseId(value)?.toString() ?? null) : null);
/** The Best order of a post's comments (docs/reference/best-comments.md): a link to a comment (`commentId`) opens the oldest-first order. */
const commentsSort: Normalize = (value, { query }) => (value === 'best' && parseId(query.get('commentId')) === null ? 'best' : null);
/** The comments API's order: the default has no key; the API refuses any other value (CommentOrderInvalid). */
const strictCommentsSort: Normalize = (value) => (value === 'best' ? value : value === 'oldest' ? null : undefined);
const strictPage: Normalize = (value) => {
	const page = PageSchema.safeParse(value);
	return page.success ? pageKey(page.data) : undefined;
};
/** A search keyword as the results page reads it (trimmed); one far longer than any the page searches is not cached. */
const searchKeyword: Normalize = (value) => (value.length > 80 ? undefined : value.trim() || null);
/** The search type as the results page reads it (searchTypeOf); the default has no key. */
const searchType: Normalize = (value) => {
	const shown = searchTypeOf(value);
	return shown === DEFAULT_SEARCH_TYPE ? null : shown;
};
const searchPage: Normalize = (value) => pageKey(searchPageOf(lenientPage(value)));
/** The API refuses what the page shows an alert for: such a request is left to the Worker. */
const strictKeyword: Normalize = (value) => (searchKeywordProblem(value) === null ? value : undefined);
const strictSearchType: Normalize = (value) =>
	(SEARCH_TYPES as readonly string[]).includes(value) ? (value === DEFAULT_SEARCH_TYPE ? null : value) : undefined;

/** A key the route accepts but whose value does not change the answer. */
const ignored: Normalize = () => null;

/** Page routes under /{domain}/{slug}. */
const PAGE_ROUTES: CacheRoute[] = [
	{ path: /^\/?$/, query: {}, strict: false },
	{ path: /^\/boards\/?$/, query: { page: allPostsPage, sort: popularSort, after: popularAfter }, strict: false, lists: 'all' },
	{
		path: /^\/boards\/(\d+)\/?$/,
		query: { page: boardPage, subjectId: boardSubject, sort: boardListed(popularSort), after: boardListed(popularAfter) },
		strict: false,
		lists: 'pathBoard',
	},
	{ path: /^\/boards\/\d+\/posts(?:\/\d+)?\/?$/, query: {}, strict: false },
	{ path: /^\/posts\/?$/, query: {}, strict: false },
	{ path: /^\/posts\/(\d+)\/?$/, query: { commentId: lenientId, commentsAfter: commentAfter, commentsSort }, strict: false, showsPost: true },
	{ path: /^\/users\/(\d+)\/?$/, query: { page: memberPage }, strict: false, lists: 'member' },
	{ path: /^\/search\/?$/, query: { q: searchKeyword, searchType, page: searchPage }, strict: false, lists: 'search' },
	// The crawlers' files (docs/reference/seo.md): they show the lists, and the boards (content version) with them.
	{ path: /^\/(?:sitemap\.xml|sitemaps\/(?:boards|posts-[1-9]\d{0,8})\.xml|feed\.xml)$/, query: {}, strict: false, lists: 'all' },
	{ path: /^\/boards\/(\d+)\/feed\.xml$/, query: {}, strict: false, lists: 'pathBoard' },
];

/** Public API reads under /public/v1/{domain}/{slug}. */
const API_ROUTES: CacheRoute[] = [
	{ path: /^\/layouts\/(?:header|content|footer)$/, query: {}, strict: true },
	{ path: /^\/boards\/tree$/, query: {}, strict: true },
	{ path: /^\/boards$/, query: {}, strict: true, lists: 'all' },
	{ path: /^\/boards\/(\d+)$/, query: {}, strict: true, lists: 'pathBoard' },
	{ path: /^\/board-subjects$/, query: { boardId: strictId }, strict: true, lists: 'queryBoard' },
	{ path: /^\/posts$/, query: { boardId: strictId, subjectId: strictId, page: strictPage }, strict: true, lists: 'queryBoard' },
	{ path: /^\/posts\/(\d+)$/, query: {}, strict: true, showsPost: true },
	{ path: /^\/posts\/(\d+)\/comments$/, query: { after: strictId, sort: strictCommentsSort }, strict: true, showsPost: true },
	{ path: /^\/users\/(\d+)$/, query: {}, strict: true, lists: 'member' },
	{ path: /^\/users\/(\d+)\/posts$/, query: { page: strictPage }, strict: true, lists: 'member' },
	{ path: /^\/search$/, query: { q: strictKeyword, searchType: strictSearchType, page: strictPage }, strict: true, lists: 'search' },
	{ path: /^\/oauth\/providers$/, query: { callbackUrl: ignored }, strict: true },
	{ path: /^\/oauth\/providers\/exists$/, query: {}, strict: true },
];

export interface CacheableRequest {
	channel: ChannelPath;
	route: CacheRoute;
	/** The path under the channel, without a trailing slash. */
	rest: string;
	/** The path up to and including /{domain}/{slug}. */
	prefix: string;
	/** The post the answer shows (its page, its JSON, its comments), or null for any other read. */
	postId: number | null;
}

/** The cacheable route `url` asks for, or null when the edge cache must leave it to the Worker. */
export function cacheableRoute(url: URL): CacheableRequest | null {
	const api = url.pathname.startsWith('/public/v1/');
	const path = api ? url.pathname.slice('/public/v1'.length) : url.pathname;
	const match = /^\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
	const channel = match ? channelPathOf({ domain: match[1], slug: match[2] }) : null;
	if (!match || !channel) return null;
	const rest = match[3] ?? '';
	const route = (api ? API_ROUTES : PAGE_ROUTES).find((candidate) => candidate.path.test(rest));
	if (!route) return null;
	const postId = route.showsPost ? Number(route.path.exec(rest)?.[1]) : null;
	return {
		channel,
		route,
		rest: rest.replace(/\/$/, ''),
		prefix: `${api ? '/public/v1' : ''}/${channel.domain}/${channel.slug}`,
		postId: postId !== null && Number.isSafeInteger(postId) ? postId : null,
	};
}

/**
 * The canonical URL of a URL without a query (canonicalUrl has nothing to normalise in it): its path,
 * without a trailing slash. Nothing of the layout is needed for it.
 */
export function canonicalPath(url: URL, request: CacheableRequest): URL {
	return new URL(`${request.prefix}${request.rest}`, url.origin);
}

/**
 * The URL the answer to `url` is stored under, and asked of the Worker with, or null when the
 * request must not be cached (an API read the Worker will refuse).
 */
export function canonicalUrl(url: URL, request: CacheableRequest, channel: Channel, layout: LayoutData): URL | null {
	const canonical = canonicalPath(url, request);
	const idText = request.route.path.exec(request.rest)?.[1];
	const context: RouteContext = { channel, layout, pathId: idText === undefined ? null : Number(idText), query: url.searchParams };
	const seen = new Set<string>();
	for (const [key, value] of url.searchParams) {
		const normalize = request.route.query[key];
		if (!normalize || seen.has(key)) {
			// An unknown or repeated key: the API refuses it, a page reads only the first value.
			if (request.route.strict) return null;
			continue;
		}
		seen.add(key);
		const canonicalValue = normalize(value, context);
		if (canonicalValue === undefined) return null;
		if (canonicalValue !== null) canonical.searchParams.set(key, canonicalValue);
	}
	canonical.searchParams.sort();
	return canonical;
}

/** The list whose version keys the answer stored under `canonical` (canonicalUrl), or null when it shows none. */
export function listScopeOf(request: CacheableRequest, canonical: string): ListScope | null {
	const idText = request.route.path.exec(request.rest)?.[1];
	switch (request.route.lists) {
		case 'all':
			return { kind: 'all' };
		case 'search':
			return { kind: 'search' };
		case 'pathBoard':
			return { kind: 'board', boardId: Number(idText) };
		case 'queryBoard': {
			const boardId = new URL(canonical).searchParams.get('boardId');
			return boardId === null ? { kind: 'all' } : { kind: 'board', boardId: Number(boardId) };
		}
		case 'member':
			return { kind: 'member', memberId: Number(idText) };
		default:
			return null;
	}
}
