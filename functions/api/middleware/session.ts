/**
 * Resolves the channel's session cookie into `c.var.session`, and clears a cookie whose session
 * has ended. `requireMember` is the guard of member actions; `callerCheck` puts the guard of every
 * route of an API before anything reads the request's input.
 */
import { isAdmin } from '@/lib/roles';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { COMPOSED_HANDLER } from 'hono/utils/constants';
import type { Context } from 'hono';
import type { ApiEnv } from '@functions/api/context';
import { requestSession, sessionBeforeRow, sessionOfRow } from '@/server/sign-in/request-session';
import type { SessionWriter } from '@/server/platform/guarded-write';
import type { BanInfo, SessionMember, SessionState } from '@/server/sign-in/sessions';
import { findSignup } from '@/server/accounts/signup';
import { readAuthCookie } from '@/server/sign-in/cookies';
import { AppError } from '@/server/platform/errors';
import { errorResponse, methodNotAllowed, routeNotFound } from '@functions/api/middleware/errors';

export const sessionMiddleware = createMiddleware<ApiEnv>(async (c, next) => {
	if (matchedRoutes(c).some((route) => isMiddleware(route.handler, sessionInBatch))) return sessionBeforeBatch(c, next);
	const { session, headers } = await requestSession(c.var.db, c.var.channel, c.req.raw);
	c.set('session', session);
	for (const [name, value] of headers) c.header(name, value, { append: name === 'Set-Cookie' });
	await next();
});

/**
 * Marks a route whose write reads its session's row in its own D1 batch
 * (src/server/platform/guarded-write.ts; the route asks `sessionWriter`): the session middleware
 * reads no row before it, so that an accepted write is one round trip. The session's refusals still
 * come first: a refusal the route makes before its batch (the path, the query, the rate limit, the
 * body) is answered only once the session, then read on its own, is a member's.
 */
export const sessionInBatch = createMiddleware<ApiEnv>(async (_c, next) => {
	await next();
});

/**
 * Whether a matched route's `handler` is `middleware`: itself, or as an app that mounts the API
 * wraps it (src/fetch.ts routes `api`, whose own error handler makes Hono wrap each of its handlers).
 */
function isMiddleware(handler: unknown, middleware: unknown): boolean {
	return handler === middleware || (handler as Record<string, unknown>)[COMPOSED_HANDLER] === middleware;
}

/** Whether the request's session is known (a `sessionInBatch` route's is not until its batch has read it). */
function sessionKnown(c: Context<ApiEnv>): boolean {
	return (c.get('session') as SessionState | undefined) !== undefined;
}

/** The session middleware of a `sessionInBatch` route. */
async function sessionBeforeBatch(c: Context<ApiEnv>, next: () => Promise<void>): Promise<void> {
	const before = await sessionBeforeRow(c.var.channel, c.req.raw, Date.now());
	for (const [name, value] of before.headers) c.header(name, value, { append: name === 'Set-Cookie' });
	if (before.session) c.set('session', before.session);
	else c.set('sessionToken', before.tokenHash);
	await next();
	if (!c.error || sessionKnown(c)) return;
	// Refused before the batch read the session: the session's own refusal, if any, is the answer.
	const { session, headers } = await requestSession(c.var.db, c.var.channel, c.req.raw);
	c.set('session', session);
	if (session.kind === 'member') return;
	for (const [name, value] of headers) if (name === 'Set-Cookie') c.header(name, value, { append: true });
	c.header('Retry-After', undefined);
	c.res = errorResponse(sessionError(session), c);
}

/**
 * The writer of a `sessionInBatch` route: the session the write's batch reads, settled from its row
 * there (its refusal thrown, its cookie cleared when it has ended, its use recorded after the answer).
 */
export function sessionWriter(c: Context<ApiEnv>, now: number): SessionWriter | SessionMember {
	const tokenHash = c.var.sessionToken;
	if (tokenHash === undefined || sessionKnown(c)) return requireMember(c);
	return {
		tokenHash,
		settle: async (row) => {
			const { session, headers } = await sessionOfRow(c.var.db, c.var.channel, c.req.raw, tokenHash, row, now);
			c.set('session', session);
			for (const [name, value] of headers) c.header(name, value, { append: name === 'Set-Cookie' });
			if (session.kind !== 'member') throw sessionError(session);
			return session.member;
		},
	};
}

/** The error for a request that has no usable session, or that of a banned member. */
export function sessionError(session: Exclude<SessionState, { kind: 'member' }>): AppError {
	switch (session.kind) {
		case 'guest':
			return new AppError('LoginRequired');
		case 'expired':
			return new AppError('SessionExpired');
		case 'revoked':
			return new AppError('SessionRevoked');
		case 'banned':
			return new AppError('Banned', bannedMessage(session.ban), { ban: session.ban });
	}
}

/** Banned's resultMessage with the ban's end (UTC, ISO 8601) or "permanently", and the reason the administrator gave. */
function bannedMessage(ban: BanInfo): string {
	const until = ban.endsAt === null ? 'permanently restricted' : `restricted until ${new Date(ban.endsAt).toISOString()}`;
	const reason = ban.reason.trim() === '' ? 'No reason was given.' : `Reason: ${ban.reason.trim()}`;
	return `Your access to this community is ${until}; you can still read it. ${reason}`;
}

/** The signed-in member, or the error of docs/reference/product-rules.md#errors-and-texts for everyone else (a banned member included). */
export function requireMember(c: Context<ApiEnv>): SessionMember {
	const session = c.var.session;
	if (session.kind !== 'member') throw sessionError(session);
	return session.member;
}

/** The session's administrator of this community. @throws AppError the session's error (a guest, a banned one), Forbidden for a member */
export function requireAdministrator(c: { var: ApiEnv['Variables'] }): SessionMember {
	const session = c.var.session;
	if (session.kind !== 'member') throw sessionError(session);
	if (!isAdmin(session.member)) throw new AppError('Forbidden');
	return session.member;
}

/**
 * Who may call a route: a signed-in member, an administrator of the community, the browser of a
 * sign-up in progress (its cookie; the sign-up is then `c.var.signup`), or anyone.
 */
export type Caller = 'member' | 'administrator' | 'signup' | 'anyone';

/** The path of the route that answers the request, or undefined for a routing answer (404, 405). */
function answeringRoute(c: Context): string | undefined {
	return matchedRoutes(c).find((route) => route.method !== 'ALL' && route.handler !== methodNotAllowed && route.handler !== routeNotFound)?.path;
}

/**
 * The order of every API: authentication, then authorisation, then the input. Put after the session
 * middleware and before the routes, this checks the caller `callerOf` names for the route (by its
 * path under /{domain}/{slug}) before any validator reads the path parameters, the query or the
 * body: a guest's request is answered LoginRequired (a banned member's with the ban, a member's on
 * an administrator's route Forbidden) however malformed it is. A path or method that no route
 * answers keeps its 404 or 405.
 */
export function callerCheck(callerOf: (routePath: string) => Caller) {
	return createMiddleware<ApiEnv>(async (c, next) => {
		const route = answeringRoute(c);
		if (route !== undefined) {
			const caller = callerOf(route.replace(/^.*?\/:domain\/:slug/, ''));
			// A sessionInBatch route's session is checked by its batch (or, refused before it, by sessionBeforeBatch).
			if (caller === 'member') {
				if (sessionKnown(c)) requireMember(c);
			} else if (caller === 'administrator') requireAdministrator(c);
			else if (caller === 'signup') {
				const { channel, db } = c.var;
				const signup = await findSignup(db, channel.id, readAuthCookie(c.req.raw, 'signup', channel.domain, channel.slug));
				if (!signup) throw new AppError('SignupExpired');
				c.set('signup', signup);
			}
		}
		await next();
	});
}
