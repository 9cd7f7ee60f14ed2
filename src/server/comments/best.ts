/**
 * The Best order of a post's comments and its Best comments (docs/reference/best-comments.md).
 *
 * - Best order: the post's top-level comments that are not deleted, most liked first, ties oldest
 *   first, BEST_THREADS a page (keyset: `after` a top-level comment of the post), each followed by
 *   the first BEST_REPLIES of its replies oldest first; a thread with more says so (`moreReplies`)
 *   and links to itself in the oldest-first order, where it reads whole. One range of the index
 *   comments_best (migration 0041) for the threads, and for each a range of comments_in_thread_order
 *   stopped at its fourth reply: a page reads at most BEST_THREADS + 1 threads and BEST_REPLIES + 1
 *   replies of each (and the deleted replies it passes over), with their authors.
 * - Best comments: when a post has at least BEST_MIN_COMMENTS comments, up to BEST_MARKED of its
 *   top-level comments with at least BEST_MIN_LIKES likes, visible and not deleted, most liked first,
 *   are marked "Best" (above the thread on the first oldest-first page, in place in the Best order).
 *   Read with the first page of either order: at most BEST_MARKED rows of comments_best and their authors.
 */
import { canReadComment, commentState, type Viewer } from '@/server/visibility/visibility';
import { PAGE_ROW, rowsJsonSql, toItem, type CommentItem, type CommentPage, type CommentRow } from './comments';

/** Top-level comments a page of the Best order shows. */
export const BEST_THREADS = 20;
/** Replies shown under each of them; the rest of a thread is read in the oldest-first order. */
export const BEST_REPLIES = 3;
/** A post's Best comments: at most this many … */
const BEST_MARKED = 3;
/** … each liked by at least this many members … */
const BEST_MIN_LIKES = 3;
/** … on a post of at least this many comments. */
const BEST_MIN_COMMENTS = 10;

/** A top-level comment `c` of post ?1 that is not deleted: the rows of the partial index comments_best. */
const BEST_ROW = 'c.post_id = ?1 AND c.parent_id IS NULL AND c.deleted_at IS NULL';

/** The anchor ?3's like count: a top-level comment of the post that is not deleted (NULL otherwise). */
const ANCHOR_LIKES = '(SELECT a.like_count FROM comments a WHERE a.id = ?3 AND a.post_id = ?1 AND a.parent_id IS NULL AND a.deleted_at IS NULL)';

/** The ids of the page's top-level comments (one more than it shows): two ranges of comments_best after the anchor. */
const TOP_SQL = `SELECT id FROM (
	SELECT * FROM (SELECT c.id FROM comments c WHERE ${BEST_ROW} AND c.like_count = ${ANCHOR_LIKES} AND c.id > ?3 ORDER BY c.like_count DESC, c.id LIMIT ${BEST_THREADS + 1})
	UNION ALL
	SELECT * FROM (SELECT c.id FROM comments c WHERE ${BEST_ROW} AND c.like_count < coalesce(${ANCHOR_LIKES}, 9e18) ORDER BY c.like_count DESC, c.id LIMIT ${BEST_THREADS + 1})
	LIMIT ${BEST_THREADS + 1})`;

/** A listed reply `x` of thread `t.id`. */
const replyOf = (x: string) => `${x}.post_id = ?1 AND coalesce(${x}.parent_id, ${x}.id) = +t.id AND ${x}.id > t.id AND ${x}.deleted_at IS NULL`;

/** The replies read of each thread: up to its (BEST_REPLIES + 1)th listed reply, which says that more follow. */
const REPLIES_SQL = `SELECT r.id FROM (${TOP_SQL}) t JOIN comments r ON ${replyOf('r')}
	AND r.id <= coalesce((SELECT x.id FROM comments x WHERE ${replyOf('x')} ORDER BY x.id LIMIT 1 OFFSET ${BEST_REPLIES}), 9e18)`;

/** The columns of a Best page beside a post ?1's row, named as COMMENT_PAGE_COLUMNS's. */
export const BEST_PAGE_COLUMNS = `
	${rowsJsonSql(`SELECT * FROM (${PAGE_ROW} WHERE c.id IN (${TOP_SQL})) UNION ALL SELECT * FROM (${PAGE_ROW} WHERE c.id IN (${REPLIES_SQL}))`)} AS comments_json,
	(SELECT a.id FROM comments a WHERE a.id = ?3 AND a.post_id = ?1 AND a.parent_id IS NULL AND a.deleted_at IS NULL) AS anchor_thread,
	0 AS has_earlier`;

/** The Best comments, read when ?8 = 1 (a first page). */
export const BEST_MARKED_COLUMN = `${rowsJsonSql(`${PAGE_ROW} WHERE ?8 = 1 AND ${BEST_ROW} AND c.hidden_by_admin = 0 AND c.like_count >= ${BEST_MIN_LIKES}
	AND (SELECT q.comment_count FROM posts q WHERE q.id = ?1) >= ${BEST_MIN_COMMENTS} ORDER BY c.like_count DESC, c.id LIMIT ${BEST_MARKED}`)} AS best_json`;

/** The Best comments BEST_MARKED_COLUMN read, as `viewer` sees them (none the reader may not read). */
export function bestMarkedOf(json: string | null, viewer: Viewer): CommentItem[] {
	const rows = JSON.parse(json ?? '[]') as CommentRow[];
	rows.sort(byBest);
	return rows
		.filter((row) => canReadComment(commentState({ deletedAt: row.deleted_at, hiddenByAdmin: row.hidden_by_admin === 1 }), viewer))
		.map((row) => toItem(row, viewer));
}

/** Most liked first, ties oldest first. */
const byBest = (a: CommentRow, b: CommentRow) => b.like_count - a.like_count || a.id - b.id;

/** The page BEST_PAGE_COLUMNS read, as `viewer` sees it: each thread in Best order, its replies under it. */
export function bestPageOf(json: string, viewer: Viewer): CommentPage {
	const rows = JSON.parse(json) as CommentRow[];
	const tops = rows.filter((row) => row.parent_id === null).sort(byBest);
	const shown = tops.slice(0, BEST_THREADS);
	const comments: CommentItem[] = [];
	for (const top of shown) {
		const replies = rows.filter((row) => row.parent_id === top.id).sort((a, b) => a.id - b.id);
		const item = toItem(top, viewer);
		comments.push(replies.length > BEST_REPLIES && item.readable ? { ...item, moreReplies: true } : item);
		comments.push(...replies.slice(0, BEST_REPLIES).map((row) => toItem(row, viewer)));
	}
	return { comments, nextAfter: tops.length > BEST_THREADS ? (shown.at(-1)?.id ?? null) : null };
}
