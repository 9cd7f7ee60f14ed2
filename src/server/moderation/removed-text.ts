/**
 * What a post or comment said, for the community's administrators in the admin area (appeals, and
 * the queue's and the log's entries whose target is gone from readers): the stored text of hidden
 * and author-deleted posts and comments as well as visible ones. A deletion keeps the row and its
 * text (src/server/posts/writing.ts, src/server/comments/writing.ts), as Discourse keeps a deleted
 * post for its staff; a withdrawn member's posts and comments stay too (docs/reference/product-rules.md#states), shown with the
 * withdrawn-member label and no nickname. Plain text only (a post's content_text, a comment's
 * text), which the admin area shows as text, never as HTML. The admin API calls it for the
 * community's administrators alone (functions/api/routers/admin.ts).
 *
 * Every read is logged: one row of the audit log (VIEW_POST_TEXT, VIEW_COMMENT_TEXT: who, which
 * target, when), written in the read's own batch and only when the target is the community's, so
 * that the other administrators see who read what a member took back. One row per read; the API
 * holds reads to the moderation rate limit (30 a minute per administrator).
 */
import { AppError } from '@/server/platform/errors';
import { authorOf, type PostAuthor } from '@/server/visibility/author';
import { logStatement } from './log';

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

/** The audit-log action of reading each kind's text. */
const VIEW_ACTION = { POST: 'VIEW_POST_TEXT', COMMENT: 'VIEW_COMMENT_TEXT' } as const;

/**
 * The stored text of a post or comment of the channel, read by `moderatorId` at `now`, and its row
 * of the audit log, in one batch (nothing is logged when there is no such target).
 * @throws AppError PostNotFound, CommentNotFound (none in this channel)
 */
export async function removedText(
	db: Db,
	channelId: number,
	target: { type: 'POST' | 'COMMENT'; id: number },
	moderatorId: number,
	now: number,
): Promise<RemovedText> {
	// ?1 is the channel and ?5 the target's id in the log's statement.
	const table = target.type === 'POST' ? 'posts' : 'comments';
	const exists = `EXISTS (SELECT 1 FROM ${table} WHERE id = ?5 AND channel_id = ?1)`;
	const [, read] = await db.batch([
		logStatement(db, channelId, moderatorId, VIEW_ACTION[target.type], target, '', now, exists),
		db.prepare(SQL[target.type]).bind(target.id, channelId),
	]);
	const row = read?.results[0] as Row | undefined;
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
