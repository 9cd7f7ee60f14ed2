/**
 * The Popular order of a board's and All Posts' lists: the same listed posts as the newest-first
 * pages (a board's posts with board_seq set, All Posts' with channel_seq set: no notices, nothing
 * hidden, deleted or private), highest hot score first (src/server/posts/hot.ts).
 *
 * Keyset paging: a page after post N holds the POPULAR_PAGE_SIZE posts below N's (hot, id), read
 * from the list's index (migrations/0039: posts_board_hot, posts_channel_hot). So a page reads the
 * rows it shows, one more to know whether a next page exists, and the anchor's row, at any depth
 * (tests/workers/popular.test.ts counts them). A category has no Popular order: its chips lead to
 * the newest-first list.
 *
 * The keys a client can make are the list's own posts: an `after` that names no post of the list
 * is reported (`anchorFound: false`), and the page sends the reader to the first page without
 * storing that answer (docs/reference/edge-cache.md#popular-lists).
 */
import { PAGE_SIZE, parseId } from '@/schemas/params';
import { readGroup, type ReadGroup } from '@/server/platform/reads';
import { SUMMARY_COLUMNS, toSummary, type PostSummary, type SummaryRow } from './lists';

/** Posts on a Popular page: as many as on a newest-first page. */
export const POPULAR_PAGE_SIZE = PAGE_SIZE;

/** The list a Popular page orders: a board's, or All Posts (the channel's). */
export type PopularList = { kind: 'board'; boardId: number } | { kind: 'all' };

export interface PopularPage {
	posts: PostSummary[];
	/** The post the page continues after, or null on the first page. */
	after: number | null;
	/** The post the next page continues after, or null on the last page. */
	next: number | null;
	/** False when `after` names no post of the list (a made-up or removed id). */
	anchorFound: boolean;
}

/** A Popular page as the board shows it: its posts, and the links of its pager (PopularPager.astro). */
export interface PopularView {
	posts: PostSummary[];
	firstHref: string | null;
	nextHref: string | null;
}

/** The condition of the list's listed posts over posts `alias`, with ?1 the board or channel and ?2 the channel. */
function listedSql(list: PopularList, alias: string): string {
	return list.kind === 'board'
		? `${alias}.board_id = ?1 AND ${alias}.channel_id = ?2 AND ${alias}.board_seq IS NOT NULL`
		: `${alias}.channel_id = ?1 AND ${alias}.channel_id = ?2 AND ${alias}.channel_seq IS NOT NULL`;
}

/**
 * A Popular page of `list` after post `after` (null: the first page), for a page that batches it
 * with its session's: the page's rows (and one more), and, after a post, whether that post is in the list.
 */
export function popularPostsRead(db: Db, channelId: number, list: PopularList, after: number | null): ReadGroup<PopularPage> {
	const owner = list.kind === 'board' ? list.boardId : channelId;
	const below = after === null ? '' : `AND (p.hot, p.id) < (SELECT a.hot, a.id FROM posts a WHERE a.id = ?3 AND ${listedSql(list, 'a')})`;
	const page = db
		.prepare(
			`SELECT ${SUMMARY_COLUMNS} FROM posts p JOIN members m ON m.id = p.member_id
			 WHERE ${listedSql(list, 'p')} ${below}
			 ORDER BY p.hot DESC, p.id DESC LIMIT ${POPULAR_PAGE_SIZE + 1}`,
		)
		.bind(owner, channelId, ...(after === null ? [] : [after]));
	const anchor =
		after === null ? [] : [db.prepare(`SELECT 1 AS found FROM posts a WHERE a.id = ?3 AND ${listedSql(list, 'a')}`).bind(owner, channelId, after)];
	return readGroup([page, ...anchor], ([rows, found]) => {
		const summaries = (rows!.results as SummaryRow[]).map(toSummary);
		const posts = summaries.slice(0, POPULAR_PAGE_SIZE);
		return {
			posts,
			after,
			next: summaries.length > POPULAR_PAGE_SIZE ? posts[posts.length - 1]!.postId : null,
			anchorFound: after === null || (found?.results.length ?? 0) > 0,
		};
	});
}

/** The `sort` value of a list URL that asks for the Popular order (no value: newest first). */
export const POPULAR_SORT = 'popular';

/**
 * What a list URL's query asks for, read as the page and the edge cache's key read it (first values):
 * the Popular order and the post it continues after (an id of the right shape, or none), or null
 * for the newest-first list, whose `page` and `subjectId` the Popular order does not read.
 */
export function popularAsked(query: URLSearchParams): { after: number | null } | null {
	return query.get('sort') === POPULAR_SORT ? { after: parseId(query.get('after')) } : null;
}
