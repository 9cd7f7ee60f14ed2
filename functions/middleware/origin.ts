/**
 * Refuses a state-changing request that another site sent: the Origin header (or, without one,
 * Sec-Fetch-Site) must name this site. GET and HEAD pass.
 */
import { createMiddleware } from 'hono/factory';
import { AppError } from '@/server/platform/errors';

export const originCheck = createMiddleware(async (c, next) => {
	if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
	const origin = c.req.header('origin');
	const site = c.req.header('sec-fetch-site');
	const own = new URL(c.req.url).origin;
	const allowed = origin ? origin === own : site === 'same-origin';
	if (!allowed) throw new AppError('OriginRejected');
	return next();
});
