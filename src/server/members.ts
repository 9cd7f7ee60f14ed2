/** Member profiles as readers see them, and a member's visible posts. */
import { AppError } from './errors';
import { all } from './db';
import { PAGE_SIZE } from '../schemas/params';
import type { PostSummary } from './posts';

export interface MemberProfile {
	userId: number;
	/** null once the member has withdrawn. */
	nickname: string | null;
	joinedAt: number;
	withdrawn: boolean;
	postCount: number;
}

/** @throws AppError UserNotFound, also for a member of another channel */
export async function getProfile(db: D1Database, channelId: number, userId: number): Promise<MemberProfile> {
	const row = await db
		.prepare('SELECT id, nickname, joined_at, withdrawn_at FROM members WHERE id = ?1 AND channel_id = ?2')
		.bind(userId, channelId)
		.first<{ id: number; nickname: string | null; joined_at: number; withdrawn_at: number | null }>();
	if (!row) throw new AppError('UserNotFound');
	const count = await db
		.prepare(
			`SELECT count(*) AS count FROM posts p JOIN boards b ON b.id = p.board_id
			 WHERE p.member_id = ?1 AND p.channel_id = ?2 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0
			   AND p.is_private = 0 AND b.is_public = 1`,
		)
		.bind(userId, channelId)
		.first<{ count: number }>();
	return {
		userId: row.id,
		nickname: row.withdrawn_at ? null : row.nickname,
		joinedAt: row.joined_at,
		withdrawn: row.withdrawn_at !== null,
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
	const rows = await all<{
		id: number;
		board_id: number;
		subject_id: number | null;
		title: string;
		created_at: number;
		view_count: number;
		like_count: number;
		comment_count: number;
		is_notice: number;
		has_image: number;
		has_video: number;
	}>(
		db
			.prepare(
				`SELECT p.id, p.board_id, p.subject_id, p.title, p.created_at, p.view_count, p.like_count, p.comment_count,
					p.is_notice, p.has_image, p.has_video
				 FROM posts p JOIN boards b ON b.id = p.board_id
				 WHERE p.member_id = ?1 AND p.channel_id = ?2 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0
				   AND p.is_private = 0 AND b.is_public = 1
				 ORDER BY p.id DESC LIMIT ?3 OFFSET ?4`,
			)
			.bind(profile.userId, channelId, PAGE_SIZE, (page - 1) * PAGE_SIZE),
	);
	const author = { userId: profile.userId, nickname: profile.nickname, withdrawn: profile.withdrawn };
	return {
		posts: rows.map((row) => ({
			postId: row.id,
			boardId: row.board_id,
			subjectId: row.subject_id,
			title: row.title,
			author,
			createdAt: row.created_at,
			viewCount: row.view_count,
			likeCount: row.like_count,
			commentCount: row.comment_count,
			isNotice: row.is_notice === 1,
			hasImage: row.has_image === 1,
			hasVideo: row.has_video === 1,
		})),
		page,
		pageSize: PAGE_SIZE,
		totalCount: profile.postCount,
		totalPages: Math.max(1, Math.ceil(profile.postCount / PAGE_SIZE)),
	};
}
