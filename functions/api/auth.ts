/** GET auth/status, oauth/providers and oauth/providers/exists (SPEC §7). */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '../context';
import { loadLayout } from '../../src/server/layout';
import { ok } from '../../src/server/envelope';
import { NoQuerySchema, parseInput } from '../validate';

const ProvidersQuerySchema = z.strictObject({ callbackUrl: z.string().max(2048).optional() });

export const authRouter = new Hono<ApiEnv>()
	// Read whole by the client: `user` is present only for a signed-in member.
	.get('/auth/status', (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		c.header('Cache-Control', 'private, no-store');
		return c.json(ok({}));
	})
	.get('/oauth/providers', async (c) => {
		parseInput(ProvidersQuerySchema, c.req.query(), 'query');
		const { providers } = await loadLayout(c.var.db, c.var.channel);
		return c.json(ok({ content: providers.map((provider) => ({ provider })) }));
	})
	.get('/oauth/providers/exists', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		const { providers } = await loadLayout(c.var.db, c.var.channel);
		return c.json(ok({ content: { exists: providers.length > 0 } }));
	});
