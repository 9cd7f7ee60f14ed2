/**
 * The audit log of moderation (migrations/0011): a row per action, written in the action's own
 * batch, and read newest first by the community's administrators. Nothing changes or removes a row.
 */
import { PAGE_SIZE } from '@/schemas/params';

export type ModerationAction =
	| 'HIDE_POST' | 'UNHIDE_POST' | 'HIDE_COMMENT' | 'UNHIDE_COMMENT' | 'BAN' | 'UNBAN' | 'DISMISS_REPORTS' | 'GRANT_ADMIN' | 'REVOKE_ADMIN'
	// The community's automatic hide at its report threshold (no moderator), and a change of that setting.
	| 'AUTO_HIDE_POST' | 'AUTO_HIDE_COMMENT' | 'SETTINGS'
	// An administrator's deletion of someone else's post or comment (migrations/0016).
	| 'DELETE_POST' | 'DELETE_COMMENT';
export type ModerationTarget = 'POST' | 'COMMENT' | 'MEMBER' | 'CHANNEL';

/** Longest reason kept, in characters (a reason is a line or two for the other moderators). */
export const REASON_MAX = 500;

export interface LogEntry {
	entryId: number;
	/** null for an operator command and the automatic hide. */
	moderator: { userId: number; nickname: string | null } | null;
	action: ModerationAction;
	targetType: ModerationTarget;
	targetId: number;
	reason: string;
	createdAt: number;
}

/**
 * The log row of an action, for the action's batch. `when` is SQL over the batch's own rows that
 * must hold for the row to be written (the action really happened), or omitted.
 */
export function logStatement(
	db: D1Database,
	channelId: number,
	moderatorId: number | null,
	action: ModerationAction,
	target: { type: ModerationTarget; id: number },
	reason: string,
	now: number,
	when = '1',
): D1PreparedStatement {
	return db
		.prepare(
			`INSERT INTO moderation_log (channel_id, moderator_id, action, target_type, target_id, reason, created_at)
			 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE ${when}`,
		)
		.bind(channelId, moderatorId, action, target.type, target.id, reason.slice(0, REASON_MAX), now);
}

/** A page of the channel's log, newest first, with the total count. */
export async function listLog(db: D1Database, channelId: number, page: number): Promise<{ entries: LogEntry[]; page: number; totalCount: number; totalPages: number }> {
	const [rows, count] = await db.batch([
		db
			.prepare(
				`SELECT l.id, l.moderator_id, m.nickname, l.action, l.target_type, l.target_id, l.reason, l.created_at
				 FROM moderation_log l LEFT JOIN members m ON m.id = l.moderator_id
				 WHERE l.channel_id = ?1 ORDER BY l.id DESC LIMIT ?2 OFFSET ?3`,
			)
			.bind(channelId, PAGE_SIZE, (page - 1) * PAGE_SIZE),
		db.prepare('SELECT count(*) AS n FROM moderation_log WHERE channel_id = ?1').bind(channelId),
	]);
	type Row = { id: number; moderator_id: number | null; nickname: string | null; action: ModerationAction; target_type: ModerationTarget; target_id: number; reason: string; created_at: number };
	const entries = ((rows?.results ?? []) as Row[]).map((row) => ({
		entryId: row.id,
		moderator: row.moderator_id === null ? null : { userId: row.moderator_id, nickname: row.nickname },
		action: row.action,
		targetType: row.target_type,
		targetId: row.target_id,
		reason: row.reason,
		createdAt: row.created_at,
	}));
	const totalCount = Number((count?.results[0] as { n: number } | undefined)?.n ?? 0);
	return { entries, page, totalCount, totalPages: Math.max(1, Math.ceil(totalCount / PAGE_SIZE)) };
}
