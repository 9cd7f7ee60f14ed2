/**
 * Members write comments (/v1/{domain}/{slug}/posts/{postId}/comments): POST writes a comment or a
 * reply, PATCH comments/{commentId} edits one, DELETE comments/{commentId} deletes one. The rules
 * live in src/server/comments/writing.ts; reading comments is the public API's
 * (functions/api/routers/posts.ts).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { createComment, deleteComment, editComment } from '@/server/comments/writing';
import { ok } from '@/server/platform/envelope';
import { IdSchema } from '@/schemas/params';
import { CommentParamSchema, CreateCommentSchema, EditCommentSchema } from '@/schemas/comment';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember, sessionInBatch, sessionWriter } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv, zvJson } from '@functions/api/validate';
import { COMMENT_FIELDS } from '@functions/api/input-codes';

const PostParamSchema = z.object({ postId: IdSchema });

const COMMENTS = '/posts/:postId/comments';
const COMMENT = '/posts/:postId/comments/:commentId';

export const commentsRouter = new Hono<ApiEnv>()
	// One round trip when accepted: the session is read in the comment's own batch.
	.post(
		COMMENTS,
		sessionInBatch,
		zv('param', PostParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('comment'),
		zvJson(CreateCommentSchema, COMMENT_FIELDS),
		async (c) => {
			const now = Date.now();
			const writer = sessionWriter(c, now);
			const { postId } = c.req.valid('param');
			return c.json(
				ok({ content: await createComment(c.var.db, c.var.channel.id, writer, postId, c.req.valid('json'), now, c.var.channel.newMemberLimits) }),
			);
		},
	)
	.patch(
		COMMENT,
		zv('param', CommentParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('comment'),
		zvJson(EditCommentSchema, COMMENT_FIELDS),
		async (c) => {
			const member = requireMember(c);
			const { postId, commentId } = c.req.valid('param');
			return c.json(
				ok({
					content: await editComment(
						c.var.db,
						c.var.channel.id,
						member,
						postId,
						commentId,
						c.req.valid('json'),
						Date.now(),
						c.var.channel.newMemberLimits,
					),
				}),
			);
		},
	)
	.delete(COMMENT, zv('param', CommentParamSchema), zv('query', NoQuerySchema), rateLimit('comment'), async (c) => {
		const member = requireMember(c);
		const { postId, commentId } = c.req.valid('param');
		return c.json(ok({ content: await deleteComment(c.var.db, c.var.channel.id, member, postId, commentId, Date.now()) }));
	})
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], COMMENTS, methodNotAllowed)
	.on(['GET', 'POST', 'PUT'], COMMENT, methodNotAllowed);
