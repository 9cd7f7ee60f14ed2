/**
 * A post as its edit screen opens it: exactly the stored fields and the version the edit will be
 * checked against (PostChanged). Only the author and administrators edit, and only a post they may
 * read in full (src/server/posts/visibility.ts): nobody edits a deleted post, and an author does
 * not open their post once an administrator has hidden it or its board is private.
 */
import { AppError } from '@/server/platform/errors';
import { canReadPost, isAdmin, postState, type Viewer } from './visibility';
import { DocumentSchema, type ContentDocument } from '@/schemas/content';
import { parseJsonColumn } from '@/server/platform/db';

export interface EditablePost {
	postId: number;
	boardId: number;
	subjectId: number | null;
	title: string;
	content: ContentDocument;
	isPrivate: boolean;
	isNotice: boolean;
	version: number;
	authorId: number;
}

interface EditableRow {
	id: number;
	board_id: number;
	subject_id: number | null;
	member_id: number;
	title: string;
	content: string;
	is_private: number;
	is_notice: number;
	version: number;
	deleted_at: number | null;
	hidden_by_admin: number;
	board_public: number;
}

/**
 * The post `viewer` may edit.
 * @throws AppError PostNotFound (none in this channel, or deleted), LoginRequired (a guest),
 *   Forbidden (neither the author nor an administrator, or a post the author may no longer read)
 */
export async function getEditablePost(db: D1Database, channelId: number, postId: number, viewer: Viewer): Promise<EditablePost> {
	if (viewer.kind !== 'member') throw new AppError('LoginRequired');
	const row = await db
		.prepare(
			`SELECT p.id, p.board_id, p.subject_id, p.member_id, p.title, p.content, p.is_private, p.is_notice, p.version,
				p.deleted_at, p.hidden_by_admin, b.is_public AS board_public
			 FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = ?1 AND p.channel_id = ?2`,
		)
		.bind(postId, channelId)
		.first<EditableRow>();
	if (!row || row.deleted_at !== null) throw new AppError('PostNotFound');
	const state = postState({ deletedAt: row.deleted_at, hiddenByAdmin: row.hidden_by_admin === 1, boardPublic: row.board_public === 1, isPrivate: row.is_private === 1 });
	if ((row.member_id !== viewer.memberId && !isAdmin(viewer)) || !canReadPost(state, row.member_id, viewer)) throw new AppError('Forbidden');
	return {
		postId: row.id,
		boardId: row.board_id,
		subjectId: row.subject_id,
		title: row.title,
		content: DocumentSchema.parse(parseJsonColumn(row.content, 'posts.content')),
		isPrivate: row.is_private === 1,
		isNotice: row.is_notice === 1,
		version: row.version,
		authorId: row.member_id,
	};
}
