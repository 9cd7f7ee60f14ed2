/**
 * Reporting a post or a comment for the moderators. A member reports what they may read in full
 * (src/server/visibility/visibility.ts), never their own, and each target once: the table's
 * UNIQUE (target_type, target_id, reporter_id) decides, so two reports sent at once leave one row.
 * A report is one D1 batch that writes one row (plus its index entries); the one that brings its
 * target's open reports to the community's threshold also hides the target (a bounded write).
 *
 * Indexes: the UNIQUE (target_type, target_id, reporter_id) of migration 0001 finds every report
 * of one target by its prefix, reports_by_channel (channel_id, id) lists a channel's reports newest
 * first, and migration 0012's reports_open (channel_id, target_type, target_id) WHERE status = 'OPEN'
 * counts a target's open reports for the threshold and groups the queue.
 *
 * The stored `reason_text` is whatever the member typed, kept verbatim: it is never rendered as
 * HTML: the admin area shows it as text (a JSX text expression, never `dangerouslySetInnerHTML`,
 * and without autolinks).
 */
import { AppError } from '@/server/platform/errors';
import { assertion, guardedBatch, isUniqueViolation } from '@/server/platform/batch';
import { read, type Read } from '@/server/platform/reads';
import type { SessionMember } from '@/server/sign-in/sessions';
import { canReadComment, canReadPost, commentState, memberViewer, postState, type Viewer } from '@/server/visibility/visibility';
import type { CreateReportInput, ReportTargetType } from '@/schemas/report';
import { autoHide } from '@/server/moderation/hide';
import { newIdSql } from '@/server/databases/ids';

/** The stored state of a target and of the post it belongs to (a post is its own). */
interface TargetRow {
	author_id: number;
	comment_deleted_at: number | null;
	comment_hidden: number;
	post_author_id: number;
	post_deleted_at: number | null;
	post_hidden: number;
	post_private: number;
	board_public: number;
}

const POST_TARGET_SQL = `SELECT p.member_id AS author_id, NULL AS comment_deleted_at, 0 AS comment_hidden,
	p.member_id AS post_author_id, p.deleted_at AS post_deleted_at, p.hidden_by_admin AS post_hidden, p.is_private AS post_private,
	b.is_public AS board_public
 FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = ?1 AND p.channel_id = ?2`;

const COMMENT_TARGET_SQL = `SELECT c.member_id AS author_id, c.deleted_at AS comment_deleted_at, c.hidden_by_admin AS comment_hidden,
	p.member_id AS post_author_id, p.deleted_at AS post_deleted_at, p.hidden_by_admin AS post_hidden, p.is_private AS post_private,
	b.is_public AS board_public
 FROM comments c JOIN posts p ON p.id = c.post_id JOIN boards b ON b.id = p.board_id WHERE c.id = ?1 AND c.channel_id = ?2`;

/**
 * Re-checked inside the report's transaction: the target (and a comment's post) was not deleted in
 * between. Nobody reads a deleted post or comment, so a report must not reach one.
 */
const STILL_THERE_SQL: Record<ReportTargetType, string> = {
	POST: 'EXISTS (SELECT 1 FROM posts WHERE id = ?1 AND deleted_at IS NULL)',
	COMMENT: 'EXISTS (SELECT 1 FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = ?1 AND c.deleted_at IS NULL AND p.deleted_at IS NULL)',
};

const NOT_FOUND = { POST: 'PostNotFound', COMMENT: 'CommentNotFound' } as const;
const ALREADY_REPORTED = { POST: 'PostAlreadyReported', COMMENT: 'CommentAlreadyReported' } as const;

/** Whether `viewer` reads the target in full: its post, and for a comment the comment too. */
function readable(type: ReportTargetType, row: TargetRow, viewer: Viewer): boolean {
	const post = postState({
		deletedAt: row.post_deleted_at,
		hiddenByAdmin: row.post_hidden === 1,
		boardPublic: row.board_public === 1,
		isPrivate: row.post_private === 1,
	});
	if (!canReadPost(post, row.post_author_id, viewer)) return false;
	if (type === 'POST') return true;
	return canReadComment(commentState({ deletedAt: row.comment_deleted_at, hiddenByAdmin: row.comment_hidden === 1 }), viewer);
}

/** Who may report a post or a comment they read: anyone but its author (the post page offers Report by it). */
export function mayReport(authorId: number, member: SessionMember): boolean {
	return authorId !== member.userId;
}

/**
 * Stores a member's report of a post or a comment of this channel.
 * @throws AppError PostNotFound / CommentNotFound (not of this channel, or not one the member reads
 *   in full: the answer reveals nothing more), OwnContentNotReportable, PostAlreadyReported /
 *   CommentAlreadyReported (this member reported it before, or in a request at the same moment)
 */
export async function createReport(
	db: Db,
	channelId: number,
	member: SessionMember,
	input: CreateReportInput,
	now: number,
): Promise<{ reportId: number }> {
	const type = input.targetType;
	const row = await db
		.prepare(type === 'POST' ? POST_TARGET_SQL : COMMENT_TARGET_SQL)
		.bind(input.targetId, channelId)
		.first<TargetRow>();
	if (!row || !readable(type, row, memberViewer(member))) throw new AppError(NOT_FOUND[type]);
	if (!mayReport(row.author_id, member)) throw new AppError('OwnContentNotReportable');
	const insert = db
		.prepare(
			`INSERT INTO reports (id, channel_id, target_type, target_id, reporter_id, reason_code, reason_text, created_at)
			 VALUES (${newIdSql('reports', '?1')}, ?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
		)
		.bind(channelId, type, input.targetId, member.userId, input.reason, input.detail, now);
	// The target's open reports after this one that count toward the community's threshold for
	// hiding it by itself (migrations/0014), a read in the same transaction: those made when the
	// reporter's membership was at least the community's minimum age old (docs/reference/moderation.md), so
	// that accounts made for the purpose hide nothing, whatever record they made meanwhile, and a
	// report made too early never counts later. One seek per open report of the target.
	const tally = db
		.prepare(
			`SELECT ch.auto_hide_reports AS threshold,
				(SELECT count(*) FROM reports r JOIN members m ON m.id = r.reporter_id
				 WHERE r.channel_id = ?1 AND r.target_type = ?2 AND r.target_id = ?3 AND r.status = 'OPEN'
				   AND m.joined_at <= r.created_at - ch.report_min_age_hours * 3600000) AS open
			 FROM channels ch WHERE ch.id = ?1`,
		)
		.bind(channelId, type, input.targetId);
	// A report below the threshold changes nothing a reader sees, so no content version moves
	// (src/server/content-versions/versions.ts) and every cached page stays warm. The report that reaches it
	// hides the target (moderation/hide.ts autoHide), with that hide's own invalidation.
	let results: D1Result[];
	try {
		results = await guardedBatch(db, [assertion(db, STILL_THERE_SQL[type], input.targetId), insert, tally], NOT_FOUND[type]);
	} catch (error) {
		// The UNIQUE (target_type, target_id, reporter_id) of migration 0001: reported before, or by
		// a request of the same member that committed first.
		if (isUniqueViolation(error, 'reports.target_type')) throw new AppError(ALREADY_REPORTED[type]);
		throw error;
	}
	const counts = results[2]?.results[0] as { threshold: number | null; open: number } | undefined;
	const hiddenNow = type === 'POST' ? row.post_hidden : row.comment_hidden;
	if (counts && counts.threshold !== null && counts.open >= counts.threshold && hiddenNow === 0)
		await autoHide(db, channelId, { type, id: input.targetId }, now);
	return { reportId: results[1]!.meta.last_row_id };
}

/**
 * Whether the member of a session (by its token's hash) has reported the post: the post page reads
 * it in the session's own round trip, as it reads the member's like (likedByTokenRead), and
 * uses it only for a member. One probe of the UNIQUE (target_type, target_id, reporter_id) index.
 */
export function reportedByTokenRead(db: Db, channelId: number, tokenHash: string, postId: number): Read<boolean> {
	const statement = db
		.prepare(
			`SELECT EXISTS (SELECT 1 FROM sessions s JOIN reports r ON r.reporter_id = s.member_id
			 WHERE s.token_hash = ?1 AND s.channel_id = ?2 AND r.target_type = 'POST' AND r.target_id = ?3 AND r.channel_id = ?2) AS reported`,
		)
		.bind(tokenHash, channelId, postId);
	return read(statement, (result) => (result.results[0] as { reported: number } | undefined)?.reported === 1);
}
