/**
 * Bans (docs/product-rules.md#states, docs/product-rules.md#roles): a temporary ban ends by itself at its end time, a permanent one when it is
 * lifted. Banning ends the member's sessions; while a ban is in force, every request of the member
 * is answered with -4031452. The operator command `npm run member` (scripts/operator/member.ts) and
 * the admin API (functions/api/admin.ts) run these same functions; each ban and lift writes its row
 * of the audit log (moderation/log.ts) in its batch, with the administrator or, for the operator
 * command, none.
 */
import { notify } from '@/server/notifications/send';
import { AppError } from '@/server/platform/errors';
import { all } from '@/server/platform/db';
import { endMemberSessions } from '@/server/sign-in/sessions';
import { logStatement } from '@/server/moderation/log';
import { nicknameKey } from '@/lib/nickname-key';
import { PAGE_SIZE } from '@/schemas/params';
import { pageCount } from '@/lib/paging';

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
export async function banMember(
	db: D1Database,
	channelId: number,
	memberId: number,
	order: BanOrder,
	now = Date.now(),
	moderatorId: number | null = null,
): Promise<void> {
	if ((order.kind === 'TEMPORARY') !== (order.endsAt !== null) || (order.endsAt !== null && order.endsAt <= now)) {
		throw new AppError('BanEndInvalid');
	}
	const member = await db
		.prepare('SELECT id FROM members WHERE id = ?1 AND channel_id = ?2 AND withdrawn_at IS NULL')
		.bind(memberId, channelId)
		.first();
	if (!member) throw new AppError('UserNotFound');
	const [inserted] = await db.batch([
		db
			.prepare('INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)')
			.bind(channelId, memberId, order.kind, order.endsAt, order.reason, now),
		endMemberSessions(db, memberId),
		logStatement(db, channelId, moderatorId, 'BAN', { type: 'MEMBER', id: memberId }, order.reason, now),
	]);
	// A temporary ban is told to the member with its end (they read it once it is over); a permanent one is not.
	if (order.kind === 'TEMPORARY' && inserted) notify({ type: 'ban', channelId, banId: inserted.meta.last_row_id, ended: false });
}

/** Lifts every ban of the member in the channel (logged when there was one to lift). */
export async function unbanMember(
	db: D1Database,
	channelId: number,
	memberId: number,
	now = Date.now(),
	moderatorId: number | null = null,
	reason = '',
): Promise<void> {
	const [lifted] = await db.batch([
		db
			.prepare('UPDATE bans SET lifted_at = ?3 WHERE member_id = ?1 AND channel_id = ?2 AND lifted_at IS NULL RETURNING id, kind, ends_at')
			.bind(memberId, channelId, now),
		logStatement(db, channelId, moderatorId, 'UNBAN', { type: 'MEMBER', id: memberId }, reason, now, 'changes() > 0'),
	]);
	// A temporary ban lifted before its end is told as its end.
	for (const ban of (lifted?.results ?? []) as { id: number; kind: string; ends_at: number | null }[]) {
		if (ban.kind === 'TEMPORARY' && ban.ends_at !== null && ban.ends_at > now) notify({ type: 'ban', channelId, banId: ban.id, ended: true });
	}
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
		.prepare('SELECT id, nickname, role, withdrawn_at FROM members WHERE id = ?1 AND channel_id = ?2')
		.bind(memberId, channelId)
		.first<{ id: number; nickname: string | null; role: 'MEMBER' | 'ADMIN'; withdrawn_at: number | null }>();
	if (!member) throw new AppError('UserNotFound');
	const bans = await all<{ kind: BanRecord['kind']; ends_at: number | null; reason: string; created_at: number; lifted_at: number | null }>(
		db
			.prepare('SELECT kind, ends_at, reason, created_at, lifted_at FROM bans WHERE member_id = ?1 AND channel_id = ?2 ORDER BY created_at, id')
			.bind(memberId, channelId),
	);
	return {
		member: {
			userId: member.id,
			nickname: member.withdrawn_at === null ? member.nickname : null,
			withdrawn: member.withdrawn_at !== null,
			admin: member.role === 'ADMIN',
		},
		bans: bans.map(
			(ban): BanRecord => ({ kind: ban.kind, endsAt: ban.ends_at, reason: ban.reason, createdAt: ban.created_at, liftedAt: ban.lifted_at }),
		),
	};
}

export interface BanInForce {
	member: { userId: number; nickname: string | null };
	kind: 'TEMPORARY' | 'PERMANENT';
	/** The latest end among the member's temporary bans; null when one of them is permanent. */
	endsAt: number | null;
	/** The newest ban's reason and start. */
	reason: string;
	createdAt: number;
}

/**
 * The members whose ban is in force at `now`, one entry per member, newest ban first, a page at a
 * time (the admin area's Bans tab). A member's bans are few, so the grouping reads only the
 * channel's unlifted bans (migrations/0014's index).
 */
export async function listBansInForce(
	db: D1Database,
	channelId: number,
	page: number,
	now = Date.now(),
): Promise<{ bans: BanInForce[]; page: number; totalCount: number; totalPages: number }> {
	const inForce = `SELECT member_id, max(kind = 'PERMANENT') AS permanent, max(ends_at) AS ends_at, max(created_at) AS created_at
		FROM bans WHERE channel_id = ?1 AND lifted_at IS NULL AND (ends_at IS NULL OR ends_at > ?2) GROUP BY member_id`;
	const [rows, count] = await db.batch([
		db
			.prepare(
				`SELECT f.member_id, m.nickname, m.withdrawn_at, f.permanent, f.ends_at, f.created_at,
					(SELECT reason FROM bans b WHERE b.member_id = f.member_id AND b.channel_id = ?1 AND b.lifted_at IS NULL ORDER BY b.created_at DESC, b.id DESC LIMIT 1) AS reason
				 FROM (${inForce}) f JOIN members m ON m.id = f.member_id
				 ORDER BY f.created_at DESC, f.member_id DESC LIMIT ?3 OFFSET ?4`,
			)
			.bind(channelId, now, PAGE_SIZE, (page - 1) * PAGE_SIZE),
		db.prepare(`SELECT count(*) AS n FROM (${inForce})`).bind(channelId, now),
	]);
	type Row = {
		member_id: number;
		nickname: string | null;
		withdrawn_at: number | null;
		permanent: number;
		ends_at: number | null;
		created_at: number;
		reason: string | null;
	};
	const bans = ((rows?.results ?? []) as Row[]).map(
		(row): BanInForce => ({
			member: { userId: row.member_id, nickname: row.withdrawn_at === null ? row.nickname : null },
			kind: row.permanent ? 'PERMANENT' : 'TEMPORARY',
			endsAt: row.permanent ? null : row.ends_at,
			reason: row.reason ?? '',
			createdAt: row.created_at,
		}),
	);
	const totalCount = Number((count?.results[0] as { n: number } | undefined)?.n ?? 0);
	return { bans, page, totalCount, totalPages: pageCount(totalCount, PAGE_SIZE) };
}

/** The active member of the channel who holds `nickname` now (compared by its key), or null. */
export async function memberByNickname(db: D1Database, channelId: number, nickname: string): Promise<number | null> {
	const row = await db
		.prepare(
			`SELECT m.id FROM nickname_claims n JOIN members m ON m.id = n.member_id
			 WHERE n.channel_id = ?1 AND n.nickname_key = ?2 AND n.released_at IS NULL AND m.withdrawn_at IS NULL`,
		)
		.bind(channelId, nicknameKey(nickname.trim()))
		.first<{ id: number }>();
	return row?.id ?? null;
}
