/**
 * Likes on comments (docs/reference/best-comments.md): a member likes a comment once (comment_likes
 * holds one row per member and comment, migration 0041) and `comments.like_count` follows, exactly,
 * as a post's like does (./likes.ts).
 *
 * - Who and what: a member who may read the post in full, on a comment of that post that is listed
 *   and readable (not deleted, not hidden); a deleted or hidden comment is CommentNotLikeable (like
 *   and unlike alike), another post's or no comment CommentNotFound, a post they may not read
 *   PostNotFound. Liking one's own comment is allowed, as a post's like is: it counts each member once.
 * - One round trip: the session's check, the row's change guarded by the post's and the comment's
 *   checks, the count's change and the state that answers, in one batch (guarded-write.ts); a
 *   refused like or unlike writes nothing.
 * - Bounded: a like writes one comment_likes row (with its two index entries) and one comments row
 *   (with its entry in the Best index, comments_best, on a top-level comment); a repeated like or
 *   unlike nothing (tests/workers/comment-likes.test.ts measures it); it reads a few rows however
 *   many likes the comment has.
 * - Notifies nobody: a comment's count is feedback, not news (docs/decisions/decisions.md), so a
 *   blocked member's like reaches the blocker no more than anyone's does.
 * - Cache: moves no version, as a post's like: guests see a count (and the Best order and marks) at
 *   most GUEST_MAX_AGE_MS old (docs/reference/edge-cache.md).
 */
import { AppError } from '@/server/platform/errors';
import { guardedWrite, prepared, refuse, writerSql, type Params, type Writer } from '@/server/platform/guarded-write';
import { firstRowOf } from '@/server/platform/reads';
import { readablePostCondition } from '@/server/visibility/readable-post';

/** A member's like of a comment and the comment's count, as its Like button shows them. */
export interface CommentLikeState {
	liked: boolean;
	likeCount: number;
}

interface StateRow {
	like_count: number | null;
	liked: number;
	readable: number;
	of_post: number;
	likeable: number;
}

/** A comment `k` may be liked: it is of post ?post, not deleted and not hidden. */
const likeableSql = (comment: string, post: string) =>
	`EXISTS (SELECT 1 FROM comments k WHERE k.id = ${comment} AND k.post_id = ${post} AND k.deleted_at IS NULL AND k.hidden_by_admin = 0)`;

async function act(
	db: Db,
	channelId: number,
	writer: Writer,
	ids: { postId: number; commentId: number },
	now: number,
	change: (who: { member: string; allowed: string }, p: Params) => string,
	countDelta: 1 | -1,
): Promise<CommentLikeState> {
	const { postId, commentId } = ids;
	const checked = (p: Params) => {
		const { member, admin, live } = writerSql(writer, p);
		return {
			member,
			readable: readablePostCondition(p(postId), p(channelId), member, admin),
			likeable: likeableSql(p(commentId), p(postId)),
			live: () => live(channelId, now),
		};
	};
	const { results } = await guardedWrite(db, channelId, writer, now, [
		prepared(db, (p) => {
			const who = checked(p);
			return change({ member: who.member, allowed: `${who.live()} AND ${who.readable} AND ${who.likeable}` }, p);
		}),
		// Directly after the row's change: changes() reads the statement before it.
		db.prepare(`UPDATE comments SET like_count = like_count + ${countDelta} WHERE id = ?1 AND changes() = 1`).bind(commentId),
		prepared(db, (p) => {
			const who = checked(p);
			return `SELECT c.like_count, EXISTS (SELECT 1 FROM comment_likes l WHERE l.comment_id = c.id AND l.member_id = ${who.member}) AS liked,
				${who.readable} AS readable, c.post_id = ${p(postId)} AS of_post, ${who.likeable} AS likeable
				FROM (SELECT 1) LEFT JOIN comments c ON c.id = ${p(commentId)} AND c.channel_id = ${p(channelId)}`;
		}),
	]);
	const state = firstRowOf<StateRow>(results[2]);
	if (state?.readable !== 1) refuse(results, new AppError('PostNotFound'));
	if (state.of_post !== 1) refuse(results, new AppError('CommentNotFound'));
	if (state.likeable !== 1) refuse(results, new AppError('CommentNotLikeable'));
	return { liked: state.liked === 1, likeCount: state.like_count ?? 0 };
}

/** Likes a comment; liking it again changes nothing. @throws AppError the session's refusal, PostNotFound, CommentNotFound, CommentNotLikeable */
export function likeComment(
	db: Db,
	channelId: number,
	writer: Writer,
	ids: { postId: number; commentId: number },
	now: number,
): Promise<CommentLikeState> {
	return act(
		db,
		channelId,
		writer,
		ids,
		now,
		({ member, allowed }, p) =>
			`INSERT INTO comment_likes (comment_id, member_id, post_id, channel_id, created_at)
			 SELECT ${p(ids.commentId)}, ${member}, ${p(ids.postId)}, ${p(channelId)}, ${p(now)} WHERE ${allowed} ON CONFLICT DO NOTHING`,
		1,
	);
}

/** Takes a member's like of a comment back; unliking one not liked changes nothing. @throws AppError as likeComment */
export function unlikeComment(
	db: Db,
	channelId: number,
	writer: Writer,
	ids: { postId: number; commentId: number },
	now: number,
): Promise<CommentLikeState> {
	return act(
		db,
		channelId,
		writer,
		ids,
		now,
		({ member, allowed }, p) => `DELETE FROM comment_likes WHERE comment_id = ${p(ids.commentId)} AND member_id = ${member} AND ${allowed}`,
		-1,
	);
}

/**
 * The most of one post's comments a member's page made from the guest's reads the member's likes of
 * (functions/shell/member-pages.ts): one who likes more of them is answered by the full render, which
 * reads their likes with the page's comments. A thread's page shows at most 101 comments and 3 Best
 * ones, so a member past it has liked far more than any page shows.
 */
export const LIKED_COMMENTS_READ = 200;

/**
 * SQL of one value, a JSON array: the ids of the comments of post `post` (SQL) that member `member`
 * (SQL: a session's `s.member_id`) likes, in id order, at most LIKED_COMMENTS_READ + 1 of them (so
 * that one past the bound shows). Read from the index comment_likes_by_member alone: at most that
 * many index entries, whatever the post's size.
 */
export function likedCommentsOfPostSql(member: string, post: string): string {
	return `(SELECT json_group_array(comment_id) FROM (SELECT l.comment_id FROM comment_likes l WHERE l.member_id = ${member} AND l.post_id = ${post}
		 ORDER BY l.comment_id LIMIT ${LIKED_COMMENTS_READ + 1}))`;
}

/** The ids of likedCommentsOfPostSql's value; null when the member likes more than LIKED_COMMENTS_READ of the post's comments. */
export function likedCommentsOf(json: string | null | undefined): number[] | null {
	const ids = json ? (JSON.parse(json) as number[]) : [];
	return ids.length > LIKED_COMMENTS_READ ? null : ids;
}
