/**
 * What a route does with an API failure (SPEC §8): the not-found page, the forced-login alert, the
 * ban dialog, or the generic error with Retry. Pure, so pages and islands decide the same way.
 */
import { resultCodeOf } from './api-client';
import { loginPageUrl } from './urls';
import {
	Banned,
	BoardNotFound,
	ChannelNotFound,
	CommentNotFound,
	DraftNotFound,
	IdentityRejected,
	LoginRequired,
	MembershipRequired,
	PostNotFound,
	RouteNotFound,
	SessionExpired,
	SessionRevoked,
	SubjectNotAllowed,
	SubjectNotFound,
	UserNotFound,
} from './result-codes';

const NOT_FOUND = new Set<number>(
	[ChannelNotFound, BoardNotFound, PostNotFound, UserNotFound, SubjectNotFound, CommentNotFound, DraftNotFound, RouteNotFound, LoginRequired].map((def) => def.code),
);
const FORCED_LOGIN = new Set<number>([LoginRequired, SessionRevoked, MembershipRequired, IdentityRejected, SessionExpired].map((def) => def.code));

export type RouteErrorAction =
	| { kind: 'forced-login'; loginUrl: string }
	| { kind: 'ban'; endsAt: number | null }
	| { kind: 'not-found' }
	| { kind: 'generic' };

/**
 * Decides the action for `error` on a route. With a channel, the forced-login codes win over the
 * not-found meaning -4011401 also has; without one, -4011401 is a not-found.
 */
export function routeErrorAction(error: unknown, context: { channelBase?: string; currentPath: string; banEndsAt?: number | null }): RouteErrorAction {
	const code = resultCodeOf(error);
	if (code === undefined) return { kind: 'generic' };
	if (context.channelBase && FORCED_LOGIN.has(code)) return { kind: 'forced-login', loginUrl: loginPageUrl(context.channelBase, context.currentPath) };
	if (code === Banned.code) return { kind: 'ban', endsAt: context.banEndsAt ?? null };
	if (NOT_FOUND.has(code)) return { kind: 'not-found' };
	return { kind: 'generic' };
}

/** In the post area -4011411 goes to the route handler; every other failure is "post not found". */
export function postAreaAction(error: unknown): 'pass-up' | 'post-not-found' {
	return resultCodeOf(error) === MembershipRequired.code ? 'pass-up' : 'post-not-found';
}

/** Mutation failures: -4001404 and -4041405 mean the board's category is disabled. */
export function mutationErrorKind(error: unknown): 'subject-disabled' | 'generic' {
	const code = resultCodeOf(error);
	return code === SubjectNotAllowed.code || code === SubjectNotFound.code ? 'subject-disabled' : 'generic';
}
