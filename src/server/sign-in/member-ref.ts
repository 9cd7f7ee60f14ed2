/**
 * Whose rows a member's read is about. The API knows the member before it reads (its session came
 * first) and names them by id; a page makes its reads in its session's own round trip
 * (src/server/sign-in/request-session.ts), before the member is known, and names them in SQL by
 * the hash of the session cookie's token. Such a read may return a member's rows for a session
 * that has ended: the page looks at the session before it shows any of them.
 */
import { isAdmin } from '@/lib/roles';
import type { SessionMember } from './sessions';

/** The session a page's read is made for: the hash of its cookie's token. */
export interface SessionToken {
	tokenHash: string;
}

/** A member by id, or the member of a session. */
export type MemberRef = number | SessionToken;

/** A signed-in member, or the member of a session (who may be an administrator). */
export type ViewerRef = Pick<SessionMember, 'userId' | 'role'> | SessionToken;

function isToken(who: MemberRef | ViewerRef): who is SessionToken {
	return typeof who === 'object' && 'tokenHash' in who;
}

/** SQL for the member's id, with `param` bound to refValue(who). */
export function memberIdSql(who: MemberRef | ViewerRef, param: `?${number}`): string {
	return isToken(who) ? `(SELECT member_id FROM sessions WHERE token_hash = ${param})` : param;
}

/** What memberIdSql's parameter is bound to: the member's id, or the session's token hash. */
export function memberIdValue(who: MemberRef | ViewerRef): number | string {
	if (isToken(who)) return who.tokenHash;
	return typeof who === 'number' ? who : who.userId;
}

/** SQL that is 1 when the member is an administrator of the channel, else 0, with `param` bound to adminValue(who). */
export function adminSql(who: ViewerRef, param: `?${number}`): string {
	return isToken(who)
		? `coalesce((SELECT m.role = 'ADMIN' FROM sessions s JOIN members m ON m.id = s.member_id WHERE s.token_hash = ${param}), 0)`
		: param;
}

/** What adminSql's parameter is bound to: 1 or 0, or the session's token hash. */
export function adminValue(who: ViewerRef): number | string {
	return isToken(who) ? who.tokenHash : isAdmin(who) ? 1 : 0;
}
