/**
 * A member's blocks (/v1/{domain}/{slug}/me/blocks; docs/reference/blocking.md): GET lists them
 * newest first, PUT me/blocks/{userId} blocks a member and DELETE unblocks (both idempotent, each
 * answering `{ blocked }`). The rules live in src/server/members/blocks.ts. All three count against
 * the `block` rate limit, as likes count against theirs.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { blockMember, listBlocks, unblockMember } from '@/server/members/blocks';
import { IdSchema } from '@/schemas/params';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv } from '@functions/api/validate';
import { noBody } from '@functions/api/routers/likes';

const UserParamSchema = z.object({ userId: IdSchema });
const BLOCKS = '/me/blocks';
const BLOCK = '/me/blocks/:userId';

export const blocksRouter = new Hono<ApiEnv>()
	.get(BLOCKS, zv('query', NoQuerySchema), rateLimit('block'), async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: { members: await listBlocks(c.var.db, c.var.channel.id, member.userId) } }));
	})
	.put(BLOCK, zv('param', UserParamSchema), zv('query', NoQuerySchema), rateLimit('block'), noBody, async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: await blockMember(c.var.db, c.var.channel.id, member.userId, c.req.valid('param').userId, Date.now()) }));
	})
	.delete(BLOCK, zv('param', UserParamSchema), zv('query', NoQuerySchema), rateLimit('block'), noBody, async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: await unblockMember(c.var.db, c.var.channel.id, member.userId, c.req.valid('param').userId) }));
	})
	.on(['POST', 'PUT', 'PATCH', 'DELETE'], BLOCKS, methodNotAllowed)
	.on(['GET', 'POST', 'PATCH'], BLOCK, methodNotAllowed);
