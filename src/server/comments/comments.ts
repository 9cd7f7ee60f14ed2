/**
 * The comments of a post as a reader sees them: flat items in thread order (a top-level comment,
 * then its replies oldest first, then the next top-level comment), a page at a time.
 *
 * - Replies are one level deep: a reply to a reply is stored under the same top-level comment
 *   (./writing.ts), so a comment's thread is `coalesce(parent_id, id)`, which migration 0007 indexes
 *   with the post: a page is one range of that index however many comments the post has.
 * - A deleted comment is left out, except a top-level one that still has a reply that is not
 *   deleted: it keeps its place as a tombstone. A hidden one keeps its place and shows its state to
 *   anyone but an administrator (src/server/visibility/visibility.ts canReadComment).
 * - Pages: the first; the one after an item (the API's `after`, which may name an item deleted
 *   since); the one starting at an item's top-level comment (the post page's `?commentId=`).
 */
import { shownEditTime } from '@/server/revisions/revisions';
import { parseMentions, type Mention } from '@/lib/mentions';
import { authorOf, type PostAuthor } from '@/server/visibility/author';
import { canReadComment, commentState, type Viewer } from '@/server/visibility/visibility';
import { COMMENT_PAGE_SIZE } from '@/schemas/comment-limits';

/** A comment the reader may read in full. */
export interface ReadableCommentItem {
	readable: true;
	commentId: number;
	/** The top-level comment a reply is under; null for a top-level comment. */
	parentId: number | null;
	/** VISIBLE, or HIDDEN_BY_ADMIN for an administrator. */
	state: 'VISIBLE' | 'HIDDEN_BY_ADMIN';
	/** Present (true) when hidden by the community's automatic hide, after reports from members. */
	autoHidden?: true;
	author: PostAuthor;
	content: string;
	createdAt: number;
	/** Edited after the grace period (src/server/revisions/revisions.ts): shown as "edited", its earlier versions readable. */
	edited: boolean;
	/** When it was last edited, present when `edited`. */
	editedAt?: number;
	/** A reply's context: the comment it answers (see ReplyTo). Absent on a top-level comment. */
	replyTo?: ReplyTo;
	/** Present (true) on the post page when the signed-in reader has reported this comment. */
	reported?: true;
	/** The members its text mentions (src/lib/mentions.ts); absent when none. */
	mentions?: Mention[];
	/** How many members like it (docs/reference/best-comments.md). */
	likeCount: number;
	/** Present (true) on the post page when the signed-in reader likes it. */
	liked?: true;
	/** In the Best order, on a top-level comment whose thread has more replies than the page shows. */
	moreReplies?: true;
}

/**
 * The comment a reply answers: the reply it was written to (migration 0024), or else its thread's
 * top-level comment. `commentId` is one the list shows (a deleted reply is not listed, so its
 * thread's comment stands in); `nickname` is the answered comment's author, null when the reader
 * may not read that comment (deleted, or hidden from them) or its author has withdrawn.
 */
export interface ReplyTo {
	commentId: number;
	nickname: string | null;
}

/** What a reply's row says of the comment it answers (null columns for a top-level comment). */
export interface ReplyTargetColumns {
	to_id: number | null;
	to_deleted_at: number | null;
	to_hidden: number | null;
	to_nickname: string | null;
	to_withdrawn_at: number | null;
}

/**
 * SQL joins from a comment `c` to the comment it answers `rt` and that one's author `tm`, read by
 * primary key (two rows per reply, none for a top-level comment).
 */
export const REPLY_TARGET_JOINS =
	'LEFT JOIN comments rt ON rt.id = coalesce(c.reply_to_id, c.parent_id) LEFT JOIN members tm ON tm.id = rt.member_id';
export const REPLY_TARGET_COLUMNS =
	'rt.id AS to_id, rt.deleted_at AS to_deleted_at, rt.hidden_by_admin AS to_hidden, tm.nickname AS to_nickname, tm.withdrawn_at AS to_withdrawn_at';

/** The context of a reply under `parentId` as `viewer` sees it; undefined for a top-level comment. */
function replyToOf(parentId: number | null, row: ReplyTargetColumns, viewer: Viewer): ReplyTo | undefined {
	if (parentId === null || row.to_id === null) return undefined;
	const state = commentState({ deletedAt: row.to_deleted_at, hiddenByAdmin: row.to_hidden === 1 });
	const listed = state !== 'DELETED' || row.to_id === parentId;
	const named = canReadComment(state, viewer) && row.to_withdrawn_at === null ? row.to_nickname : null;
	return { commentId: listed ? row.to_id : parentId, nickname: named };
}

/** A comment that keeps its place but shows only its state (docs/reference/product-rules.md#states). */
interface CommentTombstoneItem {
	readable: false;
	commentId: number;
	parentId: number | null;
	state: 'DELETED' | 'HIDDEN_BY_ADMIN';
	/** Present (true) when hidden by the community's automatic hide, after reports from members. */
	autoHidden?: true;
}

export type CommentItem = ReadableCommentItem | CommentTombstoneItem;

/** One page of a post's comments. */
export interface CommentPage {
	comments: CommentItem[];
	/** The last item's id when more items follow, for the next page's `after`; null at the end. */
	nextAfter: number | null;
}

export interface CommentRow extends ReplyTargetColumns {
	id: number;
	parent_id: number | null;
	member_id: number;
	nickname: string | null;
	withdrawn_at: number | null;
	content: string;
	created_at: number;
	edited_at: number | null;
	deleted_at: number | null;
	hidden_by_admin: number;
	role: string;
	auto_hidden: number;
	reported: number;
	mentions: string | null;
	like_count: number;
	liked: number;
}

/** The columns of a page's row, each named in its JSON object (COMMENT_PAGE_COLUMNS) as in CommentRow. */
const COMMENT_ROW_FIELDS = [
	'id',
	'parent_id',
	'member_id',
	'nickname',
	'withdrawn_at',
	'content',
	'created_at',
	'edited_at',
	'deleted_at',
	'hidden_by_admin',
	'role',
	'auto_hidden',
	'to_id',
	'to_deleted_at',
	'to_hidden',
	'to_nickname',
	'to_withdrawn_at',
	'reported',
	'mentions',
	'like_count',
	'liked',
] as const satisfies readonly (keyof CommentRow)[];

/** A comment `c`'s thread: the expression of the index comments_in_thread_order (migration 0007). */
const THREAD = 'coalesce(c.parent_id, c.id)';

/**
 * SQL over a comment `c`: it is an item of the list (not deleted, or a deleted top-level comment
 * that still has a reply that is not deleted). `+c.id` drops the column's affinity, without which
 * SQLite would not compare it with the index's expression.
 */
const LISTED_COMMENT_SQL = `(c.deleted_at IS NULL OR (c.parent_id IS NULL AND EXISTS (SELECT 1 FROM comments r
	WHERE r.post_id = c.post_id AND coalesce(r.parent_id, r.id) = +c.id AND r.id > c.id AND r.deleted_at IS NULL)))`;

/** The thread of the anchor comment ?3 of post ?1 (NULL when it is not one of the post's). */
const ANCHOR_THREAD = '(SELECT coalesce(a.parent_id, a.id) FROM comments a WHERE a.id = ?3 AND a.post_id = ?1)';

/**
 * Whether the reader of session token ?7 reported comment `c` (NULL for a guest and for the API:
 * only the post page, a member's own uncached page, asks): one probe of the reports table's
 * UNIQUE (target_type, target_id, reporter_id) per item, the session read once.
 */
const REPORTED_SQL = `EXISTS (SELECT 1 FROM reports r WHERE r.target_type = 'COMMENT' AND r.target_id = c.id
	AND r.reporter_id = (SELECT s.member_id FROM sessions s WHERE s.token_hash = ?7 AND s.channel_id = ?2))`;

/** Whether the reader of session token ?7 likes comment `c` (as REPORTED_SQL: one probe of comment_likes' primary key per item). */
const LIKED_SQL = `EXISTS (SELECT 1 FROM comment_likes l WHERE l.comment_id = c.id
	AND l.member_id = (SELECT s.member_id FROM sessions s WHERE s.token_hash = ?7 AND s.channel_id = ?2))`;

/** A page's row of comment `c`: its columns, its author's, the comment it answers and the reader's report and like. */
export const PAGE_ROW = `SELECT c.id, c.parent_id, c.member_id, m.nickname, m.withdrawn_at, c.content, c.created_at, c.edited_at, c.deleted_at, c.hidden_by_admin, m.role, c.auto_hidden,
		${REPLY_TARGET_COLUMNS}, ${REPORTED_SQL} AS reported, c.mentions, c.like_count, ${LIKED_SQL} AS liked
	FROM comments c JOIN members m ON m.id = c.member_id ${REPLY_TARGET_JOINS}`;

/** The JSON array of the rows of `rows` (SQL of PAGE_ROW's columns as `t`), each an object named by COMMENT_ROW_FIELDS. */
export const rowsJsonSql = (rows: string) =>
	`(SELECT json_group_array(json_object(${COMMENT_ROW_FIELDS.map((field) => `'${field}', t.${field}`).join(', ')})) FROM (${rows}) t)`;

/**
 * Columns to select beside a post ?1's row, in one query with it:
 * - `comments_json`: a JSON array of up to ?5 listed comments, each an object named by COMMENT_ROW_FIELDS, in thread order after the key
 *   (thread of the anchor ?3, ?4): ?4 = ?3 reads the items after the anchor, ?4 = 0 its whole
 *   thread on; an anchor of NULL (or not of the post) reads from the start;
 * - `anchor_thread`: the anchor's thread, NULL when ?3 names no comment of the post;
 * - `has_earlier`: whether listed items precede the anchor's thread (asked only when ?6 = 1).
 * The page is two ranges of the index comments_in_thread_order, the rest of the anchor's thread and
 * the threads after it (SQLite does not seek an expression index by a row value), each stopped by
 * the LIMIT: a page reads its items, their authors and the deleted items it passes over, never the
 * post's other comments.
 */
export const COMMENT_PAGE_COLUMNS = `
	${rowsJsonSql(`SELECT * FROM (${PAGE_ROW}
				WHERE c.post_id = ?1 AND ${THREAD} = coalesce(${ANCHOR_THREAD}, 0) AND c.id > ?4 AND ${LISTED_COMMENT_SQL}
				ORDER BY c.id LIMIT ?5)
		   UNION ALL
		   SELECT * FROM (${PAGE_ROW}
				WHERE c.post_id = ?1 AND ${THREAD} > coalesce(${ANCHOR_THREAD}, 0) AND ${LISTED_COMMENT_SQL}
				ORDER BY ${THREAD}, c.id LIMIT ?5)
		   LIMIT ?5`)} AS comments_json,
	${ANCHOR_THREAD} AS anchor_thread,
	(?6 = 1 AND EXISTS (SELECT 1 FROM comments c WHERE c.post_id = ?1 AND ${THREAD} < ${ANCHOR_THREAD} AND ${LISTED_COMMENT_SQL})) AS has_earlier`;

/** The columns COMMENT_PAGE_COLUMNS adds to a row. */
export interface CommentPageColumns {
	comments_json: string;
	anchor_thread: number | null;
	has_earlier: number;
}

/** The orders of a post's comments: oldest first (threads in order), or Best (docs/reference/best-comments.md). */
export type CommentOrder = 'oldest' | 'best';

/**
 * Where a page starts: the bound values ?3 to ?6 of COMMENT_PAGE_COLUMNS (and of ./best.ts's pages,
 * whose `after` is a top-level comment). A link to a comment (`from`) opens the oldest-first order.
 */
export type CommentPageStart =
	| { kind: 'first'; order?: CommentOrder }
	| { kind: 'after'; commentId: number; order?: CommentOrder }
	| { kind: 'from'; commentId: number };

/** The order of a page's start. */
export const orderOf = (start: CommentPageStart): CommentOrder => (start.kind !== 'from' && start.order === 'best' ? 'best' : 'oldest');

/**
 * The bound values ?3 to ?8: where the page starts, the reader's session token (their reports and
 * likes) or null, and whether the Best comments are read with it (a first page: ./best.ts).
 */
export function commentPageParams(
	start: CommentPageStart,
	tokenHash: string | null = null,
): [number | null, number, number, number, string | null, number] {
	const limit = COMMENT_PAGE_SIZE + 1;
	switch (start.kind) {
		case 'first':
			return [null, 0, limit, 0, tokenHash, 1];
		case 'after':
			return [start.commentId, start.commentId, limit, 0, tokenHash, 0];
		case 'from':
			return [start.commentId, 0, limit, 1, tokenHash, 0];
	}
}

export function toItem(row: CommentRow, viewer: Viewer): CommentItem {
	const state = commentState({ deletedAt: row.deleted_at, hiddenByAdmin: row.hidden_by_admin === 1 });
	const auto = state === 'HIDDEN_BY_ADMIN' && row.auto_hidden === 1 ? { autoHidden: true as const } : {};
	if (state !== 'VISIBLE' && (state === 'DELETED' || !canReadComment(state, viewer)))
		return { readable: false, commentId: row.id, parentId: row.parent_id, state, ...auto };
	return {
		readable: true,
		commentId: row.id,
		parentId: row.parent_id,
		state,
		...auto,
		author: authorOf(row.member_id, row.nickname, row.withdrawn_at, row.role),
		content: row.content,
		createdAt: row.created_at,
		...editedProperty(row.created_at, row.edited_at),
		...replyToProperty(row.parent_id, row, viewer),
		...(row.reported === 1 ? { reported: true as const } : {}),
		...mentionsProperty(row.mentions),
		likeCount: row.like_count,
		...(row.liked === 1 ? { liked: true as const } : {}),
	};
}

/** `edited`, and `editedAt` when an edit after the grace period shows (so an unedited item keeps its former shape). */
export function editedProperty(createdAt: number, editedAt: number | null): { edited: boolean; editedAt?: number } {
	const shown = shownEditTime(createdAt, editedAt);
	return shown === null ? { edited: false } : { edited: true, editedAt: shown };
}

/** `{ mentions }` when the text mentions members, nothing otherwise (so the item keeps its former shape). */
export function mentionsProperty(stored: string | null): { mentions?: Mention[] } {
	const mentions = parseMentions(stored);
	return mentions.length > 0 ? { mentions } : {};
}

/** `{ replyTo }` for a reply, nothing for a top-level comment (so the item keeps its former shape). */
export function replyToProperty(parentId: number | null, row: ReplyTargetColumns, viewer: Viewer): { replyTo?: ReplyTo } {
	const replyTo = replyToOf(parentId, row, viewer);
	return replyTo ? { replyTo } : {};
}

/** The page COMMENT_PAGE_COLUMNS read, as `viewer` sees it. */
export function commentPageOf(row: CommentPageColumns, viewer: Viewer): CommentPage {
	const rows = JSON.parse(row.comments_json) as CommentRow[];
	// json_group_array keeps the subquery's order in SQLite; sorting again makes it a contract here.
	rows.sort((a, b) => (a.parent_id ?? a.id) - (b.parent_id ?? b.id) || a.id - b.id);
	const page = rows.slice(0, COMMENT_PAGE_SIZE);
	return { comments: page.map((item) => toItem(item, viewer)), nextAfter: rows.length > COMMENT_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null };
}
