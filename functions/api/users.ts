/** GET users/{userId} and users/{userId}/posts: a member's public profile and visible posts. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/context';
import { getProfile, listMemberPosts } from '@/server/members/profiles';
import { ok } from '@/server/platform/envelope';
import { IdSchema, PageSchema } from '@/schemas/params';
import { NoQuerySchema, zv } from '@functions/validate';

const UserParamSchema = z.object({ userId: IdSchema });
const PageQuerySchema = z.strictObject({ page: PageSchema.default(1) });

export const usersRouter = new Hono<ApiEnv>()
	.get('/users/:userId', zv('param', UserParamSchema), zv('query', NoQuerySchema), async (c) => {
		return c.json(ok({ content: await getProfile(c.var.db, c.var.channel.id, c.req.valid('param').userId) }));
	})
	.get('/users/:userId/posts', zv('param', UserParamSchema), zv('query', PageQuerySchema), async (c) => {
		const profile = await getProfile(c.var.db, c.var.channel.id, c.req.valid('param').userId);
		return c.json(ok({ content: await listMemberPosts(c.var.db, c.var.channel.id, profile, c.req.valid('query').page) }));
	});
