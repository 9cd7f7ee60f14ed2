/**
 * One post as its reader may see it (src/server/posts/visibility.ts): in full with its board,
 * category and author, or as a tombstone that tells only its state and board. The post page reads
 * the post and its comments in one D1 query.
 */
import { AppError } from '@/server/platform/errors';
import { authorOf, type PostAuthor } from './lists';
import { canReadPost, postStateOfRow, type PostState, type Viewer } from './visibility';
import { COMMENT_COLUMNS, threadComments, type CommentRow, type CommentView } from '@/server/comments/comments';

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
}

/** A post the reader may not read: what the page shows instead of it (SPEC §4). */
export interface PostTombstone {
	readable: false;
	postId: number;
	boardId: number;
	boardName: string;
	state: Exclude<PostState, 'VISIBLE'>;
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

const POST_SQL = `SELECT p.id, p.board_id, b.name AS board_name, b.is_public AS board_public, p.subject_id, s.name AS subject_name,
		p.title, p.member_id, m.nickname, m.withdrawn_at, p.created_at, p.edited_at, p.view_count, p.like_count,
		p.comment_count, p.is_notice, p.template, p.content, p.deleted_at, p.hidden_by_admin, p.is_private`;
const POST_FROM = `FROM posts p
	JOIN boards b ON b.id = p.board_id
	JOIN members m ON m.id = p.member_id
	LEFT JOIN board_subjects s ON s.id = p.subject_id
	WHERE p.id = ?1 AND p.channel_id = ?2`;

function toView(row: PostRow, viewer: Viewer): PostView {
	const state = postStateOfRow(row);
	if (state !== 'VISIBLE' && !canReadPost(state, row.member_id, viewer)) {
		return { readable: false, postId: row.id, boardId: row.board_id, boardName: row.board_name, state };
	}
	return {
		readable: true,
		postId: row.id,
		boardId: row.board_id,
		boardName: row.board_name,
		subjectId: row.subject_id,
		subjectName: row.subject_name,
		title: row.title,
		author: authorOf(row.member_id, row.nickname, row.withdrawn_at),
		createdAt: row.created_at,
		editedAt: row.edited_at,
		viewCount: row.view_count,
		likeCount: row.like_count,
		commentCount: row.comment_count,
		isNotice: row.is_notice === 1,
		template: row.template,
		content: row.content,
		state,
	};
}

/** A post of the channel as `viewer` may see it. @throws AppError PostNotFound, also for another channel's post */
export async function getPost(db: D1Database, channelId: number, postId: number, viewer: Viewer): Promise<PostView> {
	const row = await db.prepare(`${POST_SQL} ${POST_FROM}`).bind(postId, channelId).first<PostRow>();
	if (!row) throw new AppError('PostNotFound');
	return toView(row, viewer);
}

type CommentTuple = [number, number | null, number, string | null, number | null, string, number, number | null, number | null, number];

/**
 * The post and its comments in one D1 query (the post page's only one): SQLite builds the comments
 * as a JSON array. A post the reader may not read comes without comments.
 * @throws AppError PostNotFound
 */
export async function getPostWithComments(db: D1Database, channelId: number, postId: number, viewer: Viewer): Promise<{ post: PostView; comments: CommentView[] }> {
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
	const post = toView(row, viewer);
	if (!post.readable) return { post, comments: [] };
	const tuples = JSON.parse(row.comments_json) as CommentTuple[];
	const rows = tuples.map(([id, parent_id, member_id, nickname, withdrawn_at, content, created_at, edited_at, deleted_at, hidden_by_admin]): CommentRow => ({
		id, parent_id, member_id, nickname, withdrawn_at, content, created_at, edited_at, deleted_at, hidden_by_admin,
	}));
	return { post, comments: threadComments(rows, viewer) };
}
