/**
 * POST uploads: an image for a post or draft, sent as the raw bytes of the body (not multipart).
 * The body limit (functions/api/validate.ts) refuses more than IMAGE_MAX_BYTES with ImageTooLarge
 * before it is buffered; the type is sniffed from the bytes, never taken from Content-Type.
 * Answers `{ uploadId, src, width, height }`, src being `/uploads/{key}`.
 *
 * POST uploads/{key}/thumbnail: the small variant of that upload, made by the editor in the browser
 * (raw JPEG or WebP bytes, at most 64 KB and 320 px a side, docs/reference/thumbnails.md). Only the
 * upload's own member sets it, once. Answers `{ src, width, height, size }`.
 */
import { Hono } from 'hono';
import { env } from 'cloudflare:workers';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { storeThumbnail, storeUpload } from '@/server/uploads/uploads';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv } from '@functions/api/validate';
import { z } from 'zod';

const UploadParamSchema = z.object({ key: z.string() });

export const uploadsRouter = new Hono<ApiEnv>()
	.post('/uploads', zv('query', NoQuerySchema), rateLimit('upload'), async (c) => {
		const member = requireMember(c);
		const bytes = new Uint8Array(await c.req.arrayBuffer());
		if (bytes.length === 0) throw new AppError('InvalidImage');
		const { channel, db } = c.var;
		return c.json(ok({ content: await storeUpload(db, env.UPLOADS, channel.id, member.userId, bytes, Date.now()) }));
	})
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], '/uploads', methodNotAllowed)
	.post('/uploads/:key/thumbnail', zv('param', UploadParamSchema), zv('query', NoQuerySchema), rateLimit('upload'), async (c) => {
		const member = requireMember(c);
		const bytes = new Uint8Array(await c.req.arrayBuffer());
		if (bytes.length === 0) throw new AppError('InvalidThumbnail');
		const { channel, db } = c.var;
		return c.json(ok({ content: await storeThumbnail(db, env.UPLOADS, channel.id, member.userId, c.req.valid('param').key, bytes) }));
	})
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], '/uploads/:key/thumbnail', methodNotAllowed);
