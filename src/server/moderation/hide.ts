/**
 * Hiding by an administrator: a hidden post or comment
 * keeps its row and its place and shows its state to everyone but administrators
 * (src/server/visibility/visibility.ts). Each hide is one D1 batch with the invalidation it needs, so
 * no guest is served the hidden text from the edge cache after the channel row's second:
 * - a post leaves its lists (list-positions.ts, a bounded number of rows) and touchCache marks its
 *   board's list, All Posts, its author's profile and its own page as changed (one row);
 * - a comment changes its post's page only: the post's comment_count drops by one (hidden comments
 *   are not counted) and touchPost moves the post's version.
 * Unhiding undoes each: the post returns to its places in its lists (the positions it kept) and to
 * search, the comment is counted again. Hiding what is hidden, or unhiding what is not, changes
 * nothing. Each action that changes something writes its row of the audit log (log.ts) in its batch.
 * A moderator's hide closes the target's open reports as resolved, also when the target is already
 * hidden (keeping an automatically hidden target hidden), and showing it again closes them as
 * dismissed (reports-queue.ts). The community's automatic hide (autoHide, called when a report
 * reaches the threshold of migrations/0014) has no moderator and leaves the reports open, so the
 * target stays in the queue for a moderator to keep hidden or show again. It never hides an
 * administrator's post or comment, nor a notice (migrations/0016), and marks what it hides
 * (`auto_hidden`) so that readers are told it was hidden after reports from members; a moderator's
 * hide, Keep hidden included, makes it the moderator's (and readers are told so).
 */
import { isAdmin } from '@/lib/roles';
import { AppError } from '@/server/platform/errors';
import { assertion, guardedBatch } from '@/server/platform/batch';
import { touchCache, touchPost } from '@/server/content-versions/versions';
import { planListChange } from '@/server/list-positions/list-positions';
import { postSearchStatements } from '@/server/search-index/search-index';
import type { SessionMember } from '@/server/sign-in/sessions';
import { logStatement } from './log';
import { closeReportsStatement } from './reports-queue';
import { notify } from '@/server/notifications/send';
import { hotAfterSql } from '@/server/posts/hot';

/** @throws AppError Forbidden for anyone but an administrator */
function requireAdmin(member: SessionMember): void {
	if (!isAdmin(member)) throw new AppError('Forbidden');
}

interface PostRow {
	member_id: number;
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
	auto_hidden: number;
	author_role: string;
}

/** Why and when, for the audit log. */
export interface ModerationNote {
	reason?: string;
	now?: number;
}

/** Who hides: an administrator, or (null) the community's automatic hide. */
type Moderator = number | null;

/** What a change does to the target's open reports, and its log entry. */
function reportsAndLog(
	db: Db,
	channelId: number,
	moderator: Moderator,
	target: { type: 'POST' | 'COMMENT'; id: number },
	hidden: boolean,
	note: ModerationNote,
	when?: string,
): D1PreparedStatement[] {
	const now = note.now ?? Date.now();
	const action = moderator === null ? (`AUTO_HIDE_${target.type}` as const) : (`${hidden ? '' : 'UN'}HIDE_${target.type}` as const);
	return [
		...(moderator === null ? [] : [closeReportsStatement(db, channelId, target, hidden ? 'RESOLVED' : 'DISMISSED', moderator, now)]),
		logStatement(db, channelId, moderator, action, target, note.reason ?? '', now, when),
	];
}

/**
 * A moderator's hide of what is hidden already: its open reports are resolved (logged when there
 * were any). What the automatic hide hid becomes the moderator's hide: its readers' label changes,
 * so the post's cached page and comments go cold (`postId`, the post or the comment's post).
 */
async function keepHidden(
	db: Db,
	channelId: number,
	moderator: number,
	target: { type: 'POST' | 'COMMENT'; id: number },
	note: ModerationNote,
	auto: { wasAuto: boolean; postId: number },
): Promise<void> {
	const now = note.now ?? Date.now();
	const table = target.type === 'POST' ? 'posts' : 'comments';
	await db.batch([
		closeReportsStatement(db, channelId, target, 'RESOLVED', moderator, now),
		logStatement(db, channelId, moderator, `HIDE_${target.type}`, target, note.reason ?? '', now, 'changes() > 0'),
		...(auto.wasAuto
			? [
					db.prepare(`UPDATE ${table} SET auto_hidden = 0 WHERE id = ?1 AND auto_hidden = 1`).bind(target.id),
					touchPost(db, channelId, auto.postId, 'addition'),
				]
			: []),
	]);
}

/** The automatic hide leaves an administrator's post or comment, and a notice, as they are. */
function exemptFromAutoHide(moderator: Moderator, facts: { authorRole: string; isNotice: boolean }): boolean {
	return moderator === null && (isAdmin({ role: facts.authorRole }) || facts.isNotice);
}

/**
 * Hides a post from everyone but administrators (`hidden` true), or shows it again (false): it
 * leaves its lists and search, keeping its positions for a return, or takes them back; every
 * cached read of the channel goes cold.
 * @throws AppError Forbidden (not an administrator), PostNotFound (not of this channel, or deleted)
 */
async function setPostHidden(
	db: Db,
	channelId: number,
	admin: SessionMember,
	postId: number,
	hidden: boolean,
	note: ModerationNote = {},
): Promise<void> {
	requireAdmin(admin);
	await changePostHidden(db, channelId, admin.userId, postId, hidden, note);
}

async function changePostHidden(
	db: Db,
	channelId: number,
	moderator: Moderator,
	postId: number,
	hidden: boolean,
	note: ModerationNote,
): Promise<void> {
	const row = await db
		.prepare(
			`SELECT p.member_id, p.board_id, p.subject_id, p.is_notice, p.is_private, p.hidden_by_admin, p.version, p.board_pos, p.subject_pos, p.channel_pos,
				p.title, p.content_text, p.auto_hidden, b.is_public AS board_public, m.role AS author_role
			 FROM posts p JOIN boards b ON b.id = p.board_id JOIN members m ON m.id = p.member_id
			 WHERE p.id = ?1 AND p.channel_id = ?2 AND p.deleted_at IS NULL`,
		)
		.bind(postId, channelId)
		.first<PostRow>();
	if (!row) throw new AppError('PostNotFound');
	if (exemptFromAutoHide(moderator, { authorRole: row.author_role, isNotice: row.is_notice === 1 })) return;
	if ((row.hidden_by_admin === 1) === hidden) {
		if (hidden && moderator !== null)
			await keepHidden(db, channelId, moderator, { type: 'POST', id: postId }, note, { wasAuto: row.auto_hidden === 1, postId });
		return;
	}
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
	const columns = Object.entries(plan.columns)
		.map(([column, expression]) => `, ${column} = ${expression}`)
		.join('');
	await guardedBatch(
		db,
		[
			// The post as read above: an edit, a move or a deletion in between would change its lists.
			assertion(
				db,
				'EXISTS (SELECT 1 FROM posts WHERE id = ?1 AND version = ?2 AND deleted_at IS NULL AND hidden_by_admin = ?3)',
				postId,
				row.version,
				hidden ? 0 : 1,
			),
			...plan.statements,
			db
				.prepare(`UPDATE posts SET hidden_by_admin = ?3, auto_hidden = ?4, version = version + 1${columns} WHERE id = ?1 AND channel_id = ?2`)
				.bind(postId, channelId, hidden ? 1 : 0, hidden && moderator === null ? 1 : 0),
			...postSearchStatements(db, channelId, postId, hidden ? null : { title: row.title, body: row.content_text }),
			...reportsAndLog(db, channelId, moderator, { type: 'POST', id: postId }, hidden, note),
			touchCache(db, channelId, { boards: [row.board_id], memberId: row.member_id, post: { id: postId, change: hidden ? 'removal' : 'addition' } }),
		],
		'Conflict',
	);
	// The author is told, never by whom nor after whose report (src/server/notifications/deliver.ts).
	notify({
		type: 'moderation',
		channelId,
		target: 'POST',
		id: postId,
		hidden,
		moderatorId: moderator,
		at: note.now ?? Date.now(),
		reason: note.reason,
	});
}

/** Hides a post from everyone but administrators. @throws AppError Forbidden, PostNotFound */
export function hidePost(db: Db, channelId: number, admin: SessionMember, postId: number, note?: ModerationNote): Promise<void> {
	return setPostHidden(db, channelId, admin, postId, true, note);
}

/** Shows a hidden post again, in its old places. @throws AppError Forbidden, PostNotFound */
export function unhidePost(db: Db, channelId: number, admin: SessionMember, postId: number, note?: ModerationNote): Promise<void> {
	return setPostHidden(db, channelId, admin, postId, false, note);
}

/**
 * Hides a comment from everyone but administrators (`hidden` true), or shows it again: its post
 * counts one comment fewer (hidden comments are not counted) or one more, and the post's cached
 * page and comments go cold.
 * @throws AppError Forbidden (not an administrator), CommentNotFound (not of this channel, or deleted)
 */
async function setCommentHidden(
	db: Db,
	channelId: number,
	admin: SessionMember,
	commentId: number,
	hidden: boolean,
	note: ModerationNote = {},
): Promise<void> {
	requireAdmin(admin);
	await changeCommentHidden(db, channelId, admin.userId, commentId, hidden, note);
}

async function changeCommentHidden(
	db: Db,
	channelId: number,
	moderator: Moderator,
	commentId: number,
	hidden: boolean,
	note: ModerationNote,
): Promise<void> {
	const row = await db
		.prepare(
			`SELECT c.post_id, c.hidden_by_admin, c.auto_hidden, m.role AS author_role FROM comments c JOIN members m ON m.id = c.member_id
			 WHERE c.id = ?1 AND c.channel_id = ?2 AND c.deleted_at IS NULL`,
		)
		.bind(commentId, channelId)
		.first<{ post_id: number; hidden_by_admin: number; auto_hidden: number; author_role: string }>();
	if (!row) throw new AppError('CommentNotFound');
	if (exemptFromAutoHide(moderator, { authorRole: row.author_role, isNotice: false })) return;
	if ((row.hidden_by_admin === 1) === hidden) {
		if (hidden && moderator !== null)
			await keepHidden(db, channelId, moderator, { type: 'COMMENT', id: commentId }, note, { wasAuto: row.auto_hidden === 1, postId: row.post_id });
		return;
	}
	const to = hidden ? 1 : 0;
	await db.batch([
		db
			.prepare('UPDATE comments SET hidden_by_admin = ?2, auto_hidden = ?3 WHERE id = ?1 AND deleted_at IS NULL AND hidden_by_admin = 1 - ?2')
			.bind(commentId, to, hidden && moderator === null ? 1 : 0),
		// changes() is the rows the statement before changed: the count moves only when the change did.
		db
			.prepare(
				`UPDATE posts SET comment_count = comment_count ${hidden ? '-' : '+'} 1, hot = ${hotAfterSql(0, hidden ? -1 : 1)} WHERE id = ?1 AND changes() = 1`,
			)
			.bind(row.post_id),
		touchPost(db, channelId, row.post_id, hidden ? 'removal' : 'addition'),
		...reportsAndLog(
			db,
			channelId,
			moderator,
			{ type: 'COMMENT', id: commentId },
			hidden,
			note,
			`(SELECT hidden_by_admin FROM comments WHERE id = ${Number(commentId)}) = ${to}`,
		),
	]);
	notify({
		type: 'moderation',
		channelId,
		target: 'COMMENT',
		id: commentId,
		hidden,
		moderatorId: moderator,
		at: note.now ?? Date.now(),
		reason: note.reason,
	});
}

/** Hides a comment from everyone but administrators. @throws AppError Forbidden, CommentNotFound */
export function hideComment(db: Db, channelId: number, admin: SessionMember, commentId: number, note?: ModerationNote): Promise<void> {
	return setCommentHidden(db, channelId, admin, commentId, true, note);
}

/** Shows a hidden comment again. @throws AppError Forbidden, CommentNotFound */
export function unhideComment(db: Db, channelId: number, admin: SessionMember, commentId: number, note?: ModerationNote): Promise<void> {
	return setCommentHidden(db, channelId, admin, commentId, false, note);
}

/**
 * The community's automatic hide: the target of a report that brought its counted open reports to
 * the threshold is hidden with no moderator, its reports left open (reports.ts calls it). A target
 * already hidden, or deleted in between, is left as it is, and so is an administrator's post or
 * comment and a notice.
 */
export async function autoHide(db: Db, channelId: number, target: { type: 'POST' | 'COMMENT'; id: number }, now = Date.now()): Promise<void> {
	try {
		if (target.type === 'POST') await changePostHidden(db, channelId, null, target.id, true, { now });
		else await changeCommentHidden(db, channelId, null, target.id, true, { now });
	} catch (error) {
		// Deleted, or changed by someone else in between: the report stands either way.
		if (error instanceof AppError && ['PostNotFound', 'CommentNotFound', 'Conflict'].includes(error.codeName)) return;
		throw error;
	}
}
