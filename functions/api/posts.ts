/** GET posts/{postId}, posts/{postId}/comments and POST posts/{postId}/views (the view beacon). */
import { Hono } from 'hono';
import type { ApiEnv } from '@functions/context';
import { getPost, listComments } from '@/server/posts/detail';
import { countView } from '@/server/posts/views';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { IdSchema } from '@/schemas/params';
import { NoQuerySchema, parseInput } from '@functions/validate';


export const postsRouter = new Hono<ApiEnv>()
	.get('/posts/:postId', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		const postId = parseInput(IdSchema, c.req.param('postId'), 'postId');
		return c.json(ok({ content: await getPost(c.var.db, c.var.channel.id, postId) }));
	})
	.get('/posts/:postId/comments', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		const postId = parseInput(IdSchema, c.req.param('postId'), 'postId');
		const post = await getPost(c.var.db, c.var.channel.id, postId);
		if (post.state !== 'VISIBLE') throw new AppError('PostNotFound');
		return c.json(ok({ content: await listComments(c.var.db, c.var.channel.id, postId) }));
	})
	.post('/posts/:postId/views', (c) => {
		const postId = parseInput(IdSchema, c.req.param('postId'), 'postId');
		countView(c.var.db, c.var.channel.id, postId);
		return c.body(null, 204);
	});
