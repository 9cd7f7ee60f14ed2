/**
 * Edit history (docs/reference/edit-history.md): the earlier versions of a post or comment.
 *
 * - An edit made within EDIT_GRACE_MS of the content's creation leaves no mark and no revision (as
 *   Discourse's grace period); a later edit stores the version it replaces, in the edit's own batch
 *   and before its UPDATE (no extra round trip), and the content then shows "edited" with the time
 *   of its last edit (`shownEditTime`).
 * - At most REVISIONS_PER_CONTENT revisions a content: the same batch deletes the oldest beyond it,
 *   so an edit writes at most one revision and deletes at most one. Each is at most its content's
 *   own maximum: a post's title and plain text (40,000 characters), a comment's 1,000 characters.
 * - Who reads them: whoever may read the content (src/server/visibility/visibility.ts); a hidden
 *   content's, administrators only (RevisionsHidden); a deleted one has none (its deletion deleted
 *   them: `revisionsDeletion`), and withdrawal deletes a member's (`memberRevisionsDeletion`).
 */
import { AppError } from '@/server/platform/errors';
import { firstRowOf, readTogether } from '@/server/platform/reads';
import { canReadPost, isAdminViewer, postStateOfRow, type PostStateColumns, type Viewer } from '@/server/visibility/visibility';
import { newIdSql } from '@/server/databases/ids';

/** How long after writing a post or comment its author may still change it without a trace: 5 minutes. */
export const EDIT_GRACE_MS = 5 * 60 * 1000;

/** The time a reader is shown as "edited": the last edit's, when it came after the grace period; otherwise null. */
export function shownEditTime(createdAt: number, editedAt: number | null): number | null {
	return editedAt !== null && editedAt - createdAt > EDIT_GRACE_MS ? editedAt : null;
}

/** The most revisions one post or comment keeps; the oldest goes first. */
export const REVISIONS_PER_CONTENT = 20;

/** What a revision belongs to: a post, or a comment (by its own id). */
export interface RevisionTarget {
	type: 'POST' | 'COMMENT';
	id: number;
}

/** One earlier version: the text as it was (a post's title too), when it was written and when an edit replaced it. */
export interface Revision {
	title?: string;
	content: string;
	writtenAt: number;
	replacedAt: number;
}

const SOURCES = {
	POST: `SELECT ${newIdSql('revisions', '?2')}, channel_id, 'POST', id, member_id, title, content_text, coalesce(edited_at, created_at), ?3 FROM posts`,
	COMMENT: `SELECT ${newIdSql('revisions', '?2')}, channel_id, 'COMMENT', id, member_id, NULL, content, coalesce(edited_at, created_at), ?3 FROM comments`,
} as const;

/**
 * What an edit at `now` adds to its batch, before the UPDATE that changes the content: the version
 * it replaces as a revision, when the content is older than the grace period, and the deletion of
 * the revisions beyond REVISIONS_PER_CONTENT (the oldest one, as each edit adds one). Two rows at most.
 */
export function revisionStatements(db: Db, channelId: number, target: RevisionTarget, now: number): D1PreparedStatement[] {
	return [
		db
			.prepare(
				`INSERT INTO revisions (id, channel_id, content_type, content_id, member_id, title, content, written_at, replaced_at)
				 ${SOURCES[target.type]} WHERE id = ?1 AND channel_id = ?2 AND created_at < ?3 - ?4`,
			)
			.bind(target.id, channelId, now, EDIT_GRACE_MS),
		db
			.prepare(
				`DELETE FROM revisions WHERE content_type = ?1 AND content_id = ?2
				 AND id <= (SELECT id FROM revisions WHERE content_type = ?1 AND content_id = ?2 ORDER BY id DESC LIMIT 1 OFFSET ?3)`,
			)
			.bind(target.type, target.id, REVISIONS_PER_CONTENT),
	];
}

/** Deletes a post's or comment's revisions (its deletion): REVISIONS_PER_CONTENT rows at most. */
export function revisionsDeletion(db: Db, target: RevisionTarget): D1PreparedStatement {
	return db.prepare('DELETE FROM revisions WHERE content_type = ?1 AND content_id = ?2').bind(target.type, target.id);
}

/** Deletes every revision of a member's posts and comments (withdrawal). */
export function memberRevisionsDeletion(db: Db, memberId: number): D1PreparedStatement {
	return db.prepare('DELETE FROM revisions WHERE member_id = ?1').bind(memberId);
}

interface PostStateRow extends PostStateColumns {
	member_id: number;
}

interface CommentStateRow {
	post_id: number;
	deleted_at: number | null;
	hidden_by_admin: number;
}

interface RevisionRow {
	title: string | null;
	content: string;
	written_at: number;
	replaced_at: number;
}

const POST_STATE_SQL = `SELECT p.member_id, p.deleted_at, p.hidden_by_admin, p.is_private, b.is_public AS board_public
	FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = ?1 AND p.channel_id = ?2`;

/**
 * The revisions of a post (`commentId` null) or of one of its comments, newest first, as `viewer`
 * may read them. One round trip: the post's state, the comment's and the revisions are read together.
 * @throws AppError PostNotFound (not of this channel, deleted, or not readable by the viewer),
 * CommentNotFound (not of the post, or deleted), RevisionsHidden (hidden content, to anyone but an administrator)
 */
export async function listRevisions(db: Db, channelId: number, viewer: Viewer, postId: number, commentId: number | null): Promise<Revision[]> {
	const target: RevisionTarget = commentId === null ? { type: 'POST', id: postId } : { type: 'COMMENT', id: commentId };
	const [postRead, commentRead, revisionsRead] = await readTogether(db, [
		db.prepare(POST_STATE_SQL).bind(postId, channelId),
		commentId === null
			? null
			: db.prepare('SELECT post_id, deleted_at, hidden_by_admin FROM comments WHERE id = ?1 AND channel_id = ?2').bind(commentId, channelId),
		db
			.prepare(
				'SELECT title, content, written_at, replaced_at FROM revisions WHERE content_type = ?1 AND content_id = ?2 AND channel_id = ?3 ORDER BY id DESC LIMIT ?4',
			)
			.bind(target.type, target.id, channelId, REVISIONS_PER_CONTENT),
	]);
	const post = firstRowOf<PostStateRow>(postRead);
	if (!post) throw new AppError('PostNotFound');
	const state = postStateOfRow(post);
	// A hidden post shows its state to everyone; its text and its revisions are for administrators.
	if (state === 'HIDDEN_BY_ADMIN' && !isAdminViewer(viewer)) throw new AppError('RevisionsHidden');
	if (!canReadPost(state, post.member_id, viewer)) throw new AppError('PostNotFound');
	if (commentId !== null) {
		const comment = firstRowOf<CommentStateRow>(commentRead);
		if (!comment || comment.post_id !== postId || comment.deleted_at !== null) throw new AppError('CommentNotFound');
		if (comment.hidden_by_admin === 1 && !isAdminViewer(viewer)) throw new AppError('RevisionsHidden');
	}
	return ((revisionsRead?.results as RevisionRow[] | undefined) ?? []).map((row) => ({
		...(row.title === null ? {} : { title: row.title }),
		content: row.content,
		writtenAt: row.written_at,
		replacedAt: row.replaced_at,
	}));
}
