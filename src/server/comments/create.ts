/**
 * Writing a comment or a reply in one D1 round trip (src/server/platform/guarded-write.ts): the
 * session's row when the API has not read it, one read of every check (the post, the new member's
 * limits, the members the text mentions), the comment it answers, then the comment's INSERT guarded
 * by the same checks, the post's count, touchPost, the member's comment of the same request id and
 * the count, all in one batch. The answer is decided from the batch's reads, in the order of the
 * rules below; when a check refuses, nothing was written.
 *
 * - Who: a member who may read the post in full (PostNotFound otherwise). A reply names a comment of
 *   the same post that the member may read and that is not deleted (CommentNotFound otherwise; the
 *   post's refusal first); it is stored under that comment's top-level comment.
 * - Text: CommentRequired, CommentTooLong (no D1). A new member's links and mentions, then the post,
 *   then a new member's comment count (src/server/spam/new-members.ts).
 * - A second request with the same `requestId` from the same member answers the comment the first
 *   one wrote (the INSERT inserts nothing: ON CONFLICT), also when the count is reached since or the
 *   parent went; the same id for another post, or for a comment deleted since, is Conflict.
 * - Mentions are resolved and stored by the INSERT itself (storedMentionsSql), as mentionsOf would.
 */
import { isAppError, AppError } from '@/server/platform/errors';
import {
	guardedWrite,
	isSessionWriter,
	prepared,
	refuse,
	writerColumnSql,
	writerSql,
	type Params,
	type Writer,
} from '@/server/platform/guarded-write';
import { firstRowOf } from '@/server/platform/reads';
import { touchPost } from '@/server/content-versions/versions';
import type { SessionMember } from '@/server/sign-in/sessions';
import { canReadComment, commentState, memberViewer } from '@/server/visibility/visibility';
import { readablePostCondition } from '@/server/visibility/readable-post';
import type { CreateCommentInput } from '@/schemas/comment';
import { storedMentionsSql } from '@/server/notifications/mentions';
import { notify } from '@/server/notifications/send';
import { publishComment } from '@/server/live/rooms';
import { parseMentions } from '@/lib/mentions';
import { hotAfterSql } from '@/server/posts/hot';
import type { ReadableCommentItem } from './comments';
import { checkNewMemberComment, DEFAULT_NEW_MEMBER_LIMITS, isNewMember, linkCount, type NewMemberLimits } from '@/server/spam/new-members';
import {
	checkedContent,
	countOf,
	countStatement,
	itemOf,
	STORED_COMMENT_FROM,
	storedCommentOf,
	storedCommentStatement,
	type StoredCommentRow,
} from './stored';
import { newIdSql } from '@/server/databases/ids';

interface Checks {
	/** The writer may read the post in full. */
	readable: number;
	/** What the INSERT stores as the text's mentions. */
	mentions: string | null;
}

/**
 * The SQL of each check, the same in the read that decides the answer and in the INSERT's guard.
 * `nowSql` and the limits bound into the statement as `p` gives them.
 */
function checksSql(writer: Writer, channelId: number, postId: number, content: string, now: number, limits: NewMemberLimits, p: Params) {
	const { member, admin, live } = writerSql(writer, p);
	const channel = p(channelId);
	const post = p(postId);
	const readable = readablePostCondition(post, channel, member, admin);
	const newMember = () => newMemberSql(writer, now, limits, p);
	const mentions = storedMentionsSql(content, channel, p);
	const mentioned = mentions === 'NULL' ? '0' : `(SELECT count(DISTINCT json_extract(value, '$[0]')) FROM json_each(coalesce(${mentions}, '[]')))`;
	const overLimits = () =>
		`(${p(linkCount([content]))} > ${p(limits.maxLinks)} OR ${mentioned} > ${p(limits.maxMentions)} OR ${countReachedSql(member, p(limits.maxComments), newMember())})`;
	return { member, admin, live: () => live(channelId, now), channel, post, readable, newMember, mentions, overLimits };
}

/** SQL that holds when the writer is a new member (src/server/spam/new-members.ts isNewMember). */
function newMemberSql(writer: Writer, now: number, limits: NewMemberLimits, p: Params): string {
	return `(${writerColumnSql(writer, 'role', p)} <> 'ADMIN' AND ${p(now)} - ${writerColumnSql(writer, 'joined_at', p)} < ${p(limits.periodHours * 3_600_000)})`;
}

/**
 * SQL that holds when a new member's comments already number the limit: a count of at most the
 * limit's entries of the member's index, made for a new member only (`newMember` SQL; 0 for anyone else).
 */
function countReachedSql(member: string, max: string, newMember: string): string {
	return `(CASE WHEN ${newMember} THEN (SELECT count(*) FROM (SELECT 1 FROM comments WHERE member_id = ${member} LIMIT ${max})) >= ${max} ELSE 0 END)`;
}

/** The parent's check, as the INSERT's guard: none, or a comment of the post, not deleted, that the writer may read. */
function parentSql(parentId: number | null, checks: ReturnType<typeof checksSql>, p: Params): string {
	if (parentId === null) return '1';
	return `EXISTS (SELECT 1 FROM comments pc WHERE pc.id = ${p(parentId)} AND pc.post_id = ${checks.post} AND pc.channel_id = ${checks.channel}
		AND pc.deleted_at IS NULL AND (pc.hidden_by_admin = 0 OR ${checks.admin} = 1))`;
}

/**
 * Writes a comment, or a reply when `input.parentId` names one, in one batch. `writer`: the member,
 * or the session the batch reads (its refusal comes first).
 * @throws AppError the session's refusal, CommentRequired, CommentTooLong, PostNotFound, CommentNotFound (the parent),
 * NewMemberTooManyLinks, NewMemberTooManyMentions, NewMemberCommentLimit, Conflict (a request id used for something else)
 */
export async function createComment(
	db: Db,
	channelId: number,
	writer: Writer,
	postId: number,
	input: CreateCommentInput,
	now: number,
	limits: NewMemberLimits = DEFAULT_NEW_MEMBER_LIMITS,
): Promise<{ comment: ReadableCommentItem; commentCount: number }> {
	const content = checkedContent(input.content);
	const parentId = input.parentId ?? null;
	const requestId = input.requestId ?? null;
	const check = prepared(db, (p) => {
		const c = checksSql(writer, channelId, postId, content, now, limits, p);
		return `SELECT ${c.readable} AS readable, ${c.mentions} AS mentions`;
	});
	// The new member's count, in a read of its own (none for a member known not to be new).
	const countRead =
		isSessionWriter(writer) || isNewMember(writer, limits, now)
			? prepared(db, (p) => {
					const member = writerSql(writer, p).member;
					const max = p(limits.maxComments);
					const newMember = isSessionWriter(writer) ? newMemberSql(writer, now, limits, p) : '1';
					return `SELECT ${countReachedSql(member, max, newMember)} AS count_reached`;
				})
			: null;
	const insert = prepared(db, (p) => {
		const c = checksSql(writer, channelId, postId, content, now, limits, p);
		const parent = p(parentId);
		const allowed = `${c.live()} AND ${c.readable} AND ${parentSql(parentId, c, p)} AND NOT (${c.newMember()} AND ${c.overLimits()})`;
		return `INSERT INTO comments (id, channel_id, post_id, parent_id, member_id, content, created_at, request_id, reply_to_id, mentions)
			SELECT ${newIdSql('comments', c.channel)}, ${c.channel}, ${c.post}, (SELECT coalesce(parent_id, id) FROM comments WHERE id = ${parent}), ${c.member}, ${p(content)}, ${p(now)}, ${p(requestId)},
				(SELECT CASE WHEN parent_id IS NULL THEN NULL ELSE id END FROM comments WHERE id = ${parent}), ${c.mentions}
			WHERE ${allowed} ON CONFLICT DO NOTHING RETURNING id, mentions`;
	});
	const earlier = prepared(db, (p) => `${STORED_COMMENT_FROM} WHERE c.member_id = ${writerSql(writer, p).member} AND c.request_id = ${p(requestId)}`);
	const reads = [check, ...(countRead === null ? [] : [countRead]), ...(parentId === null ? [] : [storedCommentStatement(db, channelId, parentId)])];
	const statements = [
		...reads,
		insert,
		// Directly after the INSERT: changes() reads the statement before it (a refused or repeated request inserts nothing).
		db.prepare(`UPDATE posts SET comment_count = comment_count + 1, hot = ${hotAfterSql(0, 1)} WHERE id = ?1 AND changes() = 1`).bind(postId),
		touchPost(db, channelId, postId, 'addition', 'changes() = 1'),
		...(requestId === null ? [] : [earlier]),
		countStatement(db, postId),
	];
	const { member, results } = await guardedWrite(db, channelId, writer, now, statements);
	const checked = results[0];
	const countReached = countRead !== null && firstRowOf<{ count_reached: number }>(results[1])?.count_reached === 1;
	const parentRead = parentId === null ? undefined : results[reads.length - 1];
	const at = reads.length;
	const inserted = firstRowOf<{ id: number; mentions: string | null }>(results[at]);
	const earlierRow = requestId === null ? null : firstRowOf<StoredCommentRow>(results[at + 3]);
	const count = results.at(-1);
	const checks = firstRowOf<Checks>(checked)!;
	/** The comment of the same request id (a retry), or null; Conflict for one of another post or deleted since. */
	const retried = () => {
		if (!earlierRow) return null;
		if (earlierRow.post_id !== postId || earlierRow.deleted_at !== null) refuse(results, new AppError('Conflict'));
		return { comment: itemOf(earlierRow, member), commentCount: countOf(count) };
	};
	let parent: StoredCommentRow | null = null;
	if (parentId !== null) {
		parent = storedCommentOf(parentRead, postId);
		if (
			!parent ||
			!canReadComment(commentState({ deletedAt: parent.deleted_at, hiddenByAdmin: parent.hidden_by_admin === 1 }), memberViewer(member))
		) {
			if (checks.readable !== 1) refuse(results, new AppError('PostNotFound'));
			// A retry of a reply whose parent went meanwhile answers the reply the first request wrote.
			return retried() ?? refuse(results, new AppError('CommentNotFound'));
		}
	}
	const mentions = parseMentions(checks.mentions);
	try {
		checkNewMemberComment(member, limits, now, content, mentions);
	} catch (error) {
		if (isAppError(error)) refuse(results, error);
		throw error;
	}
	if (checks.readable !== 1) refuse(results, new AppError('PostNotFound'));
	if (isNewMember(member, limits, now) && countReached) {
		// A retry of the comment that reached the count answers that comment.
		return retried() ?? refuse(results, new AppError('NewMemberCommentLimit', undefined, { limit: limits.maxComments }));
	}
	if (!inserted) {
		// A repeated request (a retry, or the same one twice at once): the first one wrote the comment.
		const repeated = retried();
		if (repeated) return repeated;
		throw new Error("A comment's INSERT refused what the reads of its batch accepted");
	}
	// Those it concerns hear of it through the queue (src/server/notifications/deliver.ts), the post's open pages through its room.
	notify({ type: 'comment', channelId, commentId: inserted.id });
	const commentCount = countOf(count);
	publishComment(channelId, postId, inserted.id, commentCount);
	return { comment: itemOf(answerRow(inserted, postId, member, content, now, parent), member), commentCount };
}

/** The new comment's row as the answer shows it: under the top-level comment of `parent`, answering `parent` when that is a reply. */
function answerRow(
	inserted: { id: number; mentions: string | null },
	postId: number,
	member: SessionMember,
	content: string,
	now: number,
	parent: StoredCommentRow | null,
): StoredCommentRow {
	return {
		id: inserted.id,
		post_id: postId,
		parent_id: parent === null ? null : (parent.parent_id ?? parent.id),
		member_id: member.userId,
		content,
		created_at: now,
		edited_at: null,
		deleted_at: null,
		hidden_by_admin: 0,
		nickname: member.nickname,
		withdrawn_at: null,
		mentions: inserted.mentions,
		like_count: 0,
		to_id: parent?.id ?? null,
		to_deleted_at: null,
		to_hidden: parent?.hidden_by_admin ?? null,
		to_nickname: parent?.nickname ?? null,
		to_withdrawn_at: parent?.withdrawn_at ?? null,
	};
}
