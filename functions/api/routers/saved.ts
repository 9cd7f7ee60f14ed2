/**
 * A member's save of a post (/v1/{domain}/{slug}/posts/{postId}/save): PUT saves, DELETE takes it
 * off the member's saved posts (both idempotent); each answers `{ saved }`. The rules live in
 * src/server/saved/saved.ts; the list is My Page's Saved tab, read by the page itself. A save moves
 * no content version: nobody else sees it.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { savePost, unsavePost } from '@/server/saved/saved';
import { IdSchema } from '@/schemas/params';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { sessionInBatch, sessionWriter } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv } from '@functions/api/validate';
import { noBody } from '@functions/api/routers/likes';

const PostParamSchema = z.object({ postId: IdSchema });

const SAVE = '/posts/:postId/save';

export const savedRouter = new Hono<ApiEnv>()
	// One round trip when accepted, as a like: the session is read in the write's own batch.
	.put(SAVE, sessionInBatch, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('save'), noBody, async (c) => {
		const now = Date.now();
		return c.json(ok({ content: await savePost(c.var.db, c.var.channel.id, sessionWriter(c, now), c.req.valid('param').postId, now) }));
	})
	.delete(SAVE, sessionInBatch, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('save'), noBody, async (c) => {
		const now = Date.now();
		return c.json(ok({ content: await unsavePost(c.var.db, c.var.channel.id, sessionWriter(c, now), c.req.valid('param').postId, now) }));
	})
	.on(['GET', 'POST', 'PATCH'], SAVE, methodNotAllowed);
