/**
 * Likes on posts: a member likes a post once (post_likes holds one row per member and post) and
 * `posts.like_count` follows, exactly, however many requests arrive at once.
 *
 * - Who: a member who may read the post in full (src/server/visibility/visibility.ts canReadPost with
 *   the post's state); any other post, of this channel or another, is PostNotFound. Liking one's
 *   own post is allowed: a like counts each member once, so it adds at most one, and it puts the
 *   post on the member's My Page likes tab like any other.
 * - One round trip: the session's check (when the API has not read it), the post's check and the
 *   row's change guarded by both, the count and the state that answers, in one batch
 *   (src/server/platform/guarded-write.ts); a refused like or unlike writes nothing.
 * - Exact under concurrency: each action is one D1 batch (one transaction). The INSERT … ON
 *   CONFLICT DO NOTHING (or the DELETE) is followed at once by the count's UPDATE guarded by
 *   `changes() = 1`: SQLite's changes() reports the rows the previous statement of the same
 *   connection changed, so the count moves only when the row really came or went. No read of all
 *   likes; the count is never recomputed.
 * - Bounded: a like writes one post_likes row (with its two index entries) and one posts row, 4
 *   rows as D1 counts them, and on a listed post 2 more: the same row write sets its hot score
 *   (src/server/posts/hot.ts), which moves its entries in the two Popular indexes; an unlike 2 (4 on
 *   a listed post); a repeated like or unlike nothing; each reads about 10 rows however many likes
 *   the post has (tests/workers/likes.test.ts, tests/workers/popular.test.ts measure it).
 * - Cache: a like invalidates nothing (neither the channel's content version, which would turn the
 *   whole community's cache cold for one count, nor the post's): guests see a count at most a
 *   minute old (GUEST_MAX_AGE_MS of functions/shell/edge-cache.ts), members see it at once.
 */
import { AppError } from '@/server/platform/errors';
import { guardedWrite, prepared, refuse, writerSql, type Params, type Writer } from '@/server/platform/guarded-write';
import { firstRowOf, read, type Read } from '@/server/platform/reads';
import type { SessionMember } from '@/server/sign-in/sessions';
import { readablePostCondition, readablePostOf, readablePostStatement } from '@/server/visibility/readable-post';
import { notify } from '@/server/notifications/send';
import { hotAfterSql } from '@/server/posts/hot';

/** A member's like of a post and the post's count, as the like button shows them. */
export interface LikeState {
	liked: boolean;
	likeCount: number;
}

/** The member's like and the post's count, read together. */
function stateStatement(db: Db, memberId: number, postId: number): D1PreparedStatement {
	return db
		.prepare(
			'SELECT p.like_count, EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.member_id = ?2) AS liked FROM posts p WHERE p.id = ?1',
		)
		.bind(postId, memberId);
}

function stateOf(result: D1Result | undefined): LikeState {
	const row = result?.results[0] as { like_count: number; liked: number } | undefined;
	if (!row) throw new AppError('PostNotFound');
	return { liked: row.liked === 1, likeCount: row.like_count };
}

/**
 * Runs one like or unlike in one batch (src/server/platform/guarded-write.ts): the writer's session
 * when the API has not read it, the row's change guarded by the session and the post's check, the
 * count's change, and the state with the post's check, which decides the answer.
 */
async function act(
	db: Db,
	channelId: number,
	writer: Writer,
	postId: number,
	now: number,
	change: (who: { member: string; allowed: string }, p: Params) => string,
	countDelta: 1 | -1,
): Promise<LikeState & { changed: boolean; member: SessionMember }> {
	const checked = (p: Params) => {
		const { member, admin, live } = writerSql(writer, p);
		return { member, readable: readablePostCondition(p(postId), p(channelId), member, admin), live: () => live(channelId, now) };
	};
	const { member, results } = await guardedWrite(db, channelId, writer, now, [
		prepared(db, (p) => {
			const who = checked(p);
			return change({ member: who.member, allowed: `${who.live()} AND ${who.readable}` }, p);
		}),
		// Directly after the row's change: changes() reads the statement before it.
		// The hot score (Popular order) moves with the count, in the same UPDATE of the same row.
		db
			.prepare(`UPDATE posts SET like_count = like_count + ${countDelta}, hot = ${hotAfterSql(countDelta, 0)} WHERE id = ?1 AND changes() = 1`)
			.bind(postId),
		prepared(db, (p) => {
			const who = checked(p);
			return `SELECT q.like_count, EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = q.id AND l.member_id = ${who.member}) AS liked, ${who.readable} AS readable
				FROM posts q WHERE q.id = ${p(postId)}`;
		}),
	]);
	const state = firstRowOf<{ readable: number }>(results[2]);
	if (state?.readable !== 1) refuse(results, new AppError('PostNotFound'));
	return { ...stateOf(results[2]), changed: results[0]?.meta.changes === 1, member };
}

/** Likes a post; liking it again changes nothing. `writer`: the member, or the session the batch reads. @throws AppError the session's refusal, PostNotFound */
export async function likePost(db: Db, channelId: number, writer: Writer, postId: number, now: number): Promise<LikeState> {
	const { changed, member, ...state } = await act(
		db,
		channelId,
		writer,
		postId,
		now,
		({ member, allowed }, p) =>
			`INSERT INTO post_likes (post_id, member_id, channel_id, created_at) SELECT ${p(postId)}, ${member}, ${p(channelId)}, ${p(now)}
			 WHERE ${allowed} ON CONFLICT DO NOTHING`,
		1,
	);
	// A new like tells the post's author (one row per post, src/server/notifications/deliver.ts); a repeated one tells nobody.
	if (changed) notify({ type: 'like', channelId, postId, actorId: member.userId });
	return state;
}

/** Takes a member's like back; unliking a post not liked changes nothing. @throws AppError the session's refusal, PostNotFound */
export async function unlikePost(db: Db, channelId: number, writer: Writer, postId: number, now = Date.now()): Promise<LikeState> {
	const {
		changed: _changed,
		member: _member,
		...state
	} = await act(
		db,
		channelId,
		writer,
		postId,
		now,
		({ member, allowed }, p) => `DELETE FROM post_likes WHERE post_id = ${p(postId)} AND member_id = ${member} AND ${allowed}`,
		-1,
	);
	return state;
}

/** Whether the member likes the post, and its count: one batch of the post's check and the state. @throws AppError PostNotFound */
export async function getLikeState(db: Db, channelId: number, member: SessionMember, postId: number): Promise<LikeState> {
	const [readable, state] = await db.batch([readablePostStatement(db, channelId, member, postId), stateStatement(db, member.userId, postId)]);
	readablePostOf(readable);
	return stateOf(state);
}

/**
 * Whether the member of a session (by its token's hash) likes the post: the post page reads it in
 * the session's own round trip, before it knows who the member is, and uses it only for a member.
 */
export function likedByTokenRead(db: Db, channelId: number, tokenHash: string, postId: number): Read<boolean> {
	const statement = db
		.prepare(
			`SELECT EXISTS (SELECT 1 FROM sessions s JOIN post_likes l ON l.member_id = s.member_id
			 WHERE s.token_hash = ?1 AND s.channel_id = ?2 AND l.post_id = ?3 AND l.channel_id = ?2) AS liked`,
		)
		.bind(tokenHash, channelId, postId);
	return read(statement, (result) => (result.results[0] as { liked: number } | undefined)?.liked === 1);
}
