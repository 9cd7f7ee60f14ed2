/**
 * Bans (docs/reference/product-rules.md#states, docs/reference/product-rules.md#roles): a temporary ban ends by itself at its end time, a permanent one when it is
 * lifted. A ban keeps the member's sessions (docs/reference/moderation.md#a-banned-member): signed in, they
 * are told at once that they are banned, until when, why and whom to ask, and keep reading; while it
 * is in force every other request of theirs is answered with -4031452, which carries the ban. The operator command `npm run member` (scripts/operator/member.ts) and
 * the admin API (functions/api/routers/admin.ts) run these same functions; each ban and lift writes its row
 * of the audit log (moderation/log.ts) in its batch, with the administrator or, for the operator
 * command, none.
 */
import { isAdmin, type Role } from '@/lib/roles';
import { notify } from '@/server/notifications/send';
import { AppError } from '@/server/platform/errors';
import { logStatement } from '@/server/moderation/log';
import { nicknameKey } from '@/lib/nickname-key';
import { PAGE_SIZE } from '@/schemas/params';
import { countOf, pageOf, pageOffsetSql } from '@/server/platform/page-offset';
import { readGroup, run, type ReadGroup } from '@/server/platform/reads';
import { newIdSql } from '@/server/databases/ids';

/** SQL: the member `memberSql` is under a ban in force at `nowSql` (a permanent one, or a temporary one not over); by bans_active_by_member. */
export const activeBanSql = (memberSql: string, nowSql: string) =>
	`EXISTS (SELECT 1 FROM bans x WHERE x.member_id = ${memberSql} AND x.lifted_at IS NULL AND (x.ends_at IS NULL OR x.ends_at > ${nowSql}))`;

export interface BanOrder {
	kind: 'TEMPORARY' | 'PERMANENT';
	/** Required for a temporary ban; epoch ms in the future. */
	endsAt: number | null;
	reason: string;
}

/**
 * SQL over the batch's own rows: the member (?2) is an active member of the channel (?1) whom `by`
 * (?3: an administrator, who may ban neither an administrator nor themself; null: the operator
 * command) may ban.
 */
const BANNABLE = `EXISTS (SELECT 1 FROM members WHERE id = ?2 AND channel_id = ?1 AND withdrawn_at IS NULL
	AND (?3 IS NULL OR (role <> 'ADMIN' AND id <> ?3)))`;

/**
 * The ban's batch, whose rows are written only when the member may be banned (BANNABLE), then the
 * reads of the member's history after it: whether the ban was written, and the history's rows.
 */
async function banBatch(db: Db, channelId: number, memberId: number, order: BanOrder, now: number, moderatorId: number | null, by: number | null) {
	const results = await db.batch([
		db
			.prepare(
				`INSERT INTO bans (id, channel_id, member_id, kind, ends_at, reason, created_at) SELECT ${newIdSql('bans', '?1')}, ?1, ?2, ?4, ?5, ?6, ?7 WHERE ${BANNABLE}`,
			)
			.bind(channelId, memberId, by, order.kind, order.endsAt, order.reason, now),
		logStatement(db, channelId, moderatorId, 'BAN', { type: 'MEMBER', id: memberId }, order.reason, now, 'changes() > 0'),
		...historyStatements(db, channelId, memberId),
	]);
	const inserted = results[0];
	const banned = inserted?.meta.changes === 1;
	// A temporary ban is told to the member with its end (they read it once it is over); a permanent one is not.
	if (banned && order.kind === 'TEMPORARY') notify({ type: 'ban', channelId, banId: inserted.meta.last_row_id, ended: false });
	return { banned, history: results.slice(2) };
}

/** Whether a ban's order is not one: a temporary ban ends, in the future; a permanent one does not. */
function invalidEnd(order: BanOrder, now: number): boolean {
	return (order.kind === 'TEMPORARY') !== (order.endsAt !== null) || (order.endsAt !== null && order.endsAt <= now);
}

/**
 * Bans a member; `moderatorId` is the administrator who does it (null: the operator command).
 * @throws AppError BanEndInvalid, then UserNotFound when the member is not an active member of the channel
 */
export async function banMember(
	db: Db,
	channelId: number,
	memberId: number,
	order: BanOrder,
	now = Date.now(),
	moderatorId: number | null = null,
): Promise<void> {
	if (invalidEnd(order, now)) throw new AppError('BanEndInvalid');
	const { banned } = await banBatch(db, channelId, memberId, order, now, moderatorId, null);
	if (!banned) throw new AppError('UserNotFound');
}

/**
 * An administrator's ban of a member (the admin API), and the member's ban history after it, in
 * one round trip. The member must be an active member of this community who is not an
 * administrator (the role is revoked first, by the operator command) and not the administrator
 * themself; that is checked before the order.
 * @throws AppError UserNotFound, Forbidden, then BanEndInvalid
 */
export async function banMemberAsAdministrator(
	db: Db,
	channelId: number,
	administratorId: number,
	memberId: number,
	order: BanOrder,
	now = Date.now(),
): Promise<BanHistory> {
	// An order that is not a ban writes nothing: its batch only reads the member, for the checks before it.
	const refused = invalidEnd(order, now);
	const { banned, history: rows } = refused
		? { banned: false, history: await db.batch(historyStatements(db, channelId, memberId)) }
		: await banBatch(db, channelId, memberId, order, now, administratorId, administratorId);
	const history = historyOfRows(rows);
	if (!history || history.member.withdrawn) throw new AppError('UserNotFound');
	if (history.member.admin || memberId === administratorId)
		throw new AppError('Forbidden', 'An administrator cannot be banned; revoke the role first.');
	if (refused) throw new AppError('BanEndInvalid');
	if (!banned) throw new Error('The ban of a bannable member was not stored');
	return history;
}

/** The lift's batch, then the member's history after it; tells the member of a temporary ban lifted before its end. */
async function unbanBatch(db: Db, channelId: number, memberId: number, now: number, moderatorId: number | null, reason: string) {
	const [lifted, , ...history] = await db.batch([
		db
			.prepare(
				`UPDATE bans SET lifted_at = ?3 WHERE member_id = ?1 AND channel_id = ?2 AND lifted_at IS NULL
				 AND EXISTS (SELECT 1 FROM members WHERE id = ?1 AND channel_id = ?2) RETURNING id, kind, ends_at`,
			)
			.bind(memberId, channelId, now),
		logStatement(db, channelId, moderatorId, 'UNBAN', { type: 'MEMBER', id: memberId }, reason, now, 'changes() > 0'),
		...historyStatements(db, channelId, memberId),
	]);
	// A temporary ban lifted before its end is told as its end.
	for (const ban of (lifted?.results ?? []) as { id: number; kind: string; ends_at: number | null }[]) {
		if (ban.kind === 'TEMPORARY' && ban.ends_at !== null && ban.ends_at > now) notify({ type: 'ban', channelId, banId: ban.id, ended: true });
	}
	return history;
}

/** Lifts every ban of the member in the channel (logged when there was one to lift). */
export async function unbanMember(
	db: Db,
	channelId: number,
	memberId: number,
	now = Date.now(),
	moderatorId: number | null = null,
	reason = '',
): Promise<void> {
	await unbanBatch(db, channelId, memberId, now, moderatorId, reason);
}

/**
 * An administrator's lift of a member's bans (the admin API), and the member's ban history after
 * it, in one round trip. @throws AppError UserNotFound when the member is none of this community (nothing is written)
 */
export async function unbanMemberAsAdministrator(
	db: Db,
	channelId: number,
	administratorId: number,
	memberId: number,
	reason: string,
	now = Date.now(),
): Promise<BanHistory> {
	const history = historyOfRows(await unbanBatch(db, channelId, memberId, now, administratorId, reason));
	if (!history) throw new AppError('UserNotFound');
	return history;
}

interface BanRecord {
	kind: 'TEMPORARY' | 'PERMANENT';
	endsAt: number | null;
	reason: string;
	createdAt: number;
	liftedAt: number | null;
}

/** A member of the channel and every ban they have had, oldest first. */
export interface BanHistory {
	member: { userId: number; nickname: string | null; withdrawn: boolean; admin: boolean };
	bans: BanRecord[];
}

/** The reads of a member's ban history, for a batch: the member, then their bans. */
function historyStatements(db: Db, channelId: number, memberId: number): D1PreparedStatement[] {
	return [
		db.prepare('SELECT id, nickname, role, withdrawn_at FROM members WHERE id = ?1 AND channel_id = ?2').bind(memberId, channelId),
		db
			.prepare('SELECT kind, ends_at, reason, created_at, lifted_at FROM bans WHERE member_id = ?1 AND channel_id = ?2 ORDER BY created_at, id')
			.bind(memberId, channelId),
	];
}

/** The history historyStatements read, or null when the member is none of the channel. */
function historyOfRows([memberRows, banRows]: D1Result[]): BanHistory | null {
	const member = memberRows?.results[0] as { id: number; nickname: string | null; role: Role; withdrawn_at: number | null } | undefined;
	if (!member) return null;
	const bans = (banRows?.results ?? []) as {
		kind: BanRecord['kind'];
		ends_at: number | null;
		reason: string;
		created_at: number;
		lifted_at: number | null;
	}[];
	return {
		member: {
			userId: member.id,
			nickname: member.withdrawn_at === null ? member.nickname : null,
			withdrawn: member.withdrawn_at !== null,
			admin: isAdmin(member),
		},
		bans: bans.map(
			(ban): BanRecord => ({ kind: ban.kind, endsAt: ban.ends_at, reason: ban.reason, createdAt: ban.created_at, liftedAt: ban.lifted_at }),
		),
	};
}

/** A member of the channel and every ban they have had, oldest first, in one round trip. @throws AppError UserNotFound */
export async function memberBanHistory(db: Db, channelId: number, memberId: number): Promise<BanHistory> {
	const history = historyOfRows(await db.batch(historyStatements(db, channelId, memberId)));
	if (!history) throw new AppError('UserNotFound');
	return history;
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
	db: Db,
	channelId: number,
	page: number,
	now = Date.now(),
): Promise<{ bans: BanInForce[]; page: number; totalCount: number; totalPages: number }> {
	return run(db, bansInForceRead(db, channelId, page, now));
}

/** The read of a page of the bans in force and their count (bansInForceOf reads their results); `lastPage`: a page past the end reads the last page (the admin page). */
export function bansInForceRead(
	db: Db,
	channelId: number,
	page: number,
	now = Date.now(),
	lastPage = false,
): ReadGroup<{ bans: BanInForce[]; page: number; totalCount: number; totalPages: number }> {
	const inForce = `SELECT member_id, max(kind = 'PERMANENT') AS permanent, max(ends_at) AS ends_at, max(created_at) AS created_at
		FROM bans WHERE channel_id = ?1 AND lifted_at IS NULL AND (ends_at IS NULL OR ends_at > ?2) GROUP BY member_id`;
	const countSql = `SELECT count(*) AS n FROM (${inForce})`;
	const statements = [
		db
			.prepare(
				`SELECT f.member_id, m.nickname, m.withdrawn_at, f.permanent, f.ends_at, f.created_at,
					(SELECT reason FROM bans b WHERE b.member_id = f.member_id AND b.channel_id = ?1 AND b.lifted_at IS NULL ORDER BY b.created_at DESC, b.id DESC LIMIT 1) AS reason
				 FROM (${inForce}) f JOIN members m ON m.id = f.member_id
				 ORDER BY f.created_at DESC, f.member_id DESC LIMIT ${PAGE_SIZE} OFFSET ${pageOffsetSql('?3', lastPage && page > 1 ? countSql : undefined)}`,
			)
			.bind(channelId, now, page),
		db.prepare(countSql).bind(channelId, now),
	];
	return readGroup(statements, (results) => bansInForceOf(results, page, lastPage));
}

/** The page bansInForceRead read (`lastPage` as they were made with). */
function bansInForceOf(
	[rows, count]: readonly D1Result[],
	asked: number,
	lastPage = false,
): { bans: BanInForce[]; page: number; totalCount: number; totalPages: number } {
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
	return pageOf({ bans }, countOf(count), asked, lastPage);
}

/** The active member of the channel who holds `nickname` now (compared by its key), or null. */
export async function memberByNickname(db: Db, channelId: number, nickname: string): Promise<number | null> {
	const row = await db
		.prepare(
			`SELECT m.id FROM nickname_claims n JOIN members m ON m.id = n.member_id
			 WHERE n.channel_id = ?1 AND n.nickname_key = ?2 AND n.released_at IS NULL AND m.withdrawn_at IS NULL`,
		)
		.bind(channelId, nicknameKey(nickname.trim()))
		.first<{ id: number }>();
	return row?.id ?? null;
}
