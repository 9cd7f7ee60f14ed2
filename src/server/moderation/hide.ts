/**
 * Hiding by an administrator (issue 12 builds the admin area on these): a hidden post or comment
 * keeps its row and its place and shows its state to everyone but administrators
 * (src/server/posts/visibility.ts). Each hide is one D1 batch with the invalidation it needs, so
 * no guest is served the hidden text from the edge cache after the channel row's second:
 * - a post leaves its lists (list-positions.ts, a bounded number of rows) and bumps the channel's
 *   content version, since lists, profiles and the post's page all change;
 * - a comment changes its post's page only: the post's comment_count drops by one (hidden comments
 *   are not counted) and touchPost moves the post's version.
 * Unhiding undoes each: the post returns to its places in its lists (the positions it kept) and to
 * search, the comment is counted again. Hiding what is hidden, or unhiding what is not, changes
 * nothing. Each action that changes something writes its row of the audit log (log.ts) in its batch,
 * and a hide closes the target's open reports as resolved (reports-queue.ts).
 */
import { AppError } from '@/server/platform/errors';
import { assertion, guardedBatch } from '@/server/platform/batch';
import { bumpContentVersion, touchPost } from '@/server/channels/channels';
import { planListChange } from '@/server/posts/list-positions';
import { postSearchStatements } from '@/server/search/search-index';
import type { SessionMember } from '@/server/sign-in/sessions';
import { logStatement } from './log';
import { closeReportsStatement } from './reports-queue';

/** @throws AppError Forbidden for anyone but an administrator */
function requireAdmin(member: SessionMember): void {
	if (member.role !== 'ADMIN') throw new AppError('Forbidden');
}

interface PostRow {
	board_id: number;
	subject_id: number | null;
	is_notice: number;
	is_private: number;
	hidden_by_admin: number;
	version: number;
	board_pos: number | null;
	subject_pos: number | null;
	channel_pos: number | null;
	board_public: number;
	title: string;
	content_text: string;
}

/** Why and when, for the audit log. */
export interface ModerationNote {
	reason?: string;
	now?: number;
}

/**
 * Hides a post from everyone but administrators (`hidden` true), or shows it again (false): it
 * leaves its lists and search, keeping its positions for a return, or takes them back; every
 * cached read of the channel goes cold.
 * @throws AppError Forbidden (not an administrator), PostNotFound (not of this channel, or deleted)
 */
export async function setPostHidden(db: D1Database, channelId: number, admin: SessionMember, postId: number, hidden: boolean, note: ModerationNote = {}): Promise<void> {
	requireAdmin(admin);
	const row = await db
		.prepare(
			`SELECT p.board_id, p.subject_id, p.is_notice, p.is_private, p.hidden_by_admin, p.version, p.board_pos, p.subject_pos, p.channel_pos,
				p.title, p.content_text, b.is_public AS board_public
			 FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = ?1 AND p.channel_id = ?2 AND p.deleted_at IS NULL`,
		)
		.bind(postId, channelId)
		.first<PostRow>();
	if (!row) throw new AppError('PostNotFound');
	if ((row.hidden_by_admin === 1) === hidden) return;
	const placement = {
		boardId: row.board_id,
		subjectId: row.subject_id,
		boardPublic: row.board_public === 1,
		isNotice: row.is_notice === 1,
		visible: !hidden && row.is_private === 0,
	};
	const positions = { boardPos: row.board_pos, subjectPos: row.subject_pos, channelPos: row.channel_pos };
	const before = { ...placement, visible: hidden && row.is_private === 0 };
	const plan = planListChange(db, channelId, { placement: before, positions }, placement);
	const columns = Object.entries(plan.columns).map(([column, expression]) => `, ${column} = ${expression}`).join('');
	await guardedBatch(
		db,
		[
			// The post as read above: an edit, a move or a deletion in between would change its lists.
			assertion(db, 'EXISTS (SELECT 1 FROM posts WHERE id = ?1 AND version = ?2 AND deleted_at IS NULL AND hidden_by_admin = ?3)', postId, row.version, hidden ? 0 : 1),
			...plan.statements,
			db.prepare(`UPDATE posts SET hidden_by_admin = ?3, version = version + 1${columns} WHERE id = ?1 AND channel_id = ?2`).bind(postId, channelId, hidden ? 1 : 0),
			...postSearchStatements(db, channelId, postId, hidden ? null : { title: row.title, body: row.content_text }),
			// Hiding acts on the post's open reports: they leave the queue as resolved.
			...(hidden ? [closeReportsStatement(db, channelId, { type: 'POST', id: postId }, 'RESOLVED', admin.userId, note.now ?? Date.now())] : []),
			logStatement(db, channelId, admin.userId, hidden ? 'HIDE_POST' : 'UNHIDE_POST', { type: 'POST', id: postId }, note.reason ?? '', note.now ?? Date.now()),
			bumpContentVersion(db, channelId),
		],
		'Conflict',
	);
}

/** Hides a post from everyone but administrators. @throws AppError Forbidden, PostNotFound */
export function hidePost(db: D1Database, channelId: number, admin: SessionMember, postId: number, note?: ModerationNote): Promise<void> {
	return setPostHidden(db, channelId, admin, postId, true, note);
}

/** Shows a hidden post again, in its old places. @throws AppError Forbidden, PostNotFound */
export function unhidePost(db: D1Database, channelId: number, admin: SessionMember, postId: number, note?: ModerationNote): Promise<void> {
	return setPostHidden(db, channelId, admin, postId, false, note);
}

/**
 * Hides a comment from everyone but administrators (`hidden` true), or shows it again: its post
 * counts one comment fewer (hidden comments are not counted) or one more, and the post's cached
 * page and comments go cold.
 * @throws AppError Forbidden (not an administrator), CommentNotFound (not of this channel, or deleted)
 */
export async function setCommentHidden(db: D1Database, channelId: number, admin: SessionMember, commentId: number, hidden: boolean, note: ModerationNote = {}): Promise<void> {
	requireAdmin(admin);
	const row = await db
		.prepare('SELECT post_id, hidden_by_admin FROM comments WHERE id = ?1 AND channel_id = ?2 AND deleted_at IS NULL')
		.bind(commentId, channelId)
		.first<{ post_id: number; hidden_by_admin: number }>();
	if (!row) throw new AppError('CommentNotFound');
	if ((row.hidden_by_admin === 1) === hidden) return;
	const to = hidden ? 1 : 0;
	await db.batch([
		db.prepare('UPDATE comments SET hidden_by_admin = ?2 WHERE id = ?1 AND deleted_at IS NULL AND hidden_by_admin = 1 - ?2').bind(commentId, to),
		// changes() is the rows the statement before changed: the count moves only when the change did.
		db.prepare(`UPDATE posts SET comment_count = comment_count ${hidden ? '-' : '+'} 1 WHERE id = ?1 AND changes() = 1`).bind(row.post_id),
		touchPost(db, channelId, row.post_id, hidden ? 'removal' : 'addition'),
		...(hidden ? [closeReportsStatement(db, channelId, { type: 'COMMENT', id: commentId }, 'RESOLVED', admin.userId, note.now ?? Date.now())] : []),
		logStatement(db, channelId, admin.userId, hidden ? 'HIDE_COMMENT' : 'UNHIDE_COMMENT', { type: 'COMMENT', id: commentId }, note.reason ?? '', note.now ?? Date.now(), `(SELECT hidden_by_admin FROM comments WHERE id = ${Number(commentId)}) = ${to}`),
	]);
}

/** Hides a comment from everyone but administrators. @throws AppError Forbidden, CommentNotFound */
export function hideComment(db: D1Database, channelId: number, admin: SessionMember, commentId: number, note?: ModerationNote): Promise<void> {
	return setCommentHidden(db, channelId, admin, commentId, true, note);
}

/** Shows a hidden comment again. @throws AppError Forbidden, CommentNotFound */
export function unhideComment(db: D1Database, channelId: number, admin: SessionMember, commentId: number, note?: ModerationNote): Promise<void> {
	return setCommentHidden(db, channelId, admin, commentId, false, note);
}
