/**
 * Writing, editing and deleting comments. Each is one D1 batch (one transaction): a re-check of
 * what was read before it (src/server/platform/batch.ts), the comment's change, the post's
 * `comment_count` and the statement that marks the post's cached pages stale (touchPost).
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
import { AppError, isAppError } from '@/server/platform/errors';
import { assertion, guardedBatch, otherAssertion } from '@/server/platform/batch';
import { firstRowOf, readTogether } from '@/server/platform/reads';
import { touchPost } from '@/server/content-versions/versions';
import type { SessionMember } from '@/server/sign-in/sessions';
import { canReadComment, commentState, memberViewer } from '@/server/visibility/visibility';
import { authorOf } from '@/server/visibility/author';
import { logStatement } from '@/server/moderation/log';
import { assertReadablePost, readablePostGuard, readablePostOf, readablePostStatement } from '@/server/visibility/readable-post';
import { COMMENT_MAX_LENGTH, commentLength, normalizeComment } from '@/schemas/comment-limits';
import type { CreateCommentInput } from '@/schemas/comment';
import { mentionsOf, mentionsStatement, resolveMentions } from '@/server/notifications/mentions';
import { notify } from '@/server/notifications/send';
import { storedMentions } from '@/lib/mentions';
import {
	mentionsProperty,
	REPLY_TARGET_COLUMNS,
	REPLY_TARGET_JOINS,
	replyToProperty,
	type ReadableCommentItem,
	type ReplyTargetColumns,
} from './comments';
import {
	checkNewMemberComment,
	DEFAULT_NEW_MEMBER_LIMITS,
	isNewMember,
	writeCountGuard,
	writeCountReached,
	type NewMemberLimits,
} from '@/server/spam/new-members';

interface StoredCommentRow extends ReplyTargetColumns {
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
}

/** @throws AppError CommentRequired, CommentTooLong */
function checkedContent(raw: string): string {
	const content = normalizeComment(raw);
	if (content.length === 0) throw new AppError('CommentRequired');
	if (commentLength(content) > COMMENT_MAX_LENGTH) throw new AppError('CommentTooLong');
	return content;
}

/** The read of a comment, for storedCommentOf: to send with a write's other reads. */
function storedCommentStatement(db: Db, channelId: number, commentId: number): D1PreparedStatement {
	return db
		.prepare(
			`SELECT c.id, c.post_id, c.parent_id, c.member_id, c.content, c.created_at, c.edited_at, c.deleted_at, c.hidden_by_admin, am.nickname, am.withdrawn_at, c.mentions, ${REPLY_TARGET_COLUMNS}
			 FROM comments c JOIN members am ON am.id = c.member_id ${REPLY_TARGET_JOINS} WHERE c.id = ?1 AND c.channel_id = ?2`,
		)
		.bind(commentId, channelId);
}

/** A comment of the post, not deleted, from storedCommentStatement's result; null for another post's, another channel's or a deleted one. */
function storedCommentOf(result: D1Result | undefined, postId: number): StoredCommentRow | null {
	const row = firstRowOf<StoredCommentRow>(result);
	return !row || row.post_id !== postId || row.deleted_at !== null ? null : row;
}

/** A comment of the post, not deleted, read now (storedCommentOf). */
async function storedComment(db: Db, channelId: number, postId: number, commentId: number): Promise<StoredCommentRow | null> {
	return storedCommentOf(await storedCommentStatement(db, channelId, commentId).all(), postId);
}

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
 * Runs a comment's batch. A failed re-check means the post or the comment changed since they were
 * read: the post's own check answers PostNotFound when the post is the cause, CommentNotFound otherwise.
 */
async function runGuarded(db: Db, statements: D1PreparedStatement[], recheckPost: () => Promise<unknown>): Promise<D1Result[]> {
	try {
		return await guardedBatch(db, statements, 'Conflict');
	} catch (error) {
		if (!isAppError(error) || error.codeName !== 'Conflict') throw error;
		await recheckPost();
		throw new AppError('CommentNotFound');
	}
}

function itemOf(row: StoredCommentRow, member: SessionMember): ReadableCommentItem {
	return {
		readable: true,
		commentId: row.id,
		parentId: row.parent_id,
		state: row.hidden_by_admin === 1 ? 'HIDDEN_BY_ADMIN' : 'VISIBLE',
		author: authorOf(member.userId, member.nickname, null, member.role),
		content: row.content,
		createdAt: row.created_at,
		edited: row.edited_at !== null,
		...replyToProperty(row.parent_id, row, memberViewer(member)),
		...mentionsProperty(row.mentions),
	};
}

const countStatement = (db: Db, postId: number) => db.prepare('SELECT comment_count FROM posts WHERE id = ?1').bind(postId);

function countOf(result: D1Result | undefined): number {
	const row = result?.results[0] as { comment_count: number } | undefined;
	if (!row) throw new AppError('PostNotFound');
	return row.comment_count;
}

/** A member's earlier comment made by the same request, with the post's count. */
async function earlierComment(
	db: Db,
	member: SessionMember,
	postId: number,
	requestId: string,
): Promise<{ comment: ReadableCommentItem; commentCount: number } | null> {
	const [found, count] = await db.batch([
		db
			.prepare(
				`SELECT c.id, c.post_id, c.parent_id, c.member_id, c.content, c.created_at, c.edited_at, c.deleted_at, c.hidden_by_admin, am.nickname, am.withdrawn_at, c.mentions, ${REPLY_TARGET_COLUMNS}
				 FROM comments c JOIN members am ON am.id = c.member_id ${REPLY_TARGET_JOINS} WHERE c.member_id = ?1 AND c.request_id = ?2`,
			)
			.bind(member.userId, requestId),
		countStatement(db, postId),
	]);
	const row = found?.results[0] as StoredCommentRow | undefined;
	if (!row) return null;
	// The same request id for another post, or a comment deleted since: not a retry of this one.
	if (row.post_id !== postId || row.deleted_at !== null) throw new AppError('Conflict');
	return { comment: itemOf(row, member), commentCount: countOf(count) };
}

/**
 * Writes a comment, or a reply when `input.parentId` names one. A second request with the same
 * `requestId` from the same member answers the comment the first one wrote. A new member's comment
 * keeps to the community's limits (src/server/spam/new-members.ts); the count is an assertion of the batch.
 * @throws AppError CommentRequired, CommentTooLong, PostNotFound, CommentNotFound (the parent),
 * NewMemberTooManyLinks, NewMemberTooManyMentions, NewMemberCommentLimit
 */
export async function createComment(
	db: Db,
	channelId: number,
	member: SessionMember,
	postId: number,
	input: CreateCommentInput,
	now: number,
	limits: NewMemberLimits = DEFAULT_NEW_MEMBER_LIMITS,
): Promise<{ comment: ReadableCommentItem; commentCount: number }> {
	const content = checkedContent(input.content);
	const newMember = isNewMember(member, limits, now);
	// A repeated request id is found by the INSERT itself (it inserts nothing), not by a read before it.
	const guards = [readablePostGuard(db, channelId, member, postId)];
	if (newMember) guards.push(writeCountGuard(db, 'comments', member.userId, limits.maxComments));
	let threadId: number | null = null;
	// The reply answered when it is not the thread's top-level comment (migration 0024), and what the answer says of it.
	let replyToId: number | null = null;
	let target: ReplyTargetColumns = { to_id: null, to_deleted_at: null, to_hidden: null, to_nickname: null, to_withdrawn_at: null };
	if (input.parentId !== undefined && input.parentId !== null) {
		const parent = await storedComment(db, channelId, postId, input.parentId);
		const readable =
			parent !== null &&
			canReadComment(commentState({ deletedAt: parent.deleted_at, hiddenByAdmin: parent.hidden_by_admin === 1 }), memberViewer(member));
		if (!parent || !readable) {
			// A retry of a reply whose parent went meanwhile answers the reply the first request wrote.
			await assertReadablePost(db, channelId, member, postId);
			const earlier = input.requestId === undefined ? null : await earlierComment(db, member, postId, input.requestId);
			if (earlier) return earlier;
			throw new AppError('CommentNotFound');
		}
		threadId = parent.parent_id ?? parent.id;
		replyToId = parent.parent_id === null ? null : parent.id;
		target = {
			to_id: parent.id,
			to_deleted_at: null,
			to_hidden: parent.hidden_by_admin,
			to_nickname: parent.nickname,
			to_withdrawn_at: parent.withdrawn_at,
		};
		guards.push(
			assertion(
				db,
				'EXISTS (SELECT 1 FROM comments WHERE id = ?1 AND deleted_at IS NULL AND hidden_by_admin = ?2)',
				parent.id,
				parent.hidden_by_admin,
			),
		);
	}
	const mentions = await resolveMentions(db, channelId, [content]);
	checkNewMemberComment(member, limits, now, content, mentions);
	const insert = db
		.prepare(
			`INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at, request_id, reply_to_id, mentions)
			 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT DO NOTHING RETURNING id`,
		)
		.bind(channelId, postId, threadId, member.userId, content, now, input.requestId ?? null, replyToId, storedMentions(mentions));
	const results = await runGuarded(
		db,
		[
			...guards,
			insert,
			// Directly after the INSERT: changes() reads the statement before it (a repeated request inserts nothing).
			db.prepare('UPDATE posts SET comment_count = comment_count + 1 WHERE id = ?1 AND changes() = 1').bind(postId),
			touchPost(db, channelId, postId, 'addition'),
			countStatement(db, postId),
		],
		() => assertReadablePost(db, channelId, member, postId),
	).catch(async (error: unknown) => {
		// A failed check that is not the post's: the new member's count, when it is reached, tells why.
		if (
			!newMember ||
			!isAppError(error) ||
			error.codeName !== 'CommentNotFound' ||
			!(await writeCountReached(db, 'comments', member.userId, limits.maxComments))
		)
			throw error;
		// A retry of the comment that reached the count answers that comment.
		const earlier = input.requestId === undefined ? null : await earlierComment(db, member, postId, input.requestId).catch(() => null);
		if (earlier) return earlier;
		throw new AppError('NewMemberCommentLimit', undefined, { limit: limits.maxComments });
	});
	if (!Array.isArray(results)) return results;
	const inserted = results[guards.length]?.results[0] as { id: number } | undefined;
	if (!inserted) {
		// A repeated request (a retry, or the same one twice at once): the first one wrote the comment.
		const earlier = input.requestId === undefined ? null : await earlierComment(db, member, postId, input.requestId);
		if (!earlier) throw new AppError('Conflict');
		return earlier;
	}
	// Those it concerns hear of it through the queue (src/server/notifications/deliver.ts).
	notify({ type: 'comment', channelId, commentId: inserted.id });
	const row: StoredCommentRow = {
		id: inserted.id,
		post_id: postId,
		parent_id: threadId,
		member_id: member.userId,
		content,
		created_at: now,
		edited_at: null,
		deleted_at: null,
		hidden_by_admin: 0,
		nickname: member.nickname,
		withdrawn_at: null,
		mentions: storedMentions(mentions),
		...target,
	};
	return { comment: itemOf(row, member), commentCount: countOf(results.at(-1)) };
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
					'UPDATE posts SET comment_count = comment_count - 1 WHERE id = ?1 AND changes() = 1 AND (SELECT hidden_by_admin FROM comments WHERE id = ?2) = 0',
				)
				.bind(postId, commentId),
			touchPost(db, channelId, postId, 'removal'),
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
