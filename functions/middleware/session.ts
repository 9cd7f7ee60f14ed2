/**
 * Resolves the channel's session cookie into `c.var.session`, and clears a cookie whose session
 * has ended. `requireMember` is the guard of member actions.
 */
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { ApiEnv } from '@functions/context';
import { requestSession } from '@/server/sign-in/request-session';
import type { SessionMember, SessionState } from '@/server/sign-in/sessions';
import { AppError } from '@/server/platform/errors';

export const sessionMiddleware = createMiddleware<ApiEnv>(async (c, next) => {
	const { session, headers } = await requestSession(c.var.db, c.var.channel, c.req.raw);
	c.set('session', session);
	for (const [name, value] of headers) c.header(name, value, { append: name === 'Set-Cookie' });
	await next();
});

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
			return new AppError('Banned', undefined, { ban: session.ban });
	}
}

/** The signed-in member, or the error of SPEC §8 for everyone else (a banned member included). */
export function requireMember(c: Context<ApiEnv>): SessionMember {
	const session = c.var.session;
	if (session.kind !== 'member') throw sessionError(session);
	return session.member;
}
