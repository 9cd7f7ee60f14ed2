/**
 * The post a member acts on (likes, comments): one of this channel they may read in full
 * (src/server/posts/visibility.ts), with the assertion that re-checks, inside the action's D1
 * batch, that its state is still the one read here, so a deletion, a hide or a move to private in
 * between refuses the action.
 */
import { AppError } from '@/server/platform/errors';
import { assertion } from '@/server/platform/batch';
import type { SessionMember } from '@/server/sign-in/sessions';
import { canReadPost, memberViewer, postStateOfRow, type PostStateColumns } from './visibility';

interface ActedPostRow extends PostStateColumns {
	member_id: number;
}

/** @throws AppError PostNotFound (not of this channel, deleted, or not readable by the member) */
export async function readablePostGuard(db: D1Database, channelId: number, member: SessionMember, postId: number): Promise<D1PreparedStatement> {
	const row = await db
		.prepare(
			`SELECT p.member_id, p.deleted_at, p.hidden_by_admin, p.is_private, b.is_public AS board_public
			 FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = ?1 AND p.channel_id = ?2`,
		)
		.bind(postId, channelId)
		.first<ActedPostRow>();
	if (!row || !canReadPost(postStateOfRow(row), row.member_id, memberViewer(member))) throw new AppError('PostNotFound');
	return assertion(
		db,
		`EXISTS (SELECT 1 FROM posts p JOIN boards b ON b.id = p.board_id
			WHERE p.id = ?1 AND p.channel_id = ?2 AND p.deleted_at IS NULL AND p.hidden_by_admin = ?3 AND p.is_private = ?4 AND b.is_public = ?5)`,
		postId,
		channelId,
		row.hidden_by_admin,
		row.is_private,
		row.board_public,
	);
}
