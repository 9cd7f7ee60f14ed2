/**
 * The reports queue of the admin area (migration 0012): a community's open reports
 * grouped by their target (a post or a comment), with how many, why, by whom and the target's
 * writer; newest or most-reported first, a page at a time. Acting on a target closes its open
 * reports: hiding it resolves them (in the hide's batch, hide.ts), dismissing them closes them as
 * dismissed; either way they leave the queue and stay in the history, and the log says who did it.
 */
import { AppError } from '@/server/platform/errors';
import { PAGE_SIZE } from '@/schemas/params';
import { countOf, pageOf, pageOffsetSql } from '@/server/platform/page-offset';
import { readGroup, run, type ReadGroup } from '@/server/platform/reads';
import { logStatement, targetLabelJoins, targetLabelOf, TARGET_LABEL_COLUMNS, type TargetLabel, type TargetLabelRow } from './log';

export type ReportTarget = 'POST' | 'COMMENT';
export type QueueOrder = 'newest' | 'most';

interface QueueReport {
	reporter: { userId: number; nickname: string | null };
	reasonCode: string;
	reasonText: string;
	createdAt: number;
}

export interface QueueGroup {
	targetType: ReportTarget;
	targetId: number;
	/** The post a comment belongs to, or the post itself. */
	postId: number | null;
	/** The post's title or the comment's text; null when the target no longer exists. */
	excerpt: string | null;
	writer: { userId: number; nickname: string | null } | null;
	hidden: boolean;
	deleted: boolean;
	count: number;
	lastReportedAt: number;
	/** The newest reports of the group (at most REPORTS_SHOWN), with their reasons and reporters. */
	reports: QueueReport[];
}

/** Reports shown per target; `count` has them all. */
const REPORTS_SHOWN = 20;

/**
 * Statement that closes a target's open reports, for an action's batch (`status` RESOLVED when the
 * target was hidden, DISMISSED when the reports were).
 */
export function closeReportsStatement(
	db: Db,
	channelId: number,
	target: { type: ReportTarget; id: number },
	status: 'RESOLVED' | 'DISMISSED',
	adminId: number,
	now: number,
): D1PreparedStatement {
	return db
		.prepare(
			`UPDATE reports SET status = ?4, resolved_at = ?5, resolved_by = ?6
			 WHERE channel_id = ?1 AND target_type = ?2 AND target_id = ?3 AND status = 'OPEN'`,
		)
		.bind(channelId, target.type, target.id, status, now, adminId);
}

const QUEUE_COUNT_SQL = "SELECT count(*) AS n FROM (SELECT 1 FROM reports WHERE channel_id = ?1 AND status = 'OPEN' GROUP BY target_type, target_id)";

/**
 * The read of a page of the open reports, grouped by target, and their count (reportQueueOf reads
 * their results). `lastPage`: a page past the end reads the last page (the admin page), else nothing.
 */
export function reportQueueRead(
	db: Db,
	channelId: number,
	page: number,
	order: QueueOrder,
	lastPage = false,
): ReadGroup<{ groups: QueueGroup[]; page: number; totalCount: number; totalPages: number }> {
	const statements = [
		db
			.prepare(
				`WITH open AS (
					SELECT target_type, target_id, count(*) AS reports, max(created_at) AS last_at
					FROM reports WHERE channel_id = ?1 AND status = 'OPEN' GROUP BY target_type, target_id
					ORDER BY ${order === 'most' ? 'reports DESC, last_at DESC' : 'last_at DESC'}, target_id DESC
					LIMIT ${PAGE_SIZE} OFFSET ${pageOffsetSql('?2', lastPage && page > 1 ? QUEUE_COUNT_SQL : undefined)}
				)
				SELECT o.target_type, o.target_id, o.reports, o.last_at,
					coalesce(p.id, c.post_id) AS post_id,
					-- Nobody reads what was deleted, administrators included.
					CASE WHEN coalesce(p.deleted_at, c.deleted_at) IS NULL THEN coalesce(p.title, c.content) END AS excerpt,
					coalesce(p.member_id, c.member_id) AS writer_id, w.nickname AS writer_nickname,
					coalesce(p.hidden_by_admin, c.hidden_by_admin, 0) AS hidden, coalesce(p.deleted_at, c.deleted_at) IS NOT NULL AS deleted,
					(SELECT json_group_array(json_object('reporterId', r.reporter_id, 'nickname', m.nickname, 'reasonCode', r.reason_code, 'reasonText', r.reason_text, 'createdAt', r.created_at))
					 FROM (SELECT * FROM reports r WHERE r.channel_id = ?1 AND r.status = 'OPEN' AND r.target_type = o.target_type AND r.target_id = o.target_id
						ORDER BY r.created_at DESC LIMIT ${REPORTS_SHOWN}) r JOIN members m ON m.id = r.reporter_id) AS items
				FROM open o
				LEFT JOIN posts p ON o.target_type = 'POST' AND p.id = o.target_id AND p.channel_id = ?1
				LEFT JOIN comments c ON o.target_type = 'COMMENT' AND c.id = o.target_id AND c.channel_id = ?1
				LEFT JOIN members w ON w.id = coalesce(p.member_id, c.member_id)
				ORDER BY ${order === 'most' ? 'o.reports DESC, o.last_at DESC' : 'o.last_at DESC'}, o.target_id DESC`,
			)
			.bind(channelId, page),
		db.prepare(QUEUE_COUNT_SQL).bind(channelId),
	];
	return readGroup(statements, (results) => reportQueueOf(results, page, lastPage));
}

/** The page reportQueueRead read (`lastPage` as they were made with). */
function reportQueueOf(
	[rows, count]: readonly D1Result[],
	asked: number,
	lastPage = false,
): { groups: QueueGroup[]; page: number; totalCount: number; totalPages: number } {
	type Row = {
		target_type: ReportTarget;
		target_id: number;
		reports: number;
		last_at: number;
		post_id: number | null;
		excerpt: string | null;
		writer_id: number | null;
		writer_nickname: string | null;
		hidden: number;
		deleted: number;
		items: string;
	};
	const groups = ((rows?.results ?? []) as Row[]).map(
		(row): QueueGroup => ({
			targetType: row.target_type,
			targetId: row.target_id,
			postId: row.post_id,
			excerpt: row.excerpt,
			writer: row.writer_id === null ? null : { userId: row.writer_id, nickname: row.writer_nickname },
			hidden: row.hidden === 1,
			deleted: row.deleted === 1,
			count: row.reports,
			lastReportedAt: row.last_at,
			reports: (
				JSON.parse(row.items) as { reporterId: number; nickname: string | null; reasonCode: string; reasonText: string; createdAt: number }[]
			).map((item) => ({
				reporter: { userId: item.reporterId, nickname: item.nickname },
				reasonCode: item.reasonCode,
				reasonText: item.reasonText,
				createdAt: item.createdAt,
			})),
		}),
	);
	return pageOf({ groups }, countOf(count), asked, lastPage);
}

/** A page of the open reports, grouped by target. */
export async function listReportQueue(
	db: Db,
	channelId: number,
	page: number,
	order: QueueOrder,
): Promise<{ groups: QueueGroup[]; page: number; totalCount: number; totalPages: number }> {
	return run(db, reportQueueRead(db, channelId, page, order));
}

/** Dismisses a target's open reports. @throws AppError ReportsNotFound when it has none */
export async function dismissReports(
	db: Db,
	channelId: number,
	adminId: number,
	target: { type: ReportTarget; id: number },
	reason: string,
	now = Date.now(),
): Promise<void> {
	const [closed] = await db.batch([
		closeReportsStatement(db, channelId, target, 'DISMISSED', adminId, now),
		logStatement(db, channelId, adminId, 'DISMISS_REPORTS', target, reason, now, 'changes() > 0'),
	]);
	if ((closed?.meta.changes ?? 0) === 0) throw new AppError('ReportsNotFound');
}

export interface ClosedReport {
	reportId: number;
	targetType: ReportTarget;
	targetId: number;
	target: TargetLabel;
	reporter: { userId: number; nickname: string | null };
	reasonCode: string;
	reasonText: string;
	createdAt: number;
	status: 'RESOLVED' | 'DISMISSED';
	resolvedAt: number;
	resolvedBy: { userId: number; nickname: string | null } | null;
}

const CLOSED_COUNT_SQL = "SELECT count(*) AS n FROM reports WHERE channel_id = ?1 AND status <> 'OPEN'";

/** The read of a page of the history and its count (closedReportsOf reads their results); `lastPage` as reportQueueRead'. */
export function closedReportsRead(
	db: Db,
	channelId: number,
	page: number,
	lastPage = false,
): ReadGroup<{ reports: ClosedReport[]; page: number; totalCount: number; totalPages: number }> {
	const statements = [
		db
			.prepare(
				`SELECT r.id, r.target_type, r.target_id, r.reporter_id, m.nickname, r.reason_code, r.reason_text, r.created_at, r.status, r.resolved_at, r.resolved_by, a.nickname AS resolver,
					${TARGET_LABEL_COLUMNS}
				 FROM reports r JOIN members m ON m.id = r.reporter_id LEFT JOIN members a ON a.id = r.resolved_by
				 ${targetLabelJoins('r.target_type', 'r.target_id')}
				 WHERE r.channel_id = ?1 AND r.status <> 'OPEN' ORDER BY r.resolved_at DESC, r.id DESC
				 LIMIT ${PAGE_SIZE} OFFSET ${pageOffsetSql('?2', lastPage && page > 1 ? CLOSED_COUNT_SQL : undefined)}`,
			)
			.bind(channelId, page),
		db.prepare(CLOSED_COUNT_SQL).bind(channelId),
	];
	return readGroup(statements, (results) => closedReportsOf(results, page, lastPage));
}

/** The page closedReportsRead read (`lastPage` as they were made with). */
function closedReportsOf(
	[rows, count]: readonly D1Result[],
	asked: number,
	lastPage = false,
): { reports: ClosedReport[]; page: number; totalCount: number; totalPages: number } {
	type Row = TargetLabelRow & {
		id: number;
		target_type: ReportTarget;
		target_id: number;
		reporter_id: number;
		nickname: string | null;
		reason_code: string;
		reason_text: string;
		created_at: number;
		status: 'RESOLVED' | 'DISMISSED';
		resolved_at: number;
		resolved_by: number | null;
		resolver: string | null;
	};
	const reports = ((rows?.results ?? []) as Row[]).map(
		(row): ClosedReport => ({
			reportId: row.id,
			targetType: row.target_type,
			targetId: row.target_id,
			target: targetLabelOf(row),
			reporter: { userId: row.reporter_id, nickname: row.nickname },
			reasonCode: row.reason_code,
			reasonText: row.reason_text,
			createdAt: row.created_at,
			status: row.status,
			resolvedAt: row.resolved_at,
			resolvedBy: row.resolved_by === null ? null : { userId: row.resolved_by, nickname: row.resolver },
		}),
	);
	return pageOf({ reports }, countOf(count), asked, lastPage);
}

/** The history: closed reports, newest closed first. */
export async function listClosedReports(
	db: Db,
	channelId: number,
	page: number,
): Promise<{ reports: ClosedReport[]; page: number; totalCount: number; totalPages: number }> {
	return run(db, closedReportsRead(db, channelId, page));
}
