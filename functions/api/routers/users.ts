/**
 * GET users/{userId} and users/{userId}/posts: a member's public profile and visible posts, each
 * one round trip (src/server/members/profiles.ts, whose reads the profile page shares). Each read
 * that reaches D1 counts against the `profile` rate limit (a guest's edge-cache hit never gets here).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { getMemberPosts, getProfile } from '@/server/members/profiles';
import { ok } from '@/server/platform/envelope';
import { IdSchema, PageSchema } from '@/schemas/params';
import { NoQuerySchema, zv } from '@functions/api/validate';
import { rateLimit } from '@functions/api/middleware/rate-limit';

const UserParamSchema = z.object({ userId: IdSchema });
const PageQuerySchema = z.strictObject({ page: PageSchema.default(1) });

export const usersRouter = new Hono<ApiEnv>()
	.get('/users/:userId', zv('param', UserParamSchema), zv('query', NoQuerySchema), rateLimit('profile'), async (c) => {
		return c.json(ok({ content: await getProfile(c.var.db, c.var.channel.id, c.req.valid('param').userId) }));
	})
	.get('/users/:userId/posts', zv('param', UserParamSchema), zv('query', PageQuerySchema), rateLimit('profile'), async (c) => {
		return c.json(ok({ content: await getMemberPosts(c.var.db, c.var.channel.id, c.req.valid('param').userId, c.req.valid('query').page) }));
	});
