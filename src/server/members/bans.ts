/**
 * Bans (SPEC §4, §6): a temporary ban ends by itself at its end time, a permanent one when it is
 * lifted. Banning ends the member's sessions; while a ban is in force, every request of the member
 * is answered with -4031452. The operator command `npm run member` runs the same statements.
 */
import { AppError } from '@/server/platform/errors';
import { endMemberSessions } from '@/server/sign-in/sessions';

export interface BanOrder {
	kind: 'TEMPORARY' | 'PERMANENT';
	/** Required for a temporary ban; epoch ms in the future. */
	endsAt: number | null;
	reason: string;
}

/** @throws AppError UserNotFound when the member is not an active member of the channel */
export async function banMember(db: D1Database, channelId: number, memberId: number, order: BanOrder, now = Date.now()): Promise<void> {
	if ((order.kind === 'TEMPORARY') !== (order.endsAt !== null) || (order.endsAt !== null && order.endsAt <= now)) {
		throw new AppError('InvalidParameter', 'A temporary ban needs an end in the future; a permanent one has none.');
	}
	const member = await db.prepare('SELECT id FROM members WHERE id = ?1 AND channel_id = ?2 AND withdrawn_at IS NULL').bind(memberId, channelId).first();
	if (!member) throw new AppError('UserNotFound');
	await db.batch([
		db.prepare('INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)').bind(channelId, memberId, order.kind, order.endsAt, order.reason, now),
		endMemberSessions(db, memberId),
	]);
}

/** Lifts every ban of the member in the channel. */
export async function unbanMember(db: D1Database, channelId: number, memberId: number, now = Date.now()): Promise<void> {
	await db.prepare('UPDATE bans SET lifted_at = ?3 WHERE member_id = ?1 AND channel_id = ?2 AND lifted_at IS NULL').bind(memberId, channelId, now).run();
}
