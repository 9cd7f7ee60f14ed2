/**
 * The post a member acts on (likes, comments): one of this channel they may read in full
 * (src/server/visibility/visibility.ts). The check is an assertion at the head of the action's D1
 * batch, so it holds inside the transaction (a deletion, a hide or a move to private a moment
 * before refuses the action) and costs no D1 round trip of its own: an action is one batch.
 */
import { isAdmin } from '@/lib/roles';
import { AppError } from '@/server/platform/errors';
import { assertion } from '@/server/platform/batch';
import type { SessionMember } from '@/server/sign-in/sessions';
import { readablePostSql } from './visibility';

/**
 * SQL that holds when the member may read the post (of the channel) in full, each named by SQL: a
 * bound parameter, or the member and their role by a session's token (src/server/sign-in/member-ref.ts).
 */
export function readablePostCondition(postSql: string, channelSql: string, memberSql: string, adminSql: string): string {
	return `EXISTS (SELECT 1 FROM posts p JOIN boards b ON b.id = p.board_id
	WHERE p.id = ${postSql} AND p.channel_id = ${channelSql} AND ${readablePostSql(memberSql as `?${number}`, adminSql as `?${number}`)})`;
}

const READABLE_POST = readablePostCondition('?1', '?2', '?3', '?4');

const bindings = (channelId: number, member: SessionMember, postId: number) => [postId, channelId, member.userId, isAdmin(member) ? 1 : 0] as const;

/** The assertion that fails its batch unless the member may read the post (of this channel) in full. */
export function readablePostGuard(db: Db, channelId: number, member: SessionMember, postId: number): D1PreparedStatement {
	return assertion(db, READABLE_POST, ...bindings(channelId, member, postId));
}

/** The read of whether the member may read the post in full, for a batch (readablePostOf checks its result). */
export function readablePostStatement(db: Db, channelId: number, member: SessionMember, postId: number): D1PreparedStatement {
	return db.prepare(`SELECT ${READABLE_POST} AS ok`).bind(...bindings(channelId, member, postId));
}

/** Checks readablePostStatement's result. @throws AppError PostNotFound when the member may not read the post */
export function readablePostOf(result: D1Result | undefined): void {
	if ((result?.results[0] as { ok: number } | undefined)?.ok !== 1) throw new AppError('PostNotFound');
}

/**
 * Whether the member may read the post in full, asked on its own: after a batch failed, to tell
 * which of its checks did. @throws AppError PostNotFound when not
 */
export async function assertReadablePost(db: Db, channelId: number, member: SessionMember, postId: number): Promise<void> {
	readablePostOf(await readablePostStatement(db, channelId, member, postId).all());
}
