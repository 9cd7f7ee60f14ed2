/**
 * Search results: the posts of one channel whose searched fields contain the query,
 * newest first, a page at a time. Only posts "All Posts" lists are in the index (src/server/search-index/),
 * so what is found is what a guest may read, and a post leaves the results with the batch that
 * hides, deletes or makes it private.
 *
 * Search types: TITLE, CONTENT, TITLE_AND_CONTENT (the default), and ALL, which adds the author's
 * nickname (the post list shows it beside the title). Comments are not searched: a result must
 * show the reader the words they asked for.
 *
 * Cost: the index is read newest first and stops at the page, so a page reads the matches down to
 * its last one; the count stops at SEARCH_COUNT_CAP, and a query found more often shows "1,000+"
 * with the newest SEARCH_COUNT_CAP matches in SEARCH_MAX_PAGE pages.
 */
import { searchPhrase } from '@/server/search-index/search-text';
import { PAGE_SIZE } from '@/schemas/params';
import { pageCount } from '@/server/platform/paging';
import { readGroup, run, type ReadGroup } from '@/server/platform/reads';
import { DEFAULT_SEARCH_TYPE, SEARCH_TYPES } from '@/schemas/search';
import { SUMMARY_COLUMNS, toSummary, type PostPage, type SummaryRow } from '@/server/posts/lists';
import { channelRange } from '@/server/search-index/search-index';

export type SearchType = (typeof SEARCH_TYPES)[number];

/** Matches counted at most; more show as "1,000+". */
export const SEARCH_COUNT_CAP = 1000;
/** The deepest page: the newest SEARCH_COUNT_CAP matches. */
export const SEARCH_MAX_PAGE = SEARCH_COUNT_CAP / PAGE_SIZE;

export interface SearchResults extends PostPage {
	/** More than SEARCH_COUNT_CAP posts match: totalCount is the cap. */
	capped: boolean;
	/** The plain text of each listed post's body, for its excerpt. */
	bodies: Map<number, string>;
}

const COLUMNS: Record<Exclude<SearchType, 'ALL'>, string> = { TITLE: 'title', CONTENT: 'body', TITLE_AND_CONTENT: '{title body}' };

/** The search type a results page shows for its `searchType` query value: the default for anything that is none. */
export function searchTypeOf(raw: string | null): SearchType {
	return (SEARCH_TYPES as readonly string[]).includes(raw ?? '') ? (raw as SearchType) : DEFAULT_SEARCH_TYPE;
}

/** The page a search shows, read as its page reads it: 1 to SEARCH_MAX_PAGE. */
export function searchPageOf(page: number): number {
	return Math.min(Math.max(1, page), SEARCH_MAX_PAGE);
}

/**
 * The ids of matching posts, newest first: at most `limit` of them (the hits CTE of both reads).
 * Binds ?1 MATCH expression of post_search, ?2 and ?3 the channel's rowid range, ?4 the limit;
 * for ALL also ?5 the member_search expression.
 */
function hitsSql(type: SearchType): string {
	const posts = `SELECT rowid - ?2 AS id FROM post_search WHERE post_search MATCH ?1 AND rowid BETWEEN ?2 AND ?3 ORDER BY rowid DESC LIMIT ?4`;
	if (type !== 'ALL') return posts;
	// Each side's newest ?4 hold the union's newest ?4. The members' side reads each matching
	// member's listed posts newest first from posts_listed_by_member alone (the index holds what it
	// asks: no post's row is read), and stops a member's walk once its next post is older than the
	// newest ?4 kept so far (SQLite's sort with a limit over an ordered inner loop): it reads about
	// ?4 entries plus one per member, whatever the number of their posts, and its sort holds ?4 ids.
	// Left to itself, the planner walks every listed post of the channel for each member.
	return `SELECT id FROM (SELECT id FROM (${posts})
		UNION SELECT id FROM (SELECT p.id
			FROM (SELECT rowid - ?2 AS member_id FROM member_search WHERE member_search MATCH ?5 AND rowid BETWEEN ?2 AND ?3) a
			CROSS JOIN posts p INDEXED BY posts_listed_by_member ON p.member_id = a.member_id
			WHERE p.channel_seq IS NOT NULL ORDER BY p.id DESC LIMIT ?4))
		ORDER BY id DESC LIMIT ?4`;
}

/** The bound values of hitsSql but the limit: the channel's range, the MATCH expressions. */
function matchOf(channelId: number, phrase: string, type: SearchType) {
	const [low, high] = channelRange(channelId);
	const expression = type === 'ALL' ? `{title body} : ${phrase}` : `${COLUMNS[type]} : ${phrase}`;
	return { low, high, expression, extra: type === 'ALL' ? [`nickname : ${phrase}`] : [] };
}

/** The ids of the newest `limit` posts matching `query`, newest first: what the pages of searchPosts list, together (for the recall bench). */
export async function matchingPostIds(db: Db, channelId: number, query: string, type: SearchType, limit = SEARCH_COUNT_CAP): Promise<number[]> {
	const phrase = searchPhrase(query);
	if (phrase === null) return [];
	const { low, high, expression, extra } = matchOf(channelId, phrase, type);
	const { results } = await db
		.prepare(`WITH hits AS (${hitsSql(type)}) SELECT id FROM hits`)
		.bind(expression, low, high, limit, ...extra)
		.all<{ id: number }>();
	return results.map((row) => row.id);
}

/**
 * Page `page` of the posts matching `query` (2 to 20 characters, already checked) in a channel,
 * from two reads sent together: the page's rows and the capped count; none for a query with
 * nothing to search (no results then).
 */
export function searchRead(db: Db, channelId: number, query: string, type: SearchType, page: number): ReadGroup<SearchResults> {
	const phrase = searchPhrase(query);
	if (phrase === null) return readGroup([], () => searchResultsOf([], page));
	const { low, high, expression, extra } = matchOf(channelId, phrase, type);
	const offset = (searchPageOf(page) - 1) * PAGE_SIZE;
	const statements = [
		db
			.prepare(
				`WITH hits AS (${hitsSql(type)})
				 SELECT ${SUMMARY_COLUMNS}, p.content_text FROM (SELECT id FROM hits ORDER BY id DESC LIMIT ${PAGE_SIZE} OFFSET ${offset}) h
				 JOIN posts p ON p.id = h.id JOIN members m ON m.id = p.member_id
				 WHERE p.channel_id = ?2 / ${2 ** 32} AND p.channel_seq IS NOT NULL ORDER BY p.id DESC`,
			)
			.bind(expression, low, high, offset + PAGE_SIZE, ...extra),
		db.prepare(`WITH hits AS (${hitsSql(type)}) SELECT count(*) AS n FROM hits`).bind(expression, low, high, SEARCH_COUNT_CAP + 1, ...extra),
	];
	return readGroup(statements, (results) => searchResultsOf(results, page));
}

/** The results of searchRead for page `page`, from its results (none: no results). */
function searchResultsOf(results: readonly D1Result[], page: number): SearchResults {
	const [rows, counted] = results;
	if (!rows || !counted) {
		return { notices: [], posts: [], page: 1, pageSize: PAGE_SIZE, totalCount: 0, totalPages: 1, capped: false, bodies: new Map() };
	}
	const found = rows.results as (SummaryRow & { content_text: string })[];
	const total = Number((counted.results[0] as { n: number } | undefined)?.n ?? 0);
	const capped = total > SEARCH_COUNT_CAP;
	const totalCount = Math.min(total, SEARCH_COUNT_CAP);
	return {
		notices: [],
		posts: found.map(toSummary),
		page: searchPageOf(page),
		pageSize: PAGE_SIZE,
		totalCount,
		totalPages: pageCount(totalCount, PAGE_SIZE),
		capped,
		bodies: new Map(found.map((row) => [row.id, row.content_text])),
	};
}

/**
 * Page `page` of the posts matching `query` (2 to 20 characters, already checked) in a channel:
 * one round trip of two reads, the page's rows and the capped count.
 */
export async function searchPosts(db: Db, channelId: number, query: string, type: SearchType, page: number): Promise<SearchResults> {
	return run(db, searchRead(db, channelId, query, type, page));
}
