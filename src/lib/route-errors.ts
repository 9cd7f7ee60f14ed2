/**
 * What a route does with an API failure (docs/reference/product-rules.md#errors-and-texts): the not-found page, the forced-login alert, the
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
	TooManyRequests,
	UserNotFound,
} from './result-codes';

const NOT_FOUND = new Set<number>(
	[ChannelNotFound, BoardNotFound, PostNotFound, UserNotFound, SubjectNotFound, CommentNotFound, DraftNotFound, RouteNotFound, LoginRequired].map(
		(def) => def.code,
	),
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
export function routeErrorAction(
	error: unknown,
	context: { channelBase?: string; currentPath: string; banEndsAt?: number | null },
): RouteErrorAction {
	const code = resultCodeOf(error);
	if (code === undefined) return { kind: 'generic' };
	if (context.channelBase && FORCED_LOGIN.has(code))
		return { kind: 'forced-login', loginUrl: loginPageUrl(context.channelBase, context.currentPath) };
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

/** What a member action's failure means whatever the action: the forced-login alert, the ban dialog (until its end), or too many requests. */
export type MemberFailure = { kind: 'forced-login'; loginUrl: string } | { kind: 'ban'; endsAt: number | null } | { kind: 'too-many' };

/**
 * The meaning every member action's failure shares (the islands that write: posts and drafts,
 * comments), or null for a failure whose meaning is the action's own (its fields, or the generic
 * alert). `returnPath` is where login comes back to.
 */
export function memberFailure(error: unknown, channelBase: string, returnPath: string): MemberFailure | null {
	const endsAt = (error as { body?: { ban?: { endsAt?: unknown } } } | null)?.body?.ban?.endsAt;
	const route = routeErrorAction(error, { channelBase, currentPath: returnPath, banEndsAt: typeof endsAt === 'number' ? endsAt : null });
	if (route.kind === 'forced-login' || route.kind === 'ban') return route;
	return resultCodeOf(error) === TooManyRequests.code ? { kind: 'too-many' } : null;
}
