/**
 * Writing, editing and deleting comments. Each is one D1 batch (one transaction): a re-check of
 * what was read before it (src/server/platform/batch.ts), the comment's change, the post's
 * `comment_count` and the statement that marks the post's cached pages stale (touchPost). Writing
 * one (create.ts) reads nothing before its batch: its checks are the batch's own reads and guards.
 *
 * - Who: a member who may read the post in full (src/server/visibility/visibility.ts); any other post,
 *   of this channel or another, deleted or not readable, is PostNotFound. A reply names a comment
 *   of the same post that the member may read and that is not deleted; it is stored under that
 *   comment's top-level comment (replies are one level deep). Only the author edits a comment, and
 *   only while it is neither deleted nor hidden; the author or an administrator deletes it.
 * - Text: trimmed, line breaks as `\n`; empty is CommentRequired, more than COMMENT_MAX_LENGTH code
 *   points CommentTooLong.
 * - `comment_count` counts the comments that are neither deleted nor hidden, exactly: a write adds
 *   one, a deletion takes one away only when its UPDATE really deleted a comment that was not
 *   hidden (`changes() = 1`, as likes do), so racing requests never count twice.
 * - Bounded: a comment writes its row with its index entries, the post's row and touchPost's rows;
 *   an edit or a deletion the same or fewer, however many comments the post has
 *   (tests/workers/comments.test.ts measures it).
 */
import { isAdmin } from '@/lib/roles';
import { AppError } from '@/server/platform/errors';
import { guardedBatch, otherAssertion } from '@/server/platform/batch';
import { readTogether } from '@/server/platform/reads';
import { touchPost } from '@/server/content-versions/versions';
import { hotAfterSql } from '@/server/posts/hot';
import type { SessionMember } from '@/server/sign-in/sessions';
import { logStatement } from '@/server/moderation/log';
import { revisionsDeletion, revisionStatements } from '@/server/revisions/revisions';
import { readablePostGuard, readablePostOf, readablePostStatement } from '@/server/visibility/readable-post';
import { mentionsOf, mentionsStatement } from '@/server/notifications/mentions';
import { notify } from '@/server/notifications/send';
import { storedMentions } from '@/lib/mentions';
import type { ReadableCommentItem } from './comments';
import { checkNewMemberComment, DEFAULT_NEW_MEMBER_LIMITS, type NewMemberLimits } from '@/server/spam/new-members';
import { checkedContent, countOf, countStatement, itemOf, storedCommentOf, storedCommentStatement, type StoredCommentRow } from './stored';

export { createComment } from './create';

/**
 * The comment an edit or a deletion acts on (null: not of the post, or deleted), read together with
 * the post's check and `alongside`. The post is checked first, so that PostNotFound wins as it
 * would had the post been read first (nothing about a comment of a post the member may not read is
 * told). The batch that follows checks both again: the post by `readablePostGuard`, whose failure
 * is PostNotFound, and the comment by an `otherAssertion`, whose failure is CommentNotFound.
 * @throws AppError PostNotFound
 */
async function commentToChange(
	db: Db,
	channelId: number,
	member: SessionMember,
	postId: number,
	commentId: number,
	alongside: D1PreparedStatement | null = null,
): Promise<{ stored: StoredCommentRow | null; alongside: D1Result | undefined }> {
	const [comment, post, also] = await readTogether(db, [
		storedCommentStatement(db, channelId, commentId),
		readablePostStatement(db, channelId, member, postId),
		alongside,
	]);
	readablePostOf(post);
	return { stored: storedCommentOf(comment, postId), alongside: also };
}

/**
 * Edits the member's own comment. @throws AppError CommentRequired, CommentTooLong, PostNotFound,
 * CommentNotFound (deleted, or not of the post), Forbidden (someone else's, or hidden by an administrator)
 */
export async function editComment(
	db: Db,
	channelId: number,
	member: SessionMember,
	postId: number,
	commentId: number,
	input: { content: string },
	now: number,
	limits: NewMemberLimits = DEFAULT_NEW_MEMBER_LIMITS,
): Promise<{ comment: ReadableCommentItem }> {
	const content = checkedContent(input.content);
	const { stored, alongside } = await commentToChange(db, channelId, member, postId, commentId, mentionsStatement(db, channelId, [content]));
	if (!stored) throw new AppError('CommentNotFound');
	if (stored.member_id !== member.userId || stored.hidden_by_admin === 1) throw new AppError('Forbidden');
	const mentions = mentionsOf(alongside, [content]);
	checkNewMemberComment(member, limits, now, content, mentions);
	await guardedBatch(
		db,
		[
			readablePostGuard(db, channelId, member, postId),
			otherAssertion(db, 'EXISTS (SELECT 1 FROM comments WHERE id = ?1 AND deleted_at IS NULL AND hidden_by_admin = 0)', commentId),
			// The version the edit replaces, before the UPDATE (src/server/revisions/revisions.ts).
			...revisionStatements(db, channelId, { type: 'COMMENT', id: commentId }, now),
			db
				.prepare('UPDATE comments SET content = ?2, edited_at = ?3, mentions = ?4 WHERE id = ?1')
				.bind(commentId, content, now, storedMentions(mentions)),
			touchPost(db, channelId, postId, 'addition'),
		],
		'PostNotFound',
		'CommentNotFound',
	);
	// A member mentioned by the edit is told; one mentioned before is not told again.
	if (mentions.length > 0) notify({ type: 'comment', channelId, commentId, edited: true });
	return { comment: itemOf({ ...stored, content, edited_at: now, mentions: storedMentions(mentions) }, member) };
}

/**
 * Deletes a comment (its author's or, for an administrator, anyone's). The row stays with its
 * deletion time and its text (administrators read it for appeals): its replies keep their place
 * under it. Deleting a comment deleted meanwhile by another request changes nothing and answers the
 * count. Its author cannot delete it while it is hidden: the author no longer reads it, as with a
 * hidden post (PostNotFound there), so the answer is CommentNotFound, and the moderators keep what
 * they hid. An administrator's deletion of someone else's comment is logged (DELETE_COMMENT).
 * @throws AppError PostNotFound, CommentNotFound (deleted, not of the post, or hidden from its author), Forbidden
 */
export async function deleteComment(
	db: Db,
	channelId: number,
	member: SessionMember,
	postId: number,
	commentId: number,
	now: number,
): Promise<{ commentCount: number }> {
	const { stored } = await commentToChange(db, channelId, member, postId, commentId);
	if (!stored) throw new AppError('CommentNotFound');
	const admin = isAdmin(member);
	if (stored.member_id !== member.userId && !admin) throw new AppError('Forbidden');
	if (!admin && stored.hidden_by_admin === 1) throw new AppError('CommentNotFound');
	const moderated = stored.member_id !== member.userId;
	const results = await guardedBatch(
		db,
		[
			readablePostGuard(db, channelId, member, postId),
			// Hidden meanwhile: the author's deletion fails its re-check and is refused as above.
			...(admin ? [] : [otherAssertion(db, 'EXISTS (SELECT 1 FROM comments WHERE id = ?1 AND hidden_by_admin = 0)', commentId)]),
			db.prepare('UPDATE comments SET deleted_at = ?2 WHERE id = ?1 AND deleted_at IS NULL').bind(commentId, now),
			// Directly after the deletion; a hidden comment was not counted.
			db
				.prepare(
					`UPDATE posts SET comment_count = comment_count - 1, hot = ${hotAfterSql(0, -1)} WHERE id = ?1 AND changes() = 1 AND (SELECT hidden_by_admin FROM comments WHERE id = ?2) = 0`,
				)
				.bind(postId, commentId),
			touchPost(db, channelId, postId, 'removal'),
			revisionsDeletion(db, { type: 'COMMENT', id: commentId }),
			...(moderated
				? [
						logStatement(
							db,
							channelId,
							member.userId,
							'DELETE_COMMENT',
							{ type: 'COMMENT', id: commentId },
							'',
							now,
							`(SELECT deleted_at FROM comments WHERE id = ${Number(commentId)}) = ${Number(now)}`,
						),
					]
				: []),
			countStatement(db, postId),
		],
		'PostNotFound',
		'CommentNotFound',
	);
	return { commentCount: countOf(results.at(-1)) };
}
