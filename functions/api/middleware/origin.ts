/**
 * Refuses a state-changing request that another site sent: the Origin header (or, without one,
 * Sec-Fetch-Site) must name this site, SITE_ORIGIN when the deployment sets it (the request's own
 * origin otherwise). GET and HEAD pass.
 */
import { createMiddleware } from 'hono/factory';
import { AppError } from '@/server/platform/errors';
import { siteOrigin } from '@/server/platform/site-origin';

export const originCheck = createMiddleware(async (c, next) => {
	if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
	const origin = c.req.header('origin');
	const site = c.req.header('sec-fetch-site');
	const own = siteOrigin(c.req.url);
	const allowed = origin ? origin === own : site === 'same-origin';
	if (!allowed) throw new AppError('OriginRejected');
	return next();
});
