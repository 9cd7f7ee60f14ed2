/**
 * The comments of a post as a reader sees them: oldest first, one level of replies under their
 * comment. A comment the reader may not read (deleted, or hidden from a non-administrator) keeps
 * its place and its replies but shows only its state (src/server/posts/visibility.ts).
 */
import { authorOf, type PostAuthor } from '@/server/posts/lists';
import { canReadComment, commentState, type CommentState, type Viewer } from '@/server/posts/visibility';

export type CommentView = ReadableComment | CommentTombstone;

export interface ReadableComment {
	readable: true;
	commentId: number;
	parentId: number | null;
	/** VISIBLE, or HIDDEN_BY_ADMIN for an administrator. */
	state: CommentState;
	author: PostAuthor;
	content: string;
	createdAt: number;
	edited: boolean;
	replies: CommentView[];
}

export interface CommentTombstone {
	readable: false;
	commentId: number;
	parentId: number | null;
	state: Exclude<CommentState, 'VISIBLE'>;
	replies: CommentView[];
}

export interface CommentRow {
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

/** The columns of CommentRow over comments c joined with members m. */
export const COMMENT_COLUMNS = `c.id, c.parent_id, c.member_id, m.nickname, m.withdrawn_at, c.content, c.created_at, c.edited_at,
	c.deleted_at, c.hidden_by_admin`;

function toView(row: CommentRow, viewer: Viewer): CommentView {
	const state = commentState({ deletedAt: row.deleted_at, hiddenByAdmin: row.hidden_by_admin === 1 });
	if (state !== 'VISIBLE' && !canReadComment(state, viewer)) return { readable: false, commentId: row.id, parentId: row.parent_id, state, replies: [] };
	return {
		readable: true,
		commentId: row.id,
		parentId: row.parent_id,
		state,
		author: authorOf(row.member_id, row.nickname, row.withdrawn_at),
		content: row.content,
		createdAt: row.created_at,
		edited: row.edited_at !== null,
		replies: [],
	};
}

/** Comment rows, oldest first, as top-level comments with their replies under them. */
export function threadComments(rows: CommentRow[], viewer: Viewer): CommentView[] {
	const views = rows.map((row) => toView(row, viewer));
	const byId = new Map(views.map((view) => [view.commentId, view]));
	const top: CommentView[] = [];
	for (const view of views) {
		const parent = view.parentId === null ? undefined : byId.get(view.parentId);
		if (parent) parent.replies.push(view);
		else if (view.parentId === null) top.push(view);
	}
	return top;
}
