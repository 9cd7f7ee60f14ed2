/**
 * GET posts/{postId}/revisions and posts/{postId}/comments/{commentId}/revisions: the earlier
 * versions of a post or comment, newest first (src/server/revisions/revisions.ts), for whoever may
 * read it; a hidden one's for administrators. Never kept by the edge cache (not a route of
 * functions/shell/cache-routes.ts: docs/reference/edge-cache.md), and each read that reaches D1
 * counts against the `postRead` rate limit of the address, as the post's own reads do.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { listRevisions } from '@/server/revisions/revisions';
import { viewerOf } from '@/server/visibility/visibility';
import { ok } from '@/server/platform/envelope';
import { IdSchema } from '@/schemas/params';
import { CommentParamSchema } from '@/schemas/comment';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv } from '@functions/api/validate';

const PostParamSchema = z.object({ postId: IdSchema });

const POST_REVISIONS = '/posts/:postId/revisions';
const COMMENT_REVISIONS = '/posts/:postId/comments/:commentId/revisions';

export const revisionsRouter = new Hono<ApiEnv>()
	.get(POST_REVISIONS, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('postRead'), async (c) => {
		const { postId } = c.req.valid('param');
		return c.json(ok({ content: { revisions: await listRevisions(c.var.db, c.var.channel.id, viewerOf(c.var.session), postId, null) } }));
	})
	.get(COMMENT_REVISIONS, zv('param', CommentParamSchema), zv('query', NoQuerySchema), rateLimit('postRead'), async (c) => {
		const { postId, commentId } = c.req.valid('param');
		return c.json(ok({ content: { revisions: await listRevisions(c.var.db, c.var.channel.id, viewerOf(c.var.session), postId, commentId) } }));
	})
	.on(['POST', 'PUT', 'PATCH', 'DELETE'], [POST_REVISIONS, COMMENT_REVISIONS], methodNotAllowed);
