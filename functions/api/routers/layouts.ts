/** GET /public/v1/{domain}/{slug}/layouts/{header,content,footer} (docs/reference/product-rules.md#api-calls). */
import { Hono } from 'hono';
import type { ApiEnv } from '@functions/api/context';
import { layoutContent, layoutFooter, layoutHeader } from '@/server/channels/channels';
import { ok } from '@/server/platform/envelope';
import { NoQuerySchema, zv } from '@functions/api/validate';

export const layoutsRouter = new Hono<ApiEnv>()
	.get('/header', zv('query', NoQuerySchema), (c) => c.json(ok({ content: layoutHeader(c.var.channel) })))
	.get('/content', zv('query', NoQuerySchema), (c) => c.json(ok({ content: layoutContent(c.var.channel) })))
	.get('/footer', zv('query', NoQuerySchema), (c) => c.json(ok({ content: layoutFooter(c.var.channel) })));
