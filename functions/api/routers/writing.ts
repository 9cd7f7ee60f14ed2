/**
 * Members write (/v1/{domain}/{slug}): POST posts, PUT posts/{postId}, DELETE posts/{postId}. The
 * rules (who writes where, lists, versions) live in src/server/posts/writing.ts.
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { createPost, deletePost, editPost } from '@/server/posts/writing';
import { ok } from '@/server/platform/envelope';
import { forgetChannel } from '@/server/channels/channels';
import { IdSchema } from '@/schemas/params';
import { CreatePostSchema, EditPostSchema } from '@/schemas/post-write';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv, zvJson } from '@functions/api/validate';
import { POST_FIELDS } from '@functions/api/input-codes';
import { turnstileConfig, verifyChallenge } from '@/server/spam/turnstile';

const PostParamSchema = z.object({ postId: IdSchema });

/**
 * Every write here bumps the channel's content version: this isolate reads it again at once. On
 * the three handlers themselves, not as a middleware on /posts/*, which other routers share.
 */
const forgetChannelAfterWrite = createMiddleware<ApiEnv>(async (c, next) => {
	await next();
	if (c.res.ok) forgetChannel(c.var.channel.domain, c.var.channel.slug);
});

export const writingRouter = new Hono<ApiEnv>()
	.post('/posts', forgetChannelAfterWrite, zv('query', NoQuerySchema), rateLimit('post'), zvJson(CreatePostSchema, POST_FIELDS), async (c) => {
		const member = requireMember(c);
		const input = c.req.valid('json');
		const turnstile = turnstileConfig();
		// A new member's post passes the challenge (createPost asks only for a new member's).
		const verify = turnstile && (() => verifyChallenge(turnstile, input.challengeToken, 'post', c.req.header('cf-connecting-ip') ?? null));
		const { postId } = await createPost(c.var.db, c.var.channel.id, member, input, Date.now(), {
			limits: c.var.channel.newMemberLimits,
			verifyChallenge: verify,
		});
		return c.json(ok({ content: { postId } }));
	})
	.put(
		'/posts/:postId',
		forgetChannelAfterWrite,
		zv('param', PostParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('post'),
		zvJson(EditPostSchema, POST_FIELDS),
		async (c) => {
			const member = requireMember(c);
			const edited = await editPost(
				c.var.db,
				c.var.channel.id,
				member,
				c.req.valid('param').postId,
				c.req.valid('json'),
				Date.now(),
				c.var.channel.newMemberLimits,
			);
			return c.json(ok({ content: edited }));
		},
	)
	.delete('/posts/:postId', forgetChannelAfterWrite, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('post'), async (c) => {
		const member = requireMember(c);
		await deletePost(c.var.db, c.var.channel.id, member, c.req.valid('param').postId, Date.now());
		return c.json(ok({ content: {} }));
	})
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], '/posts', methodNotAllowed)
	.on(['GET', 'POST', 'PATCH'], '/posts/:postId', methodNotAllowed);
