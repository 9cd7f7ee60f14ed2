/**
 * GET posts/{postId}, posts/{postId}/comments and POST posts/{postId}/views (the view beacon). What
 * a reader gets of a post or comment is decided by src/server/posts/visibility.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/context';
import { getPost, getPostWithComments } from '@/server/posts/detail';
import { viewerOf } from '@/server/posts/visibility';
import { countView } from '@/server/posts/views';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { IdSchema } from '@/schemas/params';
import { NoQuerySchema, zv } from '@functions/validate';
import { rateLimit } from '@functions/middleware/rate-limit';

const PostParamSchema = z.object({ postId: IdSchema });

export const postsRouter = new Hono<ApiEnv>()
	.get('/posts/:postId', zv('param', PostParamSchema), zv('query', NoQuerySchema), async (c) => {
		const { postId } = c.req.valid('param');
		return c.json(ok({ content: await getPost(c.var.db, c.var.channel.id, postId, viewerOf(c.var.session)) }));
	})
	.get('/posts/:postId/comments', zv('param', PostParamSchema), zv('query', NoQuerySchema), async (c) => {
		const { postId } = c.req.valid('param');
		const { post, comments } = await getPostWithComments(c.var.db, c.var.channel.id, postId, viewerOf(c.var.session));
		if (!post.readable) throw new AppError('PostNotFound');
		return c.json(ok({ content: comments }));
	})
	.post('/posts/:postId/views', zv('param', PostParamSchema), rateLimit('view'), (c) => {
		countView(c.var.db, c.var.channel.id, c.req.valid('param').postId);
		return c.body(null, 204);
	});
