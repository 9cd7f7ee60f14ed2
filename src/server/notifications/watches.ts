/**
 * Watching a post or a board (docs/reference/notifications.md#watching): a watcher hears of each new comment
 * on the post, or each new post in the board. A member watches their own posts without a row; a row
 * says what differs from that default (1: watching, 0: stopped watching their own post), so a post
 * written writes no watch row and a return to the default deletes the row.
 *
 * - Who: a member who may read the post in full, or list the board (a private board: an
 *   administrator); anything else is PostNotFound or BoardNotFound, as reading it would be.
 * - Bounded: at most WATCHES_KEPT rows per member (WatchLimitReached past it, checked inside the
 *   write's batch), so withdrawal's deletion and My Page's list stay bounded; one watch writes one row.
 */
import { isAdmin } from '@/lib/roles';
import { AppError, isAppError } from '@/server/platform/errors';
import { assertion, guardedBatch } from '@/server/platform/batch';
import { read, run, type Read } from '@/server/platform/reads';
import type { SessionMember } from '@/server/sign-in/sessions';
import { adminSql, adminValue, memberIdSql, memberIdValue, type ViewerRef } from '@/server/sign-in/member-ref';
import { assertReadablePost, readablePostGuard } from '@/server/visibility/readable-post';
import { WATCHES_KEPT } from '@/lib/notification-kinds';

export type WatchTarget = 'POST' | 'BOARD';

/** A post or board the member watches, as My Page lists it. */
export interface WatchedItem {
	target: WatchTarget;
	id: number;
	/** The post's title or the board's name. */
	title: string;
	/** The board a watched post is in. */
	boardId: number;
}

/**
 * Whether the member of a session (by its token's hash) watches the post or board: the page reads it
 * in the session's own round trip, as the like is read (src/server/likes/likes.ts).
 */
export function watchingByTokenRead(db: Db, channelId: number, tokenHash: string, target: WatchTarget, id: number): Read<boolean> {
	const byDefault = target === 'POST' ? '(SELECT p.member_id = s.member_id FROM posts p WHERE p.id = ?3)' : '0';
	const statement = db
		.prepare(
			`SELECT coalesce((SELECT w.watching FROM watches w WHERE w.member_id = s.member_id AND w.target = ?4 AND w.target_id = ?3), ${byDefault}, 0) AS watching
			 FROM sessions s WHERE s.token_hash = ?1 AND s.channel_id = ?2`,
		)
		.bind(tokenHash, channelId, id, target);
	return read(statement, (result) => (result.results[0] as { watching: number } | undefined)?.watching === 1);
}

const BOARD_READABLE = 'EXISTS (SELECT 1 FROM boards WHERE id = ?1 AND channel_id = ?2 AND (is_public = 1 OR ?3 = 1))';

/** The assertion that the member may list the board (of this channel). */
function readableBoardGuard(db: Db, channelId: number, member: SessionMember, boardId: number): D1PreparedStatement {
	return assertion(db, BOARD_READABLE, boardId, channelId, isAdmin(member) ? 1 : 0);
}

/** Asked after a refused batch: whether the target is the reason. @throws AppError PostNotFound, BoardNotFound */
async function assertReadableTarget(db: Db, channelId: number, member: SessionMember, target: WatchTarget, id: number): Promise<void> {
	if (target === 'POST') return assertReadablePost(db, channelId, member, id);
	const row = await db
		.prepare(`SELECT ${BOARD_READABLE} AS ok`)
		.bind(id, channelId, isAdmin(member) ? 1 : 0)
		.first<{ ok: number }>();
	if (row?.ok !== 1) throw new AppError('BoardNotFound');
}

/**
 * Watches (`watching` true) or stops watching a post or board; the same again changes nothing.
 * One batch: the target's check, the limit's, and the row's change.
 * @throws AppError PostNotFound, BoardNotFound, WatchLimitReached
 */
export async function setWatching(
	db: Db,
	channelId: number,
	member: SessionMember,
	target: WatchTarget,
	id: number,
	watching: boolean,
	now: number,
): Promise<{ watching: boolean }> {
	// ?1 member, ?2 target, ?3 id, ?4 watching (and, for the INSERT, ?5 channel, ?6 now).
	const byDefault = target === 'POST' ? 'coalesce((SELECT member_id = ?1 FROM posts WHERE id = ?3), 0)' : '0';
	const key = [member.userId, target, id, watching ? 1 : 0] as const;
	try {
		await guardedBatch(
			db,
			[
				target === 'POST' ? readablePostGuard(db, channelId, member, id) : readableBoardGuard(db, channelId, member, id),
				// A new row only while the member has fewer than WATCHES_KEPT.
				assertion(
					db,
					`?4 = ${byDefault} OR EXISTS (SELECT 1 FROM watches WHERE member_id = ?1 AND target = ?2 AND target_id = ?3)
					 OR (SELECT count(*) FROM watches WHERE member_id = ?1) < ${WATCHES_KEPT}`,
					...key,
				),
				// Back to the default: no row.
				db.prepare(`DELETE FROM watches WHERE member_id = ?1 AND target = ?2 AND target_id = ?3 AND ?4 = ${byDefault}`).bind(...key),
				db
					.prepare(
						`INSERT INTO watches (member_id, target, target_id, watching, channel_id, created_at) SELECT ?1, ?2, ?3, ?4, ?5, ?6
						 WHERE ?4 <> ${byDefault} ON CONFLICT (member_id, target, target_id) DO UPDATE SET watching = excluded.watching`,
					)
					.bind(...key, channelId, now),
			],
			'Conflict',
		);
	} catch (error) {
		if (!isAppError(error) || error.codeName !== 'Conflict') throw error;
		await assertReadableTarget(db, channelId, member, target, id);
		throw new AppError('WatchLimitReached', undefined, { limit: WATCHES_KEPT });
	}
	return { watching };
}

/**
 * What the member watches in this channel (and may still read), newest first, at most
 * WATCHES_KEPT; with a session's token, in the session's round trip.
 */
export function watchesRead(db: Db, channelId: number, who: ViewerRef): Read<WatchedItem[]> {
	const me = memberIdSql(who, '?1');
	const admin = adminSql(who, '?3');
	const statement = db
		.prepare(
			`SELECT w.target, w.target_id AS id, coalesce(p.title, b.name) AS title, coalesce(p.board_id, b.id) AS board_id
			 FROM watches w
			 LEFT JOIN posts p ON w.target = 'POST' AND p.id = w.target_id
			 LEFT JOIN boards pb ON pb.id = p.board_id
			 LEFT JOIN boards b ON w.target = 'BOARD' AND b.id = w.target_id
			 WHERE w.member_id = ${me} AND w.channel_id = ?2 AND w.watching = 1
			 AND ((w.target = 'POST' AND p.deleted_at IS NULL AND (${admin} = 1 OR (p.hidden_by_admin = 0 AND pb.is_public = 1 AND (p.is_private = 0 OR p.member_id = w.member_id))))
				OR (w.target = 'BOARD' AND (b.is_public = 1 OR ${admin} = 1)))
			 ORDER BY w.created_at DESC LIMIT ${WATCHES_KEPT}`,
		)
		.bind(memberIdValue(who), channelId, adminValue(who));
	return read(statement, (result) => {
		const rows = result.results as { target: WatchTarget; id: number; title: string; board_id: number }[];
		return rows.map((row) => ({ target: row.target, id: row.id, title: row.title, boardId: row.board_id }));
	});
}

/** What the member watches in this channel (and may still read), newest first, at most WATCHES_KEPT. */
export async function listWatches(db: Db, channelId: number, member: SessionMember): Promise<WatchedItem[]> {
	return run(db, watchesRead(db, channelId, member));
}
