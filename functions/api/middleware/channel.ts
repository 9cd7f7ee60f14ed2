/**
 * Resolves /…/{domain}/{slug}/ to a channel, or answers ChannelNotFound. Every API route passes
 * here first: the rest of the call runs on the request's D1 session (src/server/platform/database.ts
 * `onD1Session`), which the Worker's entry has opened already, and which this opens when the API
 * is asked on its own.
 *
 * After a write that succeeded (any but the view beacon: d1-session.ts `handsOutBookmark`), this
 * isolate's copy of the channel row is dropped (`forgetChannel`), so that the edge cache's next
 * read here keys and judges its entries by the versions the write moved: a comment, a report that
 * hides at the threshold, a hide, an edit are on the next page anyone is served by this isolate
 * (docs/reference/edge-cache.md#freshness-after-a-write). A write that moved no version costs the
 * next request one read of the channel row.
 */
import { createMiddleware } from 'hono/factory';
import { env } from 'cloudflare:workers';
import { database, onD1Session } from '@/server/platform/database';
import { handsOutBookmark } from '@/server/platform/d1-session';
import type { ApiEnv } from '@functions/api/context';
import { forgetChannel, getChannel } from '@/server/channels/channels';
import { ChannelPathSchema } from '@/schemas/params';
import { parseInput } from '@functions/api/validate';

export const channelMiddleware = createMiddleware<ApiEnv>(async (c, next) => {
	const answered = await onD1Session(c.req.raw, async () => {
		const { domain, slug } = parseInput(ChannelPathSchema, { domain: c.req.param('domain'), slug: c.req.param('slug') }, 'path');
		const db = database(env.DB);
		c.set('db', db);
		c.set('channel', await getChannel(db, domain, slug));
		await next();
		if (c.res.ok && handsOutBookmark(c.req.raw)) forgetChannel(domain, slug);
		return c.res;
	});
	if (answered !== c.res) c.res = answered;
});
