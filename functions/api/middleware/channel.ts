/**
 * Resolves /…/{domain}/{slug}/ to a channel and the database that holds it (community.ts), or
 * answers ChannelNotFound; a write while the community moves between databases is answered
 * CommunityMoving (503, Retry-After), from the channel's row, or from the check every statement of
 * the write carries (src/server/databases/write-guard.ts) when the row predates the move's mark.
 * Every API route passes
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
import { onD1Session } from '@/server/platform/database';
import { handsOutBookmark, requestKind } from '@/server/platform/d1-session';
import type { ApiEnv } from '@functions/api/context';
import { forgetChannel } from '@/server/channels/channels';
import { getCommunity, refuseWritesWhileMoving } from '@/server/channels/community';
import { ChannelPathSchema } from '@/schemas/params';
import { parseInput } from '@functions/api/validate';
import { communityWrites } from '@/server/databases/write-guard';

export const channelMiddleware = createMiddleware<ApiEnv>(async (c, next) => {
	const answered = await onD1Session(c.req.raw, async () => {
		const { domain, slug } = parseInput(ChannelPathSchema, { domain: c.req.param('domain'), slug: c.req.param('slug') }, 'path');
		const { db, channel } = await getCommunity(domain, slug);
		const writing = requestKind(c.req.raw) === 'write';
		if (writing) refuseWritesWhileMoving(channel);
		// A write's statements carry the move's check too: the row read here may predate the mark.
		c.set('db', writing ? communityWrites(db, channel) : db);
		c.set('channel', channel);
		await next();
		if (c.res.ok && handsOutBookmark(c.req.raw)) forgetChannel(domain, slug);
		return c.res;
	});
	if (answered !== c.res) c.res = answered;
});
