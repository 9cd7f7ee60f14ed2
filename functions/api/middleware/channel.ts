/**
 * Resolves /…/{domain}/{slug}/ to a channel, or answers ChannelNotFound. Every API route passes
 * here first: the rest of the call runs on the request's D1 session (src/server/platform/database.ts
 * `onD1Session`), which the Worker's entry has opened already, and which this opens when the API
 * is asked on its own.
 */
import { createMiddleware } from 'hono/factory';
import { env } from 'cloudflare:workers';
import { database, onD1Session } from '@/server/platform/database';
import type { ApiEnv } from '@functions/api/context';
import { getChannel } from '@/server/channels/channels';
import { ChannelPathSchema } from '@/schemas/params';
import { parseInput } from '@functions/api/validate';

export const channelMiddleware = createMiddleware<ApiEnv>(async (c, next) => {
	const answered = await onD1Session(c.req.raw, async () => {
		const { domain, slug } = parseInput(ChannelPathSchema, { domain: c.req.param('domain'), slug: c.req.param('slug') }, 'path');
		const db = database(env.DB);
		c.set('db', db);
		c.set('channel', await getChannel(db, domain, slug));
		await next();
		return c.res;
	});
	if (answered !== c.res) c.res = answered;
});
