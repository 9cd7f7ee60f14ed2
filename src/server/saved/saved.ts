/**
 * Saved posts (docs/reference/saved-posts.md): a member keeps a bookmark of a post (saved_posts, one
 * row per member and post, migration 0036) and finds it under My Page → Saved, newest saved first.
 *
 * - Who: a member who may read the post in full (src/server/visibility/visibility.ts canReadPost);
 *   any other post, of this channel or another, is PostNotFound, as a like's is. Removing asks only
 *   that the post is one of this channel: a saved post that was deleted, hidden or moved out of the
 *   member's reach since can always be taken off the list.
 * - One round trip: the session's check, the post's check and the row's change guarded by both, and
 *   the state that answers, in one batch (src/server/platform/guarded-write.ts), as a like is.
 * - Bounded: at most SAVED_POSTS_KEPT rows a member, counted inside the save's own statement (one
 *   transaction: racing saves cannot pass it); the save past it is SavedPostLimitReached, nothing
 *   written. A save writes one row (and its index entry), a removal deletes one, a repeated save or
 *   removal writes nothing; the limit's count reads at most SAVED_POSTS_KEPT index entries.
 * - Cache: nothing. A save changes nothing any other reader sees (no counter on the post), so no
 *   content version moves; the post page's Save state is the member's own part of their page.
 */
import { AppError } from '@/server/platform/errors';
import { guardedWrite, prepared, refuse, writerSql, type Params, type Writer } from '@/server/platform/guarded-write';
import { firstRowOf, read, type Read } from '@/server/platform/reads';
import { adminSql, adminValue, memberIdSql, memberIdValue, type ViewerRef } from '@/server/sign-in/member-ref';
import { readablePostCondition } from '@/server/visibility/readable-post';
import { readablePostSql } from '@/server/visibility/visibility';

/** How many posts one member may keep saved in a community. */
export const SAVED_POSTS_KEPT = 1000;

/** How many saved posts a page of My Page's Saved tab shows. */
export const SAVED_PAGE_SIZE = 20;

/** A member's save of a post, as the Save button shows it. */
export interface SaveState {
	saved: boolean;
}

/** The SQL of the writer and whether they may read the post, for one statement. */
function writerOf(writer: Writer, p: Params, channelId: number, postId: number, now: number) {
	const { member, admin, live } = writerSql(writer, p);
	return { member, live: live(channelId, now), readable: readablePostCondition(p(postId), p(channelId), member, admin) };
}

/**
 * Saves a post; saving it again changes nothing (the first save's time stays). `writer`: the
 * member, or the session the batch reads.
 * @throws AppError the session's refusal, PostNotFound, SavedPostLimitReached
 */
export async function savePost(db: Db, channelId: number, writer: Writer, postId: number, now: number): Promise<SaveState> {
	const { results } = await guardedWrite(db, channelId, writer, now, [
		prepared(db, (p) => {
			const who = writerOf(writer, p, channelId, postId, now);
			return `INSERT INTO saved_posts (member_id, post_id, channel_id, saved_at) SELECT ${who.member}, ${p(postId)}, ${p(channelId)}, ${p(now)}
				WHERE ${who.live} AND ${who.readable} AND (SELECT count(*) FROM saved_posts WHERE member_id = ${who.member}) < ${SAVED_POSTS_KEPT}
				ON CONFLICT DO NOTHING`;
		}),
		prepared(db, (p) => {
			const who = writerOf(writer, p, channelId, postId, now);
			return `SELECT ${who.readable} AS readable, EXISTS (SELECT 1 FROM saved_posts WHERE member_id = ${who.member} AND post_id = ${p(postId)}) AS saved`;
		}),
	]);
	const state = firstRowOf<{ readable: number; saved: number }>(results[1]);
	if (state?.readable !== 1) refuse(results, new AppError('PostNotFound'));
	// Readable and still not saved: the member had SAVED_POSTS_KEPT already.
	if (state.saved !== 1) refuse(results, new AppError('SavedPostLimitReached', undefined, { limit: SAVED_POSTS_KEPT }));
	return { saved: true };
}

/**
 * Takes a post off the member's saved posts; removing one not saved changes nothing. Any post of
 * the channel may be removed, whatever became of it since it was saved.
 * @throws AppError the session's refusal, PostNotFound (no such post in this channel)
 */
export async function unsavePost(db: Db, channelId: number, writer: Writer, postId: number, now: number): Promise<SaveState> {
	const { results } = await guardedWrite(db, channelId, writer, now, [
		prepared(db, (p) => {
			const who = writerOf(writer, p, channelId, postId, now);
			return `DELETE FROM saved_posts WHERE member_id = ${who.member} AND post_id = ${p(postId)} AND channel_id = ${p(channelId)} AND ${who.live}`;
		}),
		db.prepare('SELECT EXISTS (SELECT 1 FROM posts WHERE id = ?1 AND channel_id = ?2) AS found').bind(postId, channelId),
	]);
	if (firstRowOf<{ found: number }>(results[1])?.found !== 1) refuse(results, new AppError('PostNotFound'));
	return { saved: false };
}

/**
 * Whether the member of a session (by its token's hash) has saved the post: the post page reads it
 * in the session's own round trip, as the like is read (src/server/likes/likes.ts).
 */
export function savedByTokenRead(db: Db, channelId: number, tokenHash: string, postId: number): Read<boolean> {
	const statement = db
		.prepare(
			`SELECT EXISTS (SELECT 1 FROM sessions s JOIN saved_posts v ON v.member_id = s.member_id
			 WHERE s.token_hash = ?1 AND s.channel_id = ?2 AND v.post_id = ?3) AS saved`,
		)
		.bind(tokenHash, channelId, postId);
	return read(statement, (result) => (result.results[0] as { saved: number } | undefined)?.saved === 1);
}

/**
 * What a saved post is to the member now: readable (with its title, board and date), or why not:
 * deleted, hidden by an administrator, or otherwise no longer theirs to read (a private board, a
 * post made private). Only a readable one carries its title.
 */
export type SavedPost = { postId: number; savedAt: number } & (
	| { state: 'VISIBLE'; title: string; boardId: number; createdAt: number }
	| { state: 'DELETED' | 'HIDDEN' | 'UNAVAILABLE' }
);

export interface SavedPage {
	items: SavedPost[];
	/** The cursor (`?before=`) of the next, older page, or null at the end. */
	next: string | null;
}

interface SavedRow {
	post_id: number;
	saved_at: number;
	title: string;
	board_id: number;
	created_at: number;
	deleted: number;
	hidden: number;
	readable: number;
}

/** The cursor of `?before=`: a saved post's time and id, or null for the first page (a malformed one too). */
export function parseSavedCursor(value: string | null): { at: number; id: number } | null {
	const match = /^(\d{1,15})\.(\d{1,15})$/.exec(value ?? '');
	return match ? { at: Number(match[1]), id: Number(match[2]) } : null;
}

function savedOf(row: SavedRow): SavedPost {
	const key = { postId: row.post_id, savedAt: row.saved_at };
	if (row.deleted === 1) return { ...key, state: 'DELETED' };
	if (row.readable === 1) return { ...key, state: 'VISIBLE', title: row.title, boardId: row.board_id, createdAt: row.created_at };
	return { ...key, state: row.hidden === 1 ? 'HIDDEN' : 'UNAVAILABLE' };
}

/**
 * A page of the member's saved posts, newest saved first, by keyset (`before`: the last row's time
 * and post id) through saved_posts_by_member: SAVED_PAGE_SIZE rows and one more that says whether
 * another page follows, however many the member keeps. With a session's token, in the session's
 * round trip (My Page).
 */
export function savedPostsRead(db: Db, channelId: number, who: ViewerRef, before: { at: number; id: number } | null): Read<SavedPage> {
	const statement = db
		.prepare(
			`SELECT v.post_id, v.saved_at, p.title, p.board_id, p.created_at, p.deleted_at IS NOT NULL AS deleted, p.hidden_by_admin AS hidden,
				(${readablePostSql('v.member_id' as `?${number}`, adminSql(who, '?5') as `?${number}`)}) AS readable
			 FROM saved_posts v JOIN posts p ON p.id = v.post_id JOIN boards b ON b.id = p.board_id
			 WHERE v.member_id = ${memberIdSql(who, '?1')} AND v.channel_id = ?2
				AND (v.saved_at, v.post_id) < (?3, ?4)
			 ORDER BY v.saved_at DESC, v.post_id DESC LIMIT ${SAVED_PAGE_SIZE + 1}`,
		)
		// The first page: before anything.
		.bind(memberIdValue(who), channelId, before?.at ?? Number.MAX_SAFE_INTEGER, before?.id ?? Number.MAX_SAFE_INTEGER, adminValue(who));
	return read(statement, (result) => {
		const rows = result.results as SavedRow[];
		const items = rows.slice(0, SAVED_PAGE_SIZE).map(savedOf);
		const last = items.at(-1);
		return { items, next: rows.length > SAVED_PAGE_SIZE && last ? `${last.savedAt}.${last.postId}` : null };
	});
}
