/**
 * A member's like of a post (/v1/{domain}/{slug}/posts/{postId}/like): PUT likes, DELETE unlikes
 * (both idempotent), GET reads the member's state; each answers `{ liked, likeCount }`. The rules
 * live in src/server/likes/likes.ts. Reads are rate-limited too, as drafts are: each reads D1 for
 * one member. A like does not bump the channel's content version (see the service).
 * A comment's like (…/posts/{postId}/comments/{commentId}/like, src/server/likes/comment-likes.ts):
 * PUT and DELETE alike, under the same `like` rate limit, answering `{ liked, likeCount }`.
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { getLikeState, likePost, unlikePost } from '@/server/likes/likes';
import { likeComment, unlikeComment } from '@/server/likes/comment-likes';
import { CommentParamSchema } from '@/schemas/comment';
import { IdSchema } from '@/schemas/params';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember, sessionInBatch, sessionWriter } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv } from '@functions/api/validate';

const PostParamSchema = z.object({ postId: IdSchema });

/**
 * These requests carry nothing in a body: one that has a body is refused (InvalidParameter), so
 * that a client sending, say, `{ "liked": false }` to PUT learns it is not read, rather than
 * liking. An empty body (Content-Length: 0, as fetch sends for a bodiless PUT) is fine.
 */
export const noBody = createMiddleware<ApiEnv>(async (c, next) => {
	if (c.req.raw.body !== null && (await c.req.text()).length > 0) {
		throw new AppError('InvalidParameter', 'The request has an invalid parameter: this request takes no body.');
	}
	await next();
});

const LIKE = '/posts/:postId/like';
const COMMENT_LIKE = '/posts/:postId/comments/:commentId/like';

export const likesRouter = new Hono<ApiEnv>()
	.get(LIKE, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('like'), noBody, async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: await getLikeState(c.var.db, c.var.channel.id, member, c.req.valid('param').postId) }));
	})
	// A like and an unlike are one round trip when accepted: the session is read in their own batch.
	.put(LIKE, sessionInBatch, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('like'), noBody, async (c) => {
		const now = Date.now();
		return c.json(ok({ content: await likePost(c.var.db, c.var.channel.id, sessionWriter(c, now), c.req.valid('param').postId, now) }));
	})
	.delete(LIKE, sessionInBatch, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('like'), noBody, async (c) => {
		const now = Date.now();
		return c.json(ok({ content: await unlikePost(c.var.db, c.var.channel.id, sessionWriter(c, now), c.req.valid('param').postId, now) }));
	})
	.on(['POST', 'PATCH'], LIKE, methodNotAllowed)
	// A comment's like: one round trip when accepted, as a post's.
	.put(COMMENT_LIKE, sessionInBatch, zv('param', CommentParamSchema), zv('query', NoQuerySchema), rateLimit('like'), noBody, async (c) => {
		const now = Date.now();
		return c.json(ok({ content: await likeComment(c.var.db, c.var.channel.id, sessionWriter(c, now), c.req.valid('param'), now) }));
	})
	.delete(COMMENT_LIKE, sessionInBatch, zv('param', CommentParamSchema), zv('query', NoQuerySchema), rateLimit('like'), noBody, async (c) => {
		const now = Date.now();
		return c.json(ok({ content: await unlikeComment(c.var.db, c.var.channel.id, sessionWriter(c, now), c.req.valid('param'), now) }));
	})
	.on(['GET', 'POST', 'PATCH'], COMMENT_LIKE, methodNotAllowed);
