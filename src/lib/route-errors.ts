/**
 * What a route does with an API failure (SPEC §8): the not-found page, the forced-login alert, the
 * ban dialog, or the generic error with Retry. Pure, so pages and islands decide the same way.
 */
import { resultCodeOf } from './api-client';
import { loginPageUrl } from './redirect';

const NOT_FOUND = new Set([-4041401, -4041402, -4041403, -4041404, -4041405, -4041406, -4041407, -4041408, -4011401]);
const FORCED_LOGIN = new Set([-4011401, -4011415, -4011411, -4011416, -4011402]);
export const BANNED = -4031452;

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
	if (code === BANNED) return { kind: 'ban', endsAt: context.banEndsAt ?? null };
	if (NOT_FOUND.has(code)) return { kind: 'not-found' };
	return { kind: 'generic' };
}

/** In the post area -4011411 goes to the route handler; every other failure is "post not found". */
export function postAreaAction(error: unknown): 'pass-up' | 'post-not-found' {
	return resultCodeOf(error) === -4011411 ? 'pass-up' : 'post-not-found';
}

/** Mutation failures: -4001404 and -4041405 mean the board's category is disabled. */
export function mutationErrorKind(error: unknown): 'subject-disabled' | 'generic' {
	const code = resultCodeOf(error);
	return code === -4001404 || code === -4041405 ? 'subject-disabled' : 'generic';
}
