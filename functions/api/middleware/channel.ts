/** Resolves /…/{domain}/{slug}/ to a channel, or answers ChannelNotFound. */
import { createMiddleware } from 'hono/factory';
import { env } from 'cloudflare:workers';
import { database } from '@/server/platform/database';
import type { ApiEnv } from '@functions/api/context';
import { getChannel } from '@/server/channels/channels';
import { ChannelPathSchema } from '@/schemas/params';
import { parseInput } from '@functions/api/validate';

export const channelMiddleware = createMiddleware<ApiEnv>(async (c, next) => {
	const { domain, slug } = parseInput(ChannelPathSchema, { domain: c.req.param('domain'), slug: c.req.param('slug') }, 'path');
	const db = database(env.DB);
	c.set('db', db);
	c.set('channel', await getChannel(db, domain, slug));
	await next();
});
