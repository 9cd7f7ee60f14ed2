/**
 * The rate-limit middleware of the API (src/server/platform/rate-limit.ts): put on every route
 * that writes, after the session is known, so that a member is counted as well as their address.
 */
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import { env } from 'cloudflare:workers';
import type { ApiEnv } from '@functions/api/context';
import type { SessionState } from '@/server/sign-in/sessions';
import { enforceRateLimit, limitersOf, type RateLimitedAction } from '@/server/platform/rate-limit';

/** Counts the request as `action` of its member and client IP. @throws AppError TooManyRequests */
export function checkRateLimit(c: Context<ApiEnv>, action: RateLimitedAction): Promise<void> {
	const session = c.get('session') as SessionState | undefined;
	const memberId = session?.kind === 'member' || session?.kind === 'banned' ? session.member.userId : null;
	// A route that reads its session in its write's batch counts the session, not knowing its member yet.
	const sessionToken = session === undefined ? (c.var.sessionToken ?? null) : null;
	return enforceRateLimit(limitersOf(env), action, {
		channelId: c.var.channel.id,
		memberId,
		sessionToken,
		ip: c.req.header('cf-connecting-ip') ?? null,
	});
}

export function rateLimit(action: RateLimitedAction) {
	return createMiddleware<ApiEnv>(async (c, next) => {
		await checkRateLimit(c, action);
		await next();
	});
}
