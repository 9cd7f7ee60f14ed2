/** GET /public/v1/{domain}/{slug}/layouts/{header,content,footer} (SPEC §7). */
import { Hono } from 'hono';
import type { ApiEnv } from '@functions/context';
import { layoutContent, layoutFooter, layoutHeader } from '@/server/channels/channels';
import { ok } from '@/server/platform/envelope';

export const layoutsRouter = new Hono<ApiEnv>()
	.get('/header', (c) => c.json(ok({ content: layoutHeader(c.var.channel) })))
	.get('/content', (c) => c.json(ok({ content: layoutContent(c.var.channel) })))
	.get('/footer', (c) => c.json(ok({ content: layoutFooter(c.var.channel) })));
