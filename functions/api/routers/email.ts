/**
 * A member's email for replies and mentions (/v1/{domain}/{slug}/notifications/email;
 * docs/reference/notifications.md#email):
 *
 * - GET: `{ available, address, pending }`: whether the community sends email (a mailer and
 *   SITE_ORIGIN), the confirmed address (null: off) and an address waiting for its confirmation;
 * - PUT `{ address }`: stores it as pending and sends it a confirmation link (at most 3 a day);
 * - DELETE: turns email off (no address, nothing pending).
 *
 * The links in the emails (confirm, unsubscribe) are pages, not this API: functions/callbacks/email-links.ts
 * and src/pages/[domain]/[slug]/email/.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { env } from 'cloudflare:workers';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv, zvJson } from '@functions/api/validate';
import { noBody } from '@functions/api/routers/likes';
import { EMAIL_FIELDS } from '@functions/api/input-codes';
import { ADDRESS_MAX, emailSetting, emailSetupFromEnv, setNotificationEmail, turnOffEmail } from '@/server/notifications/email';

/** The address as typed; email.ts says whether it is one we send to. */
const AddressSchema = z.strictObject({
	address: z
		.string()
		.min(1)
		.max(ADDRESS_MAX + 64),
});

const EMAIL = '/notifications/email';

export const emailRouter = new Hono<ApiEnv>()
	.get(EMAIL, zv('query', NoQuerySchema), rateLimit('notifications'), async (c) => {
		const member = requireMember(c);
		const setting = await emailSetting(c.var.db, member.userId);
		return c.json(ok({ content: { available: emailSetupFromEnv(env) !== null, ...setting } }));
	})
	.put(EMAIL, zv('query', NoQuerySchema), rateLimit('notificationChange'), zvJson(AddressSchema, EMAIL_FIELDS), async (c) => {
		const member = requireMember(c);
		const setting = await setNotificationEmail(
			c.var.db,
			c.var.channel,
			member.userId,
			c.req.valid('json').address,
			emailSetupFromEnv(env),
			Date.now(),
		);
		return c.json(ok({ content: { available: true, ...setting } }));
	})
	.delete(EMAIL, zv('query', NoQuerySchema), rateLimit('notificationChange'), noBody, async (c) => {
		const member = requireMember(c);
		const setting = await turnOffEmail(c.var.db, member.userId);
		return c.json(ok({ content: { available: emailSetupFromEnv(env) !== null, ...setting } }));
	})
	.on(['POST', 'PATCH'], EMAIL, methodNotAllowed);
