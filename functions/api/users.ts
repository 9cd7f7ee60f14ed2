/** GET users/{userId} and users/{userId}/posts: a member's public profile and visible posts. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/context';
import { getProfile, listMemberPosts } from '@/server/members/profiles';
import { ok } from '@/server/platform/envelope';
import { IdSchema, PageSchema } from '@/schemas/params';
import { NoQuerySchema, parseInput } from '@functions/validate';

const PageQuerySchema = z.strictObject({ page: PageSchema.default(1) });

export const usersRouter = new Hono<ApiEnv>()
	.get('/users/:userId', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		const userId = parseInput(IdSchema, c.req.param('userId'), 'userId');
		return c.json(ok({ content: await getProfile(c.var.db, c.var.channel.id, userId) }));
	})
	.get('/users/:userId/posts', async (c) => {
		const { page } = parseInput(PageQuerySchema, c.req.query(), 'query');
		const userId = parseInput(IdSchema, c.req.param('userId'), 'userId');
		const profile = await getProfile(c.var.db, c.var.channel.id, userId);
		return c.json(ok({ content: await listMemberPosts(c.var.db, c.var.channel.id, profile, page) }));
	});
