/**
 * Bans (SPEC §4, §6): a temporary ban ends by itself at its end time, a permanent one when it is
 * lifted. Banning ends the member's sessions; while a ban is in force, every request of the member
 * is answered with -4031452. The operator command `npm run member` (scripts/operator/member.ts) and
 * the admin API (functions/api/admin.ts) run these same functions; each ban and lift writes its row
 * of the audit log (moderation/log.ts) in its batch, with the administrator or, for the operator
 * command, none.
 */
import { AppError } from '@/server/platform/errors';
import { all } from '@/server/platform/db';
import { endMemberSessions } from '@/server/sign-in/sessions';
import { logStatement } from '@/server/moderation/log';

export interface BanOrder {
	kind: 'TEMPORARY' | 'PERMANENT';
	/** Required for a temporary ban; epoch ms in the future. */
	endsAt: number | null;
	reason: string;
}

/**
 * Bans a member; `moderatorId` is the administrator who does it (null: the operator command).
 * @throws AppError UserNotFound when the member is not an active member of the channel
 */
export async function banMember(db: D1Database, channelId: number, memberId: number, order: BanOrder, now = Date.now(), moderatorId: number | null = null): Promise<void> {
	if ((order.kind === 'TEMPORARY') !== (order.endsAt !== null) || (order.endsAt !== null && order.endsAt <= now)) {
		throw new AppError('InvalidParameter', 'A temporary ban needs an end in the future; a permanent one has none.');
	}
	const member = await db.prepare('SELECT id FROM members WHERE id = ?1 AND channel_id = ?2 AND withdrawn_at IS NULL').bind(memberId, channelId).first();
	if (!member) throw new AppError('UserNotFound');
	await db.batch([
		db.prepare('INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)').bind(channelId, memberId, order.kind, order.endsAt, order.reason, now),
		endMemberSessions(db, memberId),
		logStatement(db, channelId, moderatorId, 'BAN', { type: 'MEMBER', id: memberId }, order.reason, now),
	]);
}

/** Lifts every ban of the member in the channel (logged when there was one to lift). */
export async function unbanMember(db: D1Database, channelId: number, memberId: number, now = Date.now(), moderatorId: number | null = null, reason = ''): Promise<void> {
	await db.batch([
		db.prepare('UPDATE bans SET lifted_at = ?3 WHERE member_id = ?1 AND channel_id = ?2 AND lifted_at IS NULL').bind(memberId, channelId, now),
		logStatement(db, channelId, moderatorId, 'UNBAN', { type: 'MEMBER', id: memberId }, reason, now, 'changes() > 0'),
	]);
}

export interface BanRecord {
	kind: 'TEMPORARY' | 'PERMANENT';
	endsAt: number | null;
	reason: string;
	createdAt: number;
	liftedAt: number | null;
}

/** A member of the channel and every ban they have had, oldest first. @throws AppError UserNotFound */
export async function memberBanHistory(db: D1Database, channelId: number, memberId: number) {
	const member = await db
		.prepare('SELECT id, nickname, withdrawn_at FROM members WHERE id = ?1 AND channel_id = ?2')
		.bind(memberId, channelId)
		.first<{ id: number; nickname: string | null; withdrawn_at: number | null }>();
	if (!member) throw new AppError('UserNotFound');
	const bans = await all<{ kind: BanRecord['kind']; ends_at: number | null; reason: string; created_at: number; lifted_at: number | null }>(
		db.prepare('SELECT kind, ends_at, reason, created_at, lifted_at FROM bans WHERE member_id = ?1 AND channel_id = ?2 ORDER BY created_at, id').bind(memberId, channelId),
	);
	return {
		member: { userId: member.id, nickname: member.nickname, withdrawn: member.withdrawn_at !== null },
		bans: bans.map((ban): BanRecord => ({ kind: ban.kind, endsAt: ban.ends_at, reason: ban.reason, createdAt: ban.created_at, liftedAt: ban.lifted_at })),
	};
}
