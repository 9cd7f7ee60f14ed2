/**
 * The audit log of moderation (migrations/0011): a row per action, written in the action's own
 * batch, and read newest first by the community's administrators. Nothing changes or removes a row.
 */
import { PAGE_SIZE } from '@/schemas/params';
import { countOf, pageOf, pageOffsetSql } from '@/server/platform/page-offset';
import { readGroup, run, type ReadGroup } from '@/server/platform/reads';
import { newIdSql } from '@/server/databases/ids';

export type ModerationAction =
	| 'HIDE_POST'
	| 'UNHIDE_POST'
	| 'HIDE_COMMENT'
	| 'UNHIDE_COMMENT'
	| 'BAN'
	| 'UNBAN'
	| 'DISMISS_REPORTS'
	| 'GRANT_ADMIN'
	| 'REVOKE_ADMIN'
	// The community's automatic hide at its report threshold (no moderator), and a change of that setting.
	| 'AUTO_HIDE_POST'
	| 'AUTO_HIDE_COMMENT'
	| 'SETTINGS'
	// An administrator's deletion of someone else's post or comment (migrations/0016).
	| 'DELETE_POST'
	| 'DELETE_COMMENT'
	// An administrator's read of a post's or comment's stored text, Show text (migrations/0030).
	| 'VIEW_POST_TEXT'
	| 'VIEW_COMMENT_TEXT'
	// An administrator's removal of a member's avatar (migrations/0040, docs/reference/avatars.md).
	| 'REMOVE_AVATAR';
export type ModerationTarget = 'POST' | 'COMMENT' | 'MEMBER' | 'CHANNEL';

/** Longest reason kept, in characters (a reason is a line or two for the other moderators). */
export const REASON_MAX = 500;

/**
 * What an admin list says of a target instead of its bare id: a post's title, a comment's excerpt
 * and its post's title, a member's nickname. Read in the list's own query (joins on primary keys,
 * one page of rows), never a query per row.
 */
export interface TargetLabel {
	/** The post itself or the comment's post, for the link; null when it no longer exists or is not a post or comment. */
	postId: number | null;
	/** The post's title (a comment's: its post's); null when that post is deleted or gone (nobody reads what was deleted). */
	title: string | null;
	/** A comment's text, at most TARGET_EXCERPT characters; null when it is deleted or gone, or not a comment. */
	excerpt: string | null;
	/** A member target's nickname; null when withdrawn, or not a member. */
	nickname: string | null;
}

/** Longest comment excerpt an admin list shows, in characters. */
export const TARGET_EXCERPT = 80;

/**
 * Joins that label a target named by the SQL expressions `type` and `id`, in the channel bound as
 * ?1; select TARGET_LABEL_COLUMNS and read them with targetLabelOf.
 */
export function targetLabelJoins(type: string, id: string): string {
	return `LEFT JOIN posts tp ON ${type} = 'POST' AND tp.id = ${id} AND tp.channel_id = ?1
		LEFT JOIN comments tc ON ${type} = 'COMMENT' AND tc.id = ${id} AND tc.channel_id = ?1
		LEFT JOIN posts tcp ON tcp.id = tc.post_id
		LEFT JOIN members tm ON ${type} = 'MEMBER' AND tm.id = ${id} AND tm.channel_id = ?1`;
}

export const TARGET_LABEL_COLUMNS = `coalesce(tp.id, tcp.id) AS label_post_id,
	CASE WHEN coalesce(tp.deleted_at, tcp.deleted_at) IS NULL THEN coalesce(tp.title, tcp.title) END AS label_title,
	CASE WHEN tc.deleted_at IS NULL THEN substr(tc.content, 1, ${TARGET_EXCERPT}) END AS label_excerpt,
	CASE WHEN tm.withdrawn_at IS NULL THEN tm.nickname END AS label_nickname`;

export interface TargetLabelRow {
	label_post_id: number | null;
	label_title: string | null;
	label_excerpt: string | null;
	label_nickname: string | null;
}

export function targetLabelOf(row: TargetLabelRow): TargetLabel {
	return { postId: row.label_post_id, title: row.label_title, excerpt: row.label_excerpt, nickname: row.label_nickname };
}

export interface LogEntry {
	entryId: number;
	/** null for an operator command and the automatic hide. */
	moderator: { userId: number; nickname: string | null } | null;
	action: ModerationAction;
	targetType: ModerationTarget;
	targetId: number;
	target: TargetLabel;
	reason: string;
	createdAt: number;
}

/**
 * The log row of an action, for the action's batch. `when` is SQL over the batch's own rows that
 * must hold for the row to be written (the action really happened), or omitted.
 */
export function logStatement(
	db: Db,
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
			`INSERT INTO moderation_log (id, channel_id, moderator_id, action, target_type, target_id, reason, created_at)
			 SELECT ${newIdSql('moderation_log', '?1')}, ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE ${when}`,
		)
		.bind(channelId, moderatorId, action, target.type, target.id, reason.slice(0, REASON_MAX), now);
}

const LOG_COUNT_SQL = 'SELECT count(*) AS n FROM moderation_log WHERE channel_id = ?1';

/** The read of a page of the channel's log and its count (logPageOf reads their results); `lastPage`: a page past the end reads the last page (the admin page). */
export function logPageRead(
	db: Db,
	channelId: number,
	page: number,
	lastPage = false,
): ReadGroup<{ entries: LogEntry[]; page: number; totalCount: number; totalPages: number }> {
	const statements = [
		db
			.prepare(
				`SELECT l.id, l.moderator_id, m.nickname, l.action, l.target_type, l.target_id, l.reason, l.created_at, ${TARGET_LABEL_COLUMNS}
				 FROM moderation_log l LEFT JOIN members m ON m.id = l.moderator_id
				 ${targetLabelJoins('l.target_type', 'l.target_id')}
				 WHERE l.channel_id = ?1 ORDER BY l.id DESC LIMIT ${PAGE_SIZE} OFFSET ${pageOffsetSql('?2', lastPage && page > 1 ? LOG_COUNT_SQL : undefined)}`,
			)
			.bind(channelId, page),
		db.prepare(LOG_COUNT_SQL).bind(channelId),
	];
	return readGroup(statements, (results) => logPageOf(results, page, lastPage));
}

/** The page logPageRead read (`lastPage` as they were made with). */
function logPageOf(
	[rows, count]: readonly D1Result[],
	asked: number,
	lastPage = false,
): { entries: LogEntry[]; page: number; totalCount: number; totalPages: number } {
	type Row = TargetLabelRow & {
		id: number;
		moderator_id: number | null;
		nickname: string | null;
		action: ModerationAction;
		target_type: ModerationTarget;
		target_id: number;
		reason: string;
		created_at: number;
	};
	const entries = ((rows?.results ?? []) as Row[]).map((row) => ({
		entryId: row.id,
		moderator: row.moderator_id === null ? null : { userId: row.moderator_id, nickname: row.nickname },
		action: row.action,
		targetType: row.target_type,
		targetId: row.target_id,
		target: targetLabelOf(row),
		reason: row.reason,
		createdAt: row.created_at,
	}));
	return pageOf({ entries }, countOf(count), asked, lastPage);
}

/** A page of the channel's log, newest first, with the total count. */
export async function listLog(
	db: Db,
	channelId: number,
	page: number,
): Promise<{ entries: LogEntry[]; page: number; totalCount: number; totalPages: number }> {
	return run(db, logPageRead(db, channelId, page));
}
