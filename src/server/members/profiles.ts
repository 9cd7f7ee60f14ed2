/** Member profiles as readers see them, and a member's visible posts. */
import { AppError } from '@/server/platform/errors';
import { all } from '@/server/platform/db';
import { PAGE_SIZE } from '@/schemas/params';
import { pageCount } from '@/lib/paging';
import { SUMMARY_COLUMNS, toSummary, type PostSummary, type SummaryRow } from '@/server/posts/lists';
import { listablePostSql } from '@/server/visibility/visibility';
import { authorOf } from '@/server/visibility/author';

/** A profile lists what everyone may read of the member's posts. */
const PROFILE_POST_SQL = listablePostSql('NULL');

export interface MemberProfile {
	userId: number;
	/** null once the member has withdrawn. */
	nickname: string | null;
	joinedAt: number;
	withdrawn: boolean;
	/** An administrator of the community: the profile shows the role badge. */
	admin: boolean;
	postCount: number;
}

/** @throws AppError UserNotFound, also for a member of another channel */
export async function getProfile(db: D1Database, channelId: number, userId: number): Promise<MemberProfile> {
	const row = await db
		.prepare('SELECT id, nickname, joined_at, withdrawn_at, role FROM members WHERE id = ?1 AND channel_id = ?2')
		.bind(userId, channelId)
		.first<{ id: number; nickname: string | null; joined_at: number; withdrawn_at: number | null; role: string }>();
	if (!row) throw new AppError('UserNotFound');
	const count = await db
		.prepare(
			`SELECT count(*) AS count FROM posts p JOIN boards b ON b.id = p.board_id
			 WHERE p.member_id = ?1 AND p.channel_id = ?2 AND ${PROFILE_POST_SQL}`,
		)
		.bind(userId, channelId)
		.first<{ count: number }>();
	// The name and badge as readers see them beside the member's posts.
	const shown = authorOf(row.id, row.nickname, row.withdrawn_at, row.role);
	return {
		userId: row.id,
		nickname: shown.nickname,
		joinedAt: row.joined_at,
		withdrawn: shown.withdrawn,
		admin: shown.admin,
		postCount: count?.count ?? 0,
	};
}

export interface MemberPostPage {
	posts: PostSummary[];
	page: number;
	pageSize: number;
	totalCount: number;
	totalPages: number;
}

/**
 * A page of a member's visible posts (not deleted, hidden or private, and in public boards),
 * newest first. A member's list is short next to a board's, so it pages by offset over the
 * member's own index.
 */
export async function listMemberPosts(db: D1Database, channelId: number, profile: MemberProfile, page: number): Promise<MemberPostPage> {
	const rows = await all<SummaryRow>(
		db
			.prepare(
				`SELECT ${SUMMARY_COLUMNS}
				 FROM posts p JOIN members m ON m.id = p.member_id JOIN boards b ON b.id = p.board_id
				 WHERE p.member_id = ?1 AND p.channel_id = ?2 AND ${PROFILE_POST_SQL}
				 ORDER BY p.id DESC LIMIT ?3 OFFSET ?4`,
			)
			.bind(profile.userId, channelId, PAGE_SIZE, (page - 1) * PAGE_SIZE),
	);
	return {
		posts: rows.map(toSummary),
		page,
		pageSize: PAGE_SIZE,
		totalCount: profile.postCount,
		totalPages: pageCount(profile.postCount, PAGE_SIZE),
	};
}
