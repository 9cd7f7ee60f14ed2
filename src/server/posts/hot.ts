/**
 * A post's hot score, the order of the Popular lists (docs/decisions/decisions.md, "Popular posts: a
 * stored hot score with a window"): its creation time in seconds plus a bonus for its engagement
 * e = likes + 2 × comments, which grows to at most HOT_WINDOW_S (48 hours), half of it at e = HOT_HALF:
 *
 *   hot = created_at / 1000 + HOT_WINDOW_S × e / (e + HOT_HALF)   (integer arithmetic)
 *
 * Like Reddit's score it depends on the clock only through the creation time, so it is stored
 * (posts.hot, migrations/0039) and indexed with each list, and never recomputed by a read. Unlike
 * Reddit's log10 (which D1 does not allow in SQL), the bonus has a window: no engagement lifts a post
 * above one written 48 hours after it, so an old favourite leaves the top as newer posts come.
 * Every write that moves like_count or comment_count sets hot in the same UPDATE (hotAfterSql), so
 * it costs no statement, no round trip and no row of its own.
 */

/** The most a post's engagement can lift it: 48 hours, in seconds. */
export const HOT_WINDOW_S = 172_800;
/** The engagement that gives half of the window (e = likes + 2 × comments). */
const HOT_HALF = 10;

/** The hot score as SQL, of the post's columns after a change of its counts by `likeDelta` and `commentDelta`. */
export function hotAfterSql(likeDelta: -1 | 0 | 1, commentDelta: -1 | 0 | 1): string {
	const engagement = `(like_count + ${likeDelta} + 2 * (comment_count + ${commentDelta}))`;
	return `created_at / 1000 + ${HOT_WINDOW_S} * ${engagement} / (${engagement} + ${HOT_HALF})`;
}

/** The hot score of a post created at `createdAt` (ms) with these counts: hotAfterSql's value, for tests and the seed's check. */
export function hotScore(createdAt: number, likeCount: number, commentCount: number): number {
	const engagement = likeCount + 2 * commentCount;
	return Math.trunc(createdAt / 1000) + Math.trunc((HOT_WINDOW_S * engagement) / (engagement + HOT_HALF));
}
