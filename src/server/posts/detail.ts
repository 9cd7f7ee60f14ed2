/**
 * One post as its reader may see it (src/server/visibility/visibility.ts): in full with its board,
 * category and author, or as a tombstone that tells only its state and board. The post page reads
 * the post and its comments in one D1 query (src/server/loaders/post-page.ts).
 */
import { parseMentions, type Mention } from '@/lib/mentions';
import { AppError } from '@/server/platform/errors';
import { authorOf, type PostAuthor } from '@/server/visibility/author';
import { canReadPost, postStateOfRow, type PostState, type Viewer } from '@/server/visibility/visibility';

export type PostView = PostDetail | PostTombstone;

export interface PostDetail {
	readable: true;
	postId: number;
	boardId: number;
	boardName: string;
	subjectId: number | null;
	subjectName: string | null;
	title: string;
	author: PostAuthor;
	createdAt: number;
	editedAt: number | null;
	viewCount: number;
	likeCount: number;
	commentCount: number;
	isNotice: boolean;
	template: string;
	/** The stored body document. */
	content: string;
	/** VISIBLE, or the state of a post its author or an administrator may still read. */
	state: PostState;
	/** Present (true) when the post was hidden by the community's automatic hide, after reports from members. */
	autoHidden?: true;
	/** The members its body mentions (src/lib/mentions.ts); absent when none. */
	mentions?: Mention[];
}

/** A post the reader may not read: what the page shows instead of it (docs/reference/product-rules.md#states). */
export interface PostTombstone {
	readable: false;
	postId: number;
	boardId: number;
	boardName: string;
	state: Exclude<PostState, 'VISIBLE'>;
	/** Present (true) when the post was hidden by the community's automatic hide, after reports from members. */
	autoHidden?: true;
}

/** A post's row as POST_SQL reads it (the post page adds its comments' columns: src/server/loaders/post-page.ts). */
export interface PostRow {
	id: number;
	board_id: number;
	board_name: string;
	board_public: number;
	subject_id: number | null;
	subject_name: string | null;
	title: string;
	member_id: number;
	nickname: string | null;
	withdrawn_at: number | null;
	role: string;
	created_at: number;
	edited_at: number | null;
	view_count: number;
	like_count: number;
	comment_count: number;
	is_notice: number;
	template: string;
	content: string;
	deleted_at: number | null;
	hidden_by_admin: number;
	auto_hidden: number;
	is_private: number;
	mentions: string | null;
}

/** The columns of one post's read, over POST_FROM. */
export const POST_SQL = `SELECT p.id, p.board_id, b.name AS board_name, b.is_public AS board_public, p.subject_id, s.name AS subject_name,
		p.title, p.member_id, m.nickname, m.withdrawn_at, m.role, p.created_at, p.edited_at, p.view_count, p.like_count,
		p.comment_count, p.is_notice, p.template, p.content, p.deleted_at, p.hidden_by_admin, p.auto_hidden, p.is_private, p.mentions`;
/** One post of the channel (?1 the post, ?2 the channel), with its board, author and category. */
export const POST_FROM = `FROM posts p
	JOIN boards b ON b.id = p.board_id
	JOIN members m ON m.id = p.member_id
	LEFT JOIN board_subjects s ON s.id = p.subject_id
	WHERE p.id = ?1 AND p.channel_id = ?2`;

/** `{ mentions }` when the body mentions members, nothing otherwise (so the post keeps its former shape). */
function mentionsOf(stored: string | null | undefined): { mentions?: Mention[] } {
	const mentions = parseMentions(stored);
	return mentions.length > 0 ? { mentions } : {};
}

/** The post as `viewer` may see it, from its row. */
export function toView(row: PostRow, viewer: Viewer): PostView {
	const state = postStateOfRow(row);
	const auto = state === 'HIDDEN_BY_ADMIN' && row.auto_hidden === 1 ? { autoHidden: true as const } : {};
	if (state !== 'VISIBLE' && !canReadPost(state, row.member_id, viewer)) {
		return { readable: false, postId: row.id, boardId: row.board_id, boardName: row.board_name, state, ...auto };
	}
	return {
		readable: true,
		postId: row.id,
		boardId: row.board_id,
		boardName: row.board_name,
		subjectId: row.subject_id,
		subjectName: row.subject_name,
		title: row.title,
		author: authorOf(row.member_id, row.nickname, row.withdrawn_at, row.role),
		createdAt: row.created_at,
		editedAt: row.edited_at,
		viewCount: row.view_count,
		likeCount: row.like_count,
		commentCount: row.comment_count,
		isNotice: row.is_notice === 1,
		template: row.template,
		content: row.content,
		state,
		...auto,
		...mentionsOf(row.mentions),
	};
}

/** A post of the channel as `viewer` may see it. @throws AppError PostNotFound, also for another channel's post */
export async function getPost(db: Db, channelId: number, postId: number, viewer: Viewer): Promise<PostView> {
	const row = await db.prepare(`${POST_SQL} ${POST_FROM}`).bind(postId, channelId).first<PostRow>();
	if (!row) throw new AppError('PostNotFound');
	return toView(row, viewer);
}
