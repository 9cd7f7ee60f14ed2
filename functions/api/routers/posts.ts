/**
 * GET posts/{postId}, posts/{postId}/comments (a page in thread order, or `?sort=best` in the Best
 * order; `?after=` the item it follows) and POST posts/{postId}/views (the view beacon). What a reader gets of a post or
 * comment is decided by src/server/visibility/visibility.ts. Each read that reaches D1 counts
 * against the `postRead` rate limit of the address (a guest's edge-cache hit never gets here), and
 * a refused `after` (no such comment, or a post the reader may not read) is answered `no-store`,
 * so that the edge cache keeps only the post's own comments' ids in its keys. A signed-in reader's
 * page of comments says which they like and reported (`liked`, `reported`), read in its one query.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { getPost } from '@/server/posts/detail';
import { listComments } from '@/server/comments/pages';
import { viewerOf } from '@/server/visibility/visibility';
import { countView } from '@/server/posts/views';
import { ok } from '@/server/platform/envelope';
import { IdSchema } from '@/schemas/params';
import { CommentPageQuerySchema } from '@/schemas/comment';
import { NoQuerySchema, zv } from '@functions/api/validate';
import { rateLimit } from '@functions/api/middleware/rate-limit';

const PostParamSchema = z.object({ postId: IdSchema });

export const postsRouter = new Hono<ApiEnv>()
	.get('/posts/:postId', zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('postRead'), async (c) => {
		const { postId } = c.req.valid('param');
		return c.json(ok({ content: await getPost(c.var.db, c.var.channel.id, postId, viewerOf(c.var.session)) }));
	})
	.get('/posts/:postId/comments', zv('param', PostParamSchema), zv('query', CommentPageQuerySchema), rateLimit('postRead'), async (c) => {
		const { postId } = c.req.valid('param');
		const { after, sort } = c.req.valid('query');
		const { session } = c.var;
		// A member's (or a banned member's) own likes and reports of the page's comments, in the page's query: their answer is private.
		const tokenHash = session.kind === 'member' || session.kind === 'banned' ? session.tokenHash : null;
		const content = await listComments(c.var.db, c.var.channel.id, postId, viewerOf(session), after ?? null, sort, tokenHash).catch(
			(error: unknown) => {
				if (after !== undefined) c.header('Cache-Control', 'no-store');
				throw error;
			},
		);
		return c.json(ok({ content }));
	})
	.post('/posts/:postId/views', zv('param', PostParamSchema), rateLimit('view'), (c) => {
		countView(c.var.db, c.var.channel.id, c.req.valid('param').postId);
		return c.body(null, 204);
	});
