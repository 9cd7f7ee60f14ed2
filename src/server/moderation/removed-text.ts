/**
 * What a post or comment said, for the community's administrators in the admin area (appeals, and
 * the queue's and the log's entries whose target is gone from readers): the stored text of hidden
 * and author-deleted posts and comments as well as visible ones. A deletion keeps the row and its
 * text (src/server/posts/writing.ts, src/server/comments/writing.ts), as Discourse keeps a deleted
 * post for its staff; a withdrawn member's posts and comments stay too (docs/product-rules.md#states), shown with the
 * withdrawn-member label and no nickname. Plain text only (a post's content_text, a comment's
 * text), which the admin area shows as text, never as HTML. The admin API calls it for the
 * community's administrators alone (functions/api/admin.ts).
 */
import { AppError } from '@/server/platform/errors';
import { authorOf, type PostAuthor } from '@/server/visibility/author';

export interface RemovedText {
	targetType: 'POST' | 'COMMENT';
	targetId: number;
	/** The post itself, or the post a comment belongs to. */
	postId: number;
	/** A post's title; null for a comment. */
	title: string | null;
	text: string;
	writer: PostAuthor;
	createdAt: number;
	editedAt: number | null;
	deletedAt: number | null;
	hidden: boolean;
	/** Hidden by the community's automatic hide rather than by a moderator. */
	autoHidden: boolean;
}

interface Row {
	post_id: number;
	title: string | null;
	text: string;
	member_id: number;
	nickname: string | null;
	withdrawn_at: number | null;
	created_at: number;
	edited_at: number | null;
	deleted_at: number | null;
	hidden_by_admin: number;
	auto_hidden: number;
	role: string;
}

const SQL = {
	POST: `SELECT p.id AS post_id, p.title, p.content_text AS text, p.member_id, m.nickname, m.withdrawn_at, m.role, p.created_at, p.edited_at, p.deleted_at, p.hidden_by_admin, p.auto_hidden
		FROM posts p JOIN members m ON m.id = p.member_id WHERE p.id = ?1 AND p.channel_id = ?2`,
	COMMENT: `SELECT c.post_id, NULL AS title, c.content AS text, c.member_id, m.nickname, m.withdrawn_at, m.role, c.created_at, c.edited_at, c.deleted_at, c.hidden_by_admin, c.auto_hidden
		FROM comments c JOIN members m ON m.id = c.member_id WHERE c.id = ?1 AND c.channel_id = ?2`,
} as const;

/** The stored text of a post or comment of the channel. @throws AppError PostNotFound, CommentNotFound (none in this channel) */
export async function removedText(db: D1Database, channelId: number, target: { type: 'POST' | 'COMMENT'; id: number }): Promise<RemovedText> {
	const row = await db.prepare(SQL[target.type]).bind(target.id, channelId).first<Row>();
	if (!row) throw new AppError(target.type === 'POST' ? 'PostNotFound' : 'CommentNotFound');
	return {
		targetType: target.type,
		targetId: target.id,
		postId: row.post_id,
		title: row.title,
		text: row.text,
		writer: authorOf(row.member_id, row.nickname, row.withdrawn_at, row.role),
		createdAt: row.created_at,
		editedAt: row.edited_at,
		deletedAt: row.deleted_at,
		hidden: row.hidden_by_admin === 1,
		autoHidden: row.auto_hidden === 1,
	};
}
