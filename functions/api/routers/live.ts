/**
 * Live threads (docs/reference/live-threads.md): GET live/posts/{postId} (public) opens a WebSocket
 * into the post's room, GET live/me (members) into the member's own. Everything is checked before
 * the upgrade and answered in the envelope when refused: the channel, the post id, whether the
 * reader may read the post (PostNotFound, as its page would), the session for live/me, the rate
 * limit of reads that reach D1, a request that is not a WebSocket upgrade (InvalidParameter), and
 * the room's bounds (LiveConnectionLimit). The socket then only ever carries the server's news.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { IdSchema } from '@/schemas/params';
import { viewerOf } from '@/server/visibility/visibility';
import { assertLivePost, connect, memberRoomName, postRoomName } from '@/server/live/rooms';
import { NoQuerySchema, zv } from '@functions/api/validate';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { requireMember } from '@functions/api/middleware/session';

const PostParamSchema = z.object({ postId: IdSchema });

export const livePostsRouter = new Hono<ApiEnv>().get(
	'/live/posts/:postId',
	zv('param', PostParamSchema),
	zv('query', NoQuerySchema),
	rateLimit('postRead'),
	async (c) => {
		const { postId } = c.req.valid('param');
		await assertLivePost(c.var.db, c.var.channel.id, postId, viewerOf(c.var.session));
		return connect(c.req.raw, postRoomName(c.var.channel.id, postId), c.req.header('cf-connecting-ip') ?? null);
	},
);

export const liveMemberRouter = new Hono<ApiEnv>().get('/live/me', zv('query', NoQuerySchema), rateLimit('postRead'), async (c) => {
	const member = requireMember(c);
	return connect(c.req.raw, memberRoomName(c.var.channel.id, member.userId), c.req.header('cf-connecting-ip') ?? null);
});
