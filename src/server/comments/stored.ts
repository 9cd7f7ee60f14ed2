/**
 * A comment as its writes read it (src/server/comments/writing.ts, create.ts): its row with its
 * author and the comment it answers, the answer made of it, the text's checks and the post's count.
 */
import { AppError } from '@/server/platform/errors';
import { firstRowOf } from '@/server/platform/reads';
import type { SessionMember } from '@/server/sign-in/sessions';
import { memberViewer } from '@/server/visibility/visibility';
import { authorOf } from '@/server/visibility/author';
import { COMMENT_MAX_LENGTH, commentLength, normalizeComment } from '@/schemas/comment-limits';
import {
	editedProperty,
	mentionsProperty,
	REPLY_TARGET_COLUMNS,
	REPLY_TARGET_JOINS,
	replyToProperty,
	type ReadableCommentItem,
	type ReplyTargetColumns,
} from './comments';

export interface StoredCommentRow extends ReplyTargetColumns {
	id: number;
	post_id: number;
	parent_id: number | null;
	member_id: number;
	content: string;
	created_at: number;
	edited_at: number | null;
	deleted_at: number | null;
	hidden_by_admin: number;
	/** The comment's author, as a reply to it names them. */
	nickname: string | null;
	withdrawn_at: number | null;
	mentions: string | null;
	like_count: number;
}

/** The columns and joins of a StoredCommentRow, over `comments c`. */
export const STORED_COMMENT_FROM = `SELECT c.id, c.post_id, c.parent_id, c.member_id, c.content, c.created_at, c.edited_at, c.deleted_at, c.hidden_by_admin, am.nickname, am.withdrawn_at, c.mentions, c.like_count, ${REPLY_TARGET_COLUMNS}
	FROM comments c JOIN members am ON am.id = c.member_id ${REPLY_TARGET_JOINS}`;

/** @throws AppError CommentRequired, CommentTooLong */
export function checkedContent(raw: string): string {
	const content = normalizeComment(raw);
	if (content.length === 0) throw new AppError('CommentRequired');
	if (commentLength(content) > COMMENT_MAX_LENGTH) throw new AppError('CommentTooLong');
	return content;
}

/** The read of a comment, for storedCommentOf: to send with a write's other reads. */
export function storedCommentStatement(db: Db, channelId: number, commentId: number): D1PreparedStatement {
	return db.prepare(`${STORED_COMMENT_FROM} WHERE c.id = ?1 AND c.channel_id = ?2`).bind(commentId, channelId);
}

/** A comment of the post, not deleted, from storedCommentStatement's result; null for another post's, another channel's or a deleted one. */
export function storedCommentOf(result: D1Result | undefined, postId: number): StoredCommentRow | null {
	const row = firstRowOf<StoredCommentRow>(result);
	return !row || row.post_id !== postId || row.deleted_at !== null ? null : row;
}

/** The answer's item of the member's own comment. */
export function itemOf(row: StoredCommentRow, member: SessionMember): ReadableCommentItem {
	return {
		readable: true,
		commentId: row.id,
		parentId: row.parent_id,
		state: row.hidden_by_admin === 1 ? 'HIDDEN_BY_ADMIN' : 'VISIBLE',
		author: authorOf(member.userId, member.nickname, null, member.role),
		content: row.content,
		createdAt: row.created_at,
		...editedProperty(row.created_at, row.edited_at),
		...replyToProperty(row.parent_id, row, memberViewer(member)),
		...mentionsProperty(row.mentions),
		likeCount: row.like_count,
	};
}

export const countStatement = (db: Db, postId: number) => db.prepare('SELECT comment_count FROM posts WHERE id = ?1').bind(postId);

/** The post's comment count from countStatement's result. @throws AppError PostNotFound when the post is gone */
export function countOf(result: D1Result | undefined): number {
	const row = result?.results[0] as { comment_count: number } | undefined;
	if (!row) throw new AppError('PostNotFound');
	return row.comment_count;
}
