/** Ids of demo rows with particular states, read from the browser tests' own local D1s. */
import { runSql, type Where } from './database';

export interface DemoIds {
	hiddenPost: number;
	deletedPost: number;
	privatePost: number;
	staffPost: number;
	postWithoutCategory: number;
	postWithDeletedComment: number;
	postWithVideo: number;
	postWithImage: number;
	member: number;
	memberNickname: string;
}

let cached: DemoIds | undefined;

/** A post's stored view count, read from the browser tests' D1 (the post of starfall/global unless `where` names another community). */
export function viewCount(postId: number, where?: Where): number {
	const [row] = runSql(`SELECT view_count AS views FROM posts WHERE id = ${Number(postId)}`, where) as { views: number }[];
	return row?.views ?? -1;
}

export function demoIds(): DemoIds {
	if (cached) return cached;
	const [row] = runSql(
		`SELECT
			(SELECT id FROM posts WHERE channel_id = 1 AND hidden_by_admin = 1 LIMIT 1) AS hiddenPost,
			(SELECT id FROM posts WHERE channel_id = 1 AND deleted_at IS NOT NULL LIMIT 1) AS deletedPost,
			(SELECT id FROM posts WHERE channel_id = 1 AND is_private = 1 LIMIT 1) AS privatePost,
			(SELECT id FROM posts WHERE channel_id = 1 AND board_id = 17 LIMIT 1) AS staffPost,
			(SELECT id FROM posts WHERE channel_id = 1 AND board_id = 12 AND subject_id IS NULL AND board_seq IS NOT NULL LIMIT 1) AS postWithoutCategory,
			(SELECT post_id FROM comments WHERE channel_id = 1 AND deleted_at IS NOT NULL LIMIT 1) AS postWithDeletedComment,
			(SELECT id FROM posts WHERE channel_id = 1 AND has_video = 1 AND board_seq IS NOT NULL LIMIT 1) AS postWithVideo,
			(SELECT id FROM posts WHERE channel_id = 1 AND has_image = 1 AND board_seq IS NOT NULL LIMIT 1) AS postWithImage,
			1002 AS member,
			(SELECT nickname FROM members WHERE id = 1002) AS memberNickname`,
	) as DemoIds[];
	if (!row) throw new Error('The browser tests need the seeded .wrangler/test-state database');
	cached = row;
	return row;
}

/** A member's nickname in the browser tests' D1 (in the database of the member's community, tests/e2e/database.ts, unless `where` says). */
export function nicknameOf(memberId: number, where?: Where): string {
	const [row] = runSql(`SELECT nickname FROM members WHERE id = ${Number(memberId)}`, where) as { nickname: string }[];
	if (!row) throw new Error(`No member ${memberId}`);
	return row.nickname;
}

/**
 * Runs a statement on the browser tests' D1s (to tamper with a transaction, as an attacker would, or
 * to mark demo rows), in the database of the community it concerns: `where`, else the community the
 * statement names, else starfall/global's (tests/e2e/database.ts). The running server holds the same
 * databases, so a write can meet its lock: runSql's worker tries it again after a short wait
 * (tests/e2e/database-worker.mjs).
 */
export function execute(statement: string, where?: Where): unknown[] {
	return runSql(statement, where);
}
