/**
 * Likes on posts: a member likes a post once (post_likes holds one row per member and post) and
 * `posts.like_count` follows, exactly, however many requests arrive at once.
 *
 * - Who: a member who may read the post in full (src/server/visibility/visibility.ts canReadPost with
 *   the post's state); any other post, of this channel or another, is PostNotFound. Liking one's
 *   own post is allowed: a like counts each member once, so it adds at most one, and it puts the
 *   post on the member's My Page likes tab like any other.
 * - Exact under concurrency: each action is one D1 batch (one transaction). The INSERT … ON
 *   CONFLICT DO NOTHING (or the DELETE) is followed at once by the count's UPDATE guarded by
 *   `changes() = 1`: SQLite's changes() reports the rows the previous statement of the same
 *   connection changed, so the count moves only when the row really came or went. No read of all
 *   likes; the count is never recomputed.
 * - Bounded: a like writes one post_likes row (with its two index entries) and one posts row, 4
 *   rows as D1 counts them; an unlike 2; a repeated like or unlike nothing; each reads about 10
 *   rows however many likes the post has (tests/workers/likes.test.ts measures it).
 * - Cache: a like invalidates nothing (neither the channel's content version, which would turn the
 *   whole community's cache cold for one count, nor the post's): guests see a count at most a
 *   minute old (GUEST_MAX_AGE_MS of functions/shell/edge-cache.ts), members see it at once.
 */
import { AppError } from '@/server/platform/errors';
import { guardedBatch } from '@/server/platform/batch';
import { read, type Read } from '@/server/platform/reads';
import type { SessionMember } from '@/server/sign-in/sessions';
import { readablePostGuard, readablePostOf, readablePostStatement } from '@/server/visibility/readable-post';
import { notify } from '@/server/notifications/send';

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

/** Runs one like or unlike, one batch: the post's check, the row's change, the count's guarded change, the answer. */
async function act(
	db: Db,
	member: SessionMember,
	postId: number,
	guard: D1PreparedStatement,
	change: D1PreparedStatement,
	count: D1PreparedStatement,
): Promise<LikeState & { changed: boolean }> {
	// The count's UPDATE must follow the row's change directly: changes() reads the statement before it.
	const results = await guardedBatch(db, [guard, change, count, stateStatement(db, member.userId, postId)], 'PostNotFound');
	return { ...stateOf(results[3]), changed: results[1]?.meta.changes === 1 };
}

/** Likes a post; liking it again changes nothing. @throws AppError PostNotFound */
export async function likePost(db: Db, channelId: number, member: SessionMember, postId: number, now: number): Promise<LikeState> {
	const { changed, ...state } = await act(
		db,
		member,
		postId,
		readablePostGuard(db, channelId, member, postId),
		db
			.prepare('INSERT INTO post_likes (post_id, member_id, channel_id, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING')
			.bind(postId, member.userId, channelId, now),
		db.prepare('UPDATE posts SET like_count = like_count + 1 WHERE id = ?1 AND changes() = 1').bind(postId),
	);
	// A new like tells the post's author (one row per post, src/server/notifications/deliver.ts); a repeated one tells nobody.
	if (changed) notify({ type: 'like', channelId, postId, actorId: member.userId });
	return state;
}

/** Takes a member's like back; unliking a post not liked changes nothing. @throws AppError PostNotFound */
export async function unlikePost(db: Db, channelId: number, member: SessionMember, postId: number): Promise<LikeState> {
	const { changed: _changed, ...state } = await act(
		db,
		member,
		postId,
		readablePostGuard(db, channelId, member, postId),
		db.prepare('DELETE FROM post_likes WHERE post_id = ?1 AND member_id = ?2').bind(postId, member.userId),
		db.prepare('UPDATE posts SET like_count = like_count - 1 WHERE id = ?1 AND changes() = 1').bind(postId),
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
