/**
 * A member's server drafts (/v1/{domain}/{slug}/drafts): list, load, save, overwrite and delete
 * (src/server/drafts/drafts.ts). Reads are rate-limited too: each reads D1 for one member, and a
 * loop of them costs as much as a loop of saves.
 */
import { isAdmin } from '@/lib/roles';
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { createDraft, deleteDraft, getDraft, listDrafts, updateDraft, type DraftWriter } from '@/server/drafts/drafts';
import type { SessionMember } from '@/server/sign-in/sessions';
import { IdSchema, PageSchema } from '@/schemas/params';
import { DraftFieldsSchema } from '@/schemas/post-write';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv, zvJson } from '@functions/api/validate';
import { POST_FIELDS } from '@functions/api/input-codes';

const DraftParamSchema = z.object({ draftId: IdSchema });
const DraftsQuerySchema = z.strictObject({ page: PageSchema.default(1) });

function writerOf(member: SessionMember): DraftWriter {
	return { memberId: member.userId, admin: isAdmin(member) };
}

export const draftsRouter = new Hono<ApiEnv>()
	.get('/drafts', zv('query', DraftsQuerySchema), rateLimit('draft'), async (c) => {
		const member = requireMember(c);
		const { page } = c.req.valid('query');
		return c.json(ok({ content: await listDrafts(c.var.db, c.var.channel.id, member.userId, page) }));
	})
	.post('/drafts', zv('query', NoQuerySchema), rateLimit('draft'), zvJson(DraftFieldsSchema, POST_FIELDS), async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: await createDraft(c.var.db, c.var.channel.id, writerOf(member), c.req.valid('json')) }));
	})
	.get('/drafts/:draftId', zv('param', DraftParamSchema), zv('query', NoQuerySchema), rateLimit('draft'), async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: await getDraft(c.var.db, c.var.channel.id, member.userId, c.req.valid('param').draftId) }));
	})
	.put(
		'/drafts/:draftId',
		zv('param', DraftParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('draft'),
		zvJson(DraftFieldsSchema, POST_FIELDS),
		async (c) => {
			const member = requireMember(c);
			const { draftId } = c.req.valid('param');
			return c.json(ok({ content: await updateDraft(c.var.db, c.var.channel.id, writerOf(member), draftId, c.req.valid('json')) }));
		},
	)
	.delete('/drafts/:draftId', zv('param', DraftParamSchema), zv('query', NoQuerySchema), rateLimit('draft'), async (c) => {
		const member = requireMember(c);
		await deleteDraft(c.var.db, c.var.channel.id, member.userId, c.req.valid('param').draftId);
		return c.json(ok({ content: {} }));
	})
	.on(['PUT', 'PATCH', 'DELETE'], '/drafts', methodNotAllowed)
	.on(['POST', 'PATCH'], '/drafts/:draftId', methodNotAllowed);
