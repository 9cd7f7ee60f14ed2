/**
 * Blocking a member (docs/reference/blocking.md): the blocker sees the blocked member's posts and
 * comments collapsed, and is told nothing of what they do (src/server/notifications/delivery-rows.ts);
 * the blocked member cannot mention the blocker (src/server/notifications/mentions.ts) and is never
 * told. A block concerns the blocker alone: it changes nothing anyone else reads or is told.
 *
 * - Who: a member of this community, not withdrawn, other than the blocker (CannotBlockYourself);
 *   any other id, of this community or another, is UserNotFound. An administrator may be blocked:
 *   their moderation notices name no actor and still arrive.
 * - Bounded: at most BLOCKS_KEPT rows per blocker (BlockLimitReached past it, checked inside the
 *   block's batch, so racing requests cannot pass it). A block writes one member_blocks row (with
 *   its two index entries), an unblock deletes one; a refused one writes nothing.
 * - Cache: nothing is invalidated: guests never see a block, and a blocker's pages are rendered for
 *   them alone (functions/shell/member-pages.ts).
 */
import { AppError } from '@/server/platform/errors';
import { assertion, guardedBatch, otherAssertion } from '@/server/platform/batch';
import { read, run, type Read } from '@/server/platform/reads';
import { memberIdSql, memberIdValue, type MemberRef } from '@/server/sign-in/member-ref';

/** How many members one member may block. */
export const BLOCKS_KEPT = 500;

/** A member the blocker blocked, as Settings lists them. */
export interface BlockedMember {
	userId: number;
	/** null once the member has withdrawn (withdrawal deletes the block, so only for a moment). */
	nickname: string | null;
	blockedAt: number;
}

/**
 * Blocks the member `userId`; blocking them again changes nothing. One batch: the member's check,
 * the limit's, and the row.
 * @throws AppError CannotBlockYourself, UserNotFound, BlockLimitReached
 */
export async function blockMember(db: Db, channelId: number, blockerId: number, userId: number, now: number): Promise<{ blocked: true }> {
	if (userId === blockerId) throw new AppError('CannotBlockYourself');
	await guardedBatch(
		db,
		[
			assertion(db, 'EXISTS (SELECT 1 FROM members WHERE id = ?1 AND channel_id = ?2 AND withdrawn_at IS NULL)', userId, channelId),
			otherAssertion(
				db,
				`EXISTS (SELECT 1 FROM member_blocks WHERE blocker_id = ?1 AND blocked_id = ?2)
				 OR (SELECT count(*) FROM (SELECT 1 FROM member_blocks WHERE blocker_id = ?1 LIMIT ${BLOCKS_KEPT})) < ${BLOCKS_KEPT}`,
				blockerId,
				userId,
			),
			db
				.prepare('INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING')
				.bind(blockerId, userId, channelId, now),
		],
		'UserNotFound',
		'BlockLimitReached',
	);
	return { blocked: true };
}

/**
 * Unblocks the member `userId`; unblocking a member not blocked changes nothing. A withdrawn member
 * has no block left to take back (withdrawal deleted it), so the check is that the id is of this
 * community's members.
 * @throws AppError CannotBlockYourself, UserNotFound
 */
export async function unblockMember(db: Db, channelId: number, blockerId: number, userId: number): Promise<{ blocked: false }> {
	if (userId === blockerId) throw new AppError('CannotBlockYourself');
	await guardedBatch(
		db,
		[
			assertion(db, 'EXISTS (SELECT 1 FROM members WHERE id = ?1 AND channel_id = ?2)', userId, channelId),
			db.prepare('DELETE FROM member_blocks WHERE blocker_id = ?1 AND blocked_id = ?2').bind(blockerId, userId),
		],
		'UserNotFound',
	);
	return { blocked: false };
}

/** The members `who` blocked, newest first (at most BLOCKS_KEPT); with a session's token, in the session's round trip. */
export function blocksRead(db: Db, channelId: number, who: MemberRef): Read<BlockedMember[]> {
	const statement = db
		.prepare(
			`SELECT k.blocked_id AS userId, m.nickname, k.created_at AS blockedAt FROM member_blocks k INDEXED BY member_blocks_by_time
			 JOIN members m ON m.id = k.blocked_id
			 WHERE k.blocker_id = ${memberIdSql(who, '?1')} AND k.channel_id = ?2 ORDER BY k.created_at DESC LIMIT ${BLOCKS_KEPT}`,
		)
		.bind(memberIdValue(who), channelId);
	return read(statement, (result) => result.results as unknown as BlockedMember[]);
}

/** The members the blocker blocked, newest first. */
export async function listBlocks(db: Db, channelId: number, blockerId: number): Promise<BlockedMember[]> {
	return run(db, blocksRead(db, channelId, blockerId));
}

/**
 * The ids of the members `who` blocked (at most BLOCKS_KEPT, from the primary key alone): a page of
 * posts or comments reads it in its session's round trip and collapses their rows. Empty for a
 * guest's page, which never asks.
 */
export function blockedIdsRead(db: Db, channelId: number, who: MemberRef): Read<number[]> {
	const statement = db
		.prepare(`SELECT blocked_id AS id FROM member_blocks WHERE blocker_id = ${memberIdSql(who, '?1')} AND channel_id = ?2 LIMIT ${BLOCKS_KEPT}`)
		.bind(memberIdValue(who), channelId);
	return read(statement, (result) => (result.results as { id: number }[]).map((row) => row.id));
}

/** The members a page collapses for its reader: blockedIdsRead's ids when the page is a signed-in member's, else none. */
export function blockedAuthors(signedIn: boolean, ids: readonly number[] | undefined): ReadonlySet<number> | undefined {
	return signedIn && ids && ids.length > 0 ? new Set(ids) : undefined;
}

/** What a member's list page (All Posts, a board) needs of their session besides its row. */
export interface ListState {
	/** Whether they blocked anyone (their page is then rendered in full). */
	blocksAnyone: boolean;
	/** Their Watch of the board (false on All Posts, which has none). */
	watching: boolean;
}

/**
 * SQL of the two columns of ListState (`blocks_anyone`, `board_watching`) of the member `member`
 * (SQL: a session's `s.member_id`) on the board `board` (SQL; null: All Posts): whether they blocked
 * anyone and their Watch of the board, read in the session's own row by member-pages.ts (local D1
 * runs each statement of a batch in the Worker's process, so one is cheaper than two:
 * docs/decisions/performance.md).
 */
export const listStateSql = (member: string, board: string) =>
	`EXISTS (SELECT 1 FROM member_blocks WHERE blocker_id = ${member}) AS blocks_anyone,
	 coalesce((SELECT w.watching FROM watches w WHERE w.member_id = ${member} AND w.target = 'BOARD' AND w.target_id = ${board}), 0) AS board_watching`;

/** ListState from a row with listStateSql's columns (none: a token with no session). */
export function listStateOf(row: { blocks_anyone: number; board_watching: number } | undefined): ListState {
	return { blocksAnyone: row?.blocks_anyone === 1, watching: row?.board_watching === 1 };
}

/** What withdrawal removes: the blocks by the member and of the member (each bounded: BLOCKS_KEPT by, and one per blocker of). */
export function blockWithdrawalStatements(db: Db, memberId: number): D1PreparedStatement[] {
	return [
		db.prepare('DELETE FROM member_blocks WHERE blocker_id = ?1').bind(memberId),
		db.prepare('DELETE FROM member_blocks WHERE blocked_id = ?1').bind(memberId),
	];
}

/** SQL that is true when the member `blocker` (SQL) blocked the member `blocked` (SQL): one primary-key probe. */
export function blockedSql(blocker: string, blocked: string): string {
	return `EXISTS (SELECT 1 FROM member_blocks k WHERE k.blocker_id = ${blocker} AND k.blocked_id = ${blocked})`;
}
