/**
 * The one test of a member's role in a channel: whether a member (a session's, a row's, the
 * browser's session store) is one of the channel's administrators. Server and browser alike ask
 * here; ESLint refuses `role === 'ADMIN'` spelled anywhere else, and a role's type spelled anywhere but Role.
 */

/** A member's role in a community: an administrator moderates it (the admin API). */
export type Role = 'MEMBER' | 'ADMIN';

/** Whether `member` is an administrator of the channel. */
export function isAdmin(member: { role?: string | undefined }): boolean {
	return member.role === 'ADMIN';
}
