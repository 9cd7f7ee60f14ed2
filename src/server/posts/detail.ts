/** One post with its board, category and author, and its comments with one level of replies. */
import { AppError } from '@/server/platform/errors';
import { all } from '@/server/platform/db';
import type { PostAuthor } from './lists';

export type PostState = 'VISIBLE' | 'HIDDEN_BY_ADMIN' | 'DELETED' | 'PRIVATE' | 'BOARD_PRIVATE';

export interface PostDetail {
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
	/** The stored body document; null unless the post is visible. */
	content: string | null;
	state: PostState;
}

interface PostRow {
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
	is_private: number;
}

function stateOf(row: PostRow): PostState {
	if (row.deleted_at !== null) return 'DELETED';
	if (row.hidden_by_admin) return 'HIDDEN_BY_ADMIN';
	if (!row.board_public) return 'BOARD_PRIVATE';
	if (row.is_private) return 'PRIVATE';
	return 'VISIBLE';
}

export function authorOf(memberId: number, nickname: string | null, withdrawnAt: number | null): PostAuthor {
	return { userId: memberId, nickname: withdrawnAt ? null : nickname, withdrawn: withdrawnAt !== null };
}

const POST_SQL = `SELECT p.id, p.board_id, b.name AS board_name, b.is_public AS board_public, p.subject_id, s.name AS subject_name,
		p.title, p.member_id, m.nickname, m.withdrawn_at, p.created_at, p.edited_at, p.view_count, p.like_count,
		p.comment_count, p.is_notice, p.template, p.content, p.deleted_at, p.hidden_by_admin, p.is_private`;
const POST_FROM = `FROM posts p
	JOIN boards b ON b.id = p.board_id
	JOIN members m ON m.id = p.member_id
	LEFT JOIN board_subjects s ON s.id = p.subject_id
	WHERE p.id = ?1 AND p.channel_id = ?2`;
const COMMENT_COLUMNS = `c.id, c.parent_id, c.member_id, m.nickname, m.withdrawn_at, c.content, c.created_at, c.edited_at,
	c.deleted_at, c.hidden_by_admin`;

/**
 * A post of the channel as a reader sees it: its body only while it is visible, its state
 * otherwise. @throws AppError PostNotFound, also for a post of another channel
 */
export async function getPost(db: D1Database, channelId: number, postId: number): Promise<PostDetail> {
	const row = await db.prepare(`${POST_SQL} ${POST_FROM}`).bind(postId, channelId).first<PostRow>();
	if (!row) throw new AppError('PostNotFound');
	return toDetail(row);
}

/**
 * The post and its comments in one D1 query (the post page's only one): the comments come as a
 * JSON array built by SQLite. Comments are returned only while the post is visible.
 * @throws AppError PostNotFound
 */
export async function getPostWithComments(db: D1Database, channelId: number, postId: number): Promise<{ post: PostDetail; comments: CommentView[] }> {
	const row = await db
		.prepare(
			`${POST_SQL},
				(SELECT json_group_array(json_array(t.id, t.parent_id, t.member_id, t.nickname, t.withdrawn_at, t.content,
						t.created_at, t.edited_at, t.deleted_at, t.hidden_by_admin))
				 FROM (SELECT ${COMMENT_COLUMNS} FROM comments c JOIN members m ON m.id = c.member_id
				       WHERE c.post_id = p.id AND c.channel_id = p.channel_id ORDER BY c.id) t) AS comments_json
			 ${POST_FROM}`,
		)
		.bind(postId, channelId)
		.first<PostRow & { comments_json: string }>();
	if (!row) throw new AppError('PostNotFound');
	const post = toDetail(row);
	if (post.state !== 'VISIBLE') return { post, comments: [] };
	const tuples = JSON.parse(row.comments_json) as [number, number | null, number, string | null, number | null, string, number, number | null, number | null, number][];
	const rows = tuples.map(([id, parent_id, member_id, nickname, withdrawn_at, content, created_at, edited_at, deleted_at, hidden_by_admin]): CommentRow => ({
		id, parent_id, member_id, nickname, withdrawn_at, content, created_at, edited_at, deleted_at, hidden_by_admin,
	}));
	return { post, comments: threadComments(rows) };
}

function toDetail(row: PostRow): PostDetail {
	const state = stateOf(row);
	return {
		postId: row.id,
		boardId: row.board_id,
		boardName: row.board_name,
		subjectId: row.subject_id,
		subjectName: row.subject_name,
		title: state === 'VISIBLE' ? row.title : '',
		author: authorOf(row.member_id, row.nickname, row.withdrawn_at),
		createdAt: row.created_at,
		editedAt: row.edited_at,
		viewCount: row.view_count,
		likeCount: row.like_count,
		commentCount: row.comment_count,
		isNotice: row.is_notice === 1,
		template: row.template,
		content: state === 'VISIBLE' ? row.content : null,
		state,
	};
}

export type CommentState = 'VISIBLE' | 'DELETED' | 'HIDDEN_BY_ADMIN';

export interface CommentView {
	commentId: number;
	parentId: number | null;
	author: PostAuthor;
	/** null unless the comment is visible. */
	content: string | null;
	createdAt: number;
	edited: boolean;
	state: CommentState;
	replies: CommentView[];
}

interface CommentRow {
	id: number;
	parent_id: number | null;
	member_id: number;
	nickname: string | null;
	withdrawn_at: number | null;
	content: string;
	created_at: number;
	edited_at: number | null;
	deleted_at: number | null;
	hidden_by_admin: number;
}

/**
 * The comments of a visible post, oldest first, replies under their comment. A deleted or hidden
 * comment keeps its place and its replies but not its text, which the page replaces with its state.
 */
export async function listComments(db: D1Database, channelId: number, postId: number): Promise<CommentView[]> {
	const rows = await all<CommentRow>(
		db
			.prepare(`SELECT ${COMMENT_COLUMNS} FROM comments c JOIN members m ON m.id = c.member_id WHERE c.post_id = ?1 AND c.channel_id = ?2 ORDER BY c.id`)
			.bind(postId, channelId),
	);
	return threadComments(rows);
}

/** Comment rows, oldest first, as top-level comments with their replies under them. */
function threadComments(rows: CommentRow[]): CommentView[] {
	const views = rows.map((row): CommentView => {
		const state: CommentState = row.deleted_at !== null ? 'DELETED' : row.hidden_by_admin ? 'HIDDEN_BY_ADMIN' : 'VISIBLE';
		return {
			commentId: row.id,
			parentId: row.parent_id,
			author: authorOf(row.member_id, row.nickname, row.withdrawn_at),
			content: state === 'VISIBLE' ? row.content : null,
			createdAt: row.created_at,
			edited: row.edited_at !== null,
			state,
			replies: [],
		};
	});
	const byId = new Map(views.map((view) => [view.commentId, view]));
	const top: CommentView[] = [];
	for (const view of views) {
		const parent = view.parentId === null ? undefined : byId.get(view.parentId);
		if (parent) parent.replies.push(view);
		else if (view.parentId === null) top.push(view);
	}
	return top;
}
