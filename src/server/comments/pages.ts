/**
 * A page of a post's comments in either order (oldest first: ./comments.ts; Best: ./best.ts), with
 * the post's Best comments on a first page: the columns the post page's one query and the comments
 * API select, and what a reader sees of them.
 */
import { AppError } from '@/server/platform/errors';
import { parseId } from '@/schemas/params';
import { canReadPost, postStateOfRow, type PostStateColumns, type Viewer } from '@/server/visibility/visibility';
import {
	COMMENT_PAGE_COLUMNS,
	commentPageOf,
	commentPageParams,
	orderOf,
	type CommentItem,
	type CommentOrder,
	type CommentPage,
	type CommentPageColumns,
	type CommentPageStart,
} from './comments';
import { BEST_MARKED_COLUMN, BEST_PAGE_COLUMNS, bestMarkedOf, bestPageOf } from './best';

/**
 * Where the comments of a post page's URL start: `commentId` (a link to a comment: the page holding
 * it, oldest first), else `commentsAfter` (the next page) in the order `commentsSort` names (`best`,
 * or oldest first).
 */
export function commentPageStartOfQuery(query: URLSearchParams): CommentPageStart {
	const from = parseId(query.get('commentId'));
	if (from !== null) return { kind: 'from', commentId: from };
	const after = parseId(query.get('commentsAfter'));
	const order = query.get('commentsSort') === 'best' ? 'best' : 'oldest';
	return after !== null ? { kind: 'after', commentId: after, order } : { kind: 'first', order };
}

/** The columns of a page of `order` and the Best comments (bound as commentPageParams says). */
export const commentColumns = (order: CommentOrder) => `${order === 'best' ? BEST_PAGE_COLUMNS : COMMENT_PAGE_COLUMNS}, ${BEST_MARKED_COLUMN}`;

/** The row commentColumns adds. */
export interface CommentColumns extends CommentPageColumns {
	/** The Best comments (./best.ts), read on a first page; an empty array otherwise. */
	best_json: string | null;
}

/** The page and the Best comments commentColumns read, as `viewer` sees them. */
export function commentsOf(row: CommentColumns, viewer: Viewer, order: CommentOrder): CommentPage & { best: CommentItem[] } {
	const page = order === 'best' ? bestPageOf(row.comments_json, viewer) : commentPageOf(row, viewer);
	return { ...page, best: bestMarkedOf(row.best_json, viewer) };
}

interface PostForCommentsRow extends PostStateColumns, CommentColumns {
	member_id: number;
	comment_count: number;
}

/**
 * A page of the comments of a post the reader may read in full, with the post's comment count.
 * With the reader's session token (`tokenHash`), each comment also says whether they like it and
 * reported it, as the post page's own read does: one probe of comment_likes' primary key and one of
 * the reports' per item, in the same query (so "Show more comments" shows a member's own likes).
 * One D1 query. @throws AppError PostNotFound (not of this channel, or not readable),
 * CommentNotFound (`after` names no comment of the post; in the Best order, none of its top-level comments)
 */
export async function listComments(
	db: Db,
	channelId: number,
	postId: number,
	viewer: Viewer,
	after: number | null,
	order: CommentOrder = 'oldest',
	tokenHash: string | null = null,
): Promise<CommentPage & { commentCount: number }> {
	const start: CommentPageStart = after === null ? { kind: 'first', order } : { kind: 'after', commentId: after, order };
	const row = await db
		.prepare(
			`SELECT p.member_id, p.deleted_at, p.hidden_by_admin, p.is_private, b.is_public AS board_public, p.comment_count, ${commentColumns(orderOf(start))}
			 FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = ?1 AND p.channel_id = ?2`,
		)
		.bind(postId, channelId, ...commentPageParams(start, tokenHash))
		.first<PostForCommentsRow>();
	if (!row || !canReadPost(postStateOfRow(row), row.member_id, viewer)) throw new AppError('PostNotFound');
	if (after !== null && row.anchor_thread === null) throw new AppError('CommentNotFound');
	const { comments, nextAfter } = commentsOf(row, viewer, order);
	return { comments, nextAfter, commentCount: row.comment_count };
}
