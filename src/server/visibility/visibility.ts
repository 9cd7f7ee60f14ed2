/**
 * Who may read what: the one home of the rule. Every read of a board's posts, a post or a comment
 * goes through it, on pages and in the API alike (profiles, My Page, and later search, comments
 * and the admin area too).
 *
 * - A public board's posts are listed for everyone; a private board's only for administrators.
 * - A post is read in full while it is visible: not deleted, not hidden by an administrator, not
 *   private, in a public board. Otherwise a reader gets only its state (docs/reference/product-rules.md#states) and its board,
 *   never its title, author, dates or counts. Two readers see more: the author reads their own
 *   private post, and an administrator reads hidden and private posts and the posts of private
 *   boards, which is what moderation needs. Nobody reads a deleted post.
 * - A comment is read in full while it is not deleted and not hidden; a hidden one is read in full
 *   by administrators only. Otherwise it keeps its place (and its replies) with its state alone.
 * - Lists (profiles, My Page, search) show what a member may read: visible posts, plus the
 *   member's own private posts on their My Page; never posts of private boards (docs/reference/product-rules.md#roles).
 */
import { isAdmin } from '@/lib/roles';
import type { SessionMember, SessionState } from '@/server/sign-in/sessions';

export type Viewer = { kind: 'guest' } | { kind: 'member'; memberId: number; admin: boolean };

export const GUEST: Viewer = { kind: 'guest' };

/**
 * The reader behind a session. A banned member reads as a member without a role (the ban dialog
 * covers their pages); an ended session reads as a guest.
 */
export function viewerOf(session: SessionState): Viewer {
	if (session.kind === 'member') return memberViewer(session.member);
	if (session.kind === 'banned') return { kind: 'member', memberId: session.member.userId, admin: false };
	return GUEST;
}

/** The reader a signed-in member is, for services that act for one (writing, likes, reports). */
export function memberViewer(member: SessionMember): Viewer {
	return { kind: 'member', memberId: member.userId, admin: isAdmin(member) };
}

/** Whether the reader is an administrator (the viewer's side of isAdmin). */
export function isAdminViewer(viewer: Viewer): boolean {
	return viewer.kind === 'member' && viewer.admin;
}

/** Whether the reader may list a board's posts. */
export function canReadBoard(board: { publicFlag: 'Y' | 'N' }, viewer: Viewer): boolean {
	return board.publicFlag === 'Y' || isAdminViewer(viewer);
}

/** The states of a post (docs/reference/product-rules.md#states), in the order they win when several hold. */
export type PostState = 'VISIBLE' | 'DELETED' | 'HIDDEN_BY_ADMIN' | 'BOARD_PRIVATE' | 'PRIVATE';

export interface PostStateFacts {
	deletedAt: number | null;
	hiddenByAdmin: boolean;
	boardPublic: boolean;
	isPrivate: boolean;
}

/** The post row's columns that decide its state: deleted_at, hidden_by_admin, is_private and its board's is_public. */
export interface PostStateColumns {
	deleted_at: number | null;
	hidden_by_admin: number;
	is_private: number;
	board_public: number;
}

/** The state of a post read with PostStateColumns. */
export function postStateOfRow(row: PostStateColumns): PostState {
	return postState({
		deletedAt: row.deleted_at,
		hiddenByAdmin: row.hidden_by_admin === 1,
		boardPublic: row.board_public === 1,
		isPrivate: row.is_private === 1,
	});
}

export function postState(facts: PostStateFacts): PostState {
	if (facts.deletedAt !== null) return 'DELETED';
	if (facts.hiddenByAdmin) return 'HIDDEN_BY_ADMIN';
	if (!facts.boardPublic) return 'BOARD_PRIVATE';
	if (facts.isPrivate) return 'PRIVATE';
	return 'VISIBLE';
}

/** Whether the reader may read the post in full, given its state and its author. */
export function canReadPost(state: PostState, authorId: number, viewer: Viewer): boolean {
	switch (state) {
		case 'VISIBLE':
			return true;
		case 'DELETED':
			return false;
		case 'PRIVATE':
			return isAdminViewer(viewer) || (viewer.kind === 'member' && viewer.memberId === authorId);
		case 'HIDDEN_BY_ADMIN':
		case 'BOARD_PRIVATE':
			return isAdminViewer(viewer);
	}
}

export type CommentState = 'VISIBLE' | 'DELETED' | 'HIDDEN_BY_ADMIN';

export function commentState(facts: { deletedAt: number | null; hiddenByAdmin: boolean }): CommentState {
	if (facts.deletedAt !== null) return 'DELETED';
	return facts.hiddenByAdmin ? 'HIDDEN_BY_ADMIN' : 'VISIBLE';
}

/** Whether the reader may read a comment (of a post they may read) in full. */
export function canReadComment(state: CommentState, viewer: Viewer): boolean {
	return state === 'VISIBLE' || (state === 'HIDDEN_BY_ADMIN' && isAdminViewer(viewer));
}

/**
 * SQL over a post `p` joined with its board `b`: the post is one a member may find in a list.
 * `memberParam` is the SQL of the member's id (for their own private posts): the bound parameter
 * holding it, or a session's (src/server/sign-in/member-ref.ts); or `NULL` for what everyone may see.
 */
export function listablePostSql(memberParam: string): string {
	return `p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND b.is_public = 1 AND (p.is_private = 0 OR p.member_id = ${memberParam})`;
}

/**
 * SQL over a post `p` joined with its board `b`: canReadPost for a member, as one expression, so
 * that an action's batch checks the rule itself inside its transaction (no read before it).
 * `memberParam` holds the member's id and `adminParam` 1 for an administrator, else 0.
 * tests/workers/visibility-sql.test.ts proves it equal to canReadPost for every state and reader.
 */
export function readablePostSql(memberParam: `?${number}`, adminParam: `?${number}`): string {
	return `p.deleted_at IS NULL AND (${adminParam} = 1 OR (p.hidden_by_admin = 0 AND b.is_public = 1 AND (p.is_private = 0 OR p.member_id = ${memberParam})))`;
}

/** SQL over a comment `c`: the comment shows its text in lists (not deleted, not hidden). */
export const LISTABLE_COMMENT_SQL = 'c.deleted_at IS NULL AND c.hidden_by_admin = 0';
