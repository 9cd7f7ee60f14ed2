/**
 * A member's notifications, watches and @ suggestions (/v1/{domain}/{slug}/…; docs/reference/notifications.md):
 *
 * - GET notifications (`?before=` the cursor of the next page): a page, newest first, and the unread count;
 * - GET notifications/unread: the count alone (the bell);
 * - POST notifications/{notificationId}/read: opens one; POST notifications/read-all: marks all read;
 * - GET and PUT notifications/settings: each kind on or off;
 * - PUT and DELETE watches/posts/{postId}, watches/boards/{boardId}: watch or stop watching; GET watches: the list;
 * - GET members/suggest?q=: nicknames that start with `q`, for an @mention;
 * - POST and DELETE push/subscriptions: this browser's Web Push subscription.
 *
 * The rules live in src/server/notifications/. Reads count against the member's read limit, changes
 * against the write limit.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { IdSchema } from '@/schemas/params';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv, zvJson } from '@functions/api/validate';
import { noBody } from '@functions/api/routers/likes';
import {
	listNotifications,
	markAllRead,
	markRead,
	notificationSettings,
	parseCursor,
	saveNotificationSettings,
	unreadCount,
} from '@/server/notifications/notifications';
import { NOTIFICATION_SETTINGS } from '@/lib/notification-kinds';
import { listWatches, setWatching, type WatchTarget } from '@/server/notifications/watches';
import { suggestMembers } from '@/server/notifications/mentions';
import { NICKNAME_MAX } from '@/schemas/nickname';
import { subscribePush, unsubscribePush } from '@/server/notifications/push-delivery';
import { pushSetupFromEnv } from '@/server/notifications/push';
import { env } from 'cloudflare:workers';

const ListQuerySchema = z.strictObject({ before: z.string().max(40).optional() });
const NotificationParamSchema = z.object({ notificationId: IdSchema });
const PostParamSchema = z.object({ postId: IdSchema });
const BoardParamSchema = z.object({ boardId: IdSchema });
const SuggestQuerySchema = z.strictObject({
	q: z
		.string()
		.min(1)
		.max(NICKNAME_MAX * 4),
});
const SettingsSchema = z.strictObject({
	settings: z.strictObject(
		Object.fromEntries(NOTIFICATION_SETTINGS.map((setting) => [setting, z.boolean().optional()])) as Record<
			(typeof NOTIFICATION_SETTINGS)[number],
			z.ZodOptional<z.ZodBoolean>
		>,
	),
});

/** A browser's PushSubscription as its toJSON() gives it. */
const PushSubscriptionSchema = z.strictObject({
	endpoint: z.string().min(1).max(2048),
	expirationTime: z.number().nullable().optional(),
	keys: z.strictObject({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
const PushEndpointSchema = z.strictObject({ endpoint: z.string().min(1).max(2048) });

const LIST = '/notifications';
const PUSH = '/push/subscriptions';
const UNREAD = '/notifications/unread';
const READ_ALL = '/notifications/read-all';
const SETTINGS = '/notifications/settings';
const READ = '/notifications/:notificationId/read';
const WATCH_POST = '/watches/posts/:postId';
const WATCH_BOARD = '/watches/boards/:boardId';
const WATCHES = '/watches';
const SUGGEST = '/members/suggest';

export const notificationsRouter = new Hono<ApiEnv>()
	.get(LIST, zv('query', ListQuerySchema), rateLimit('notifications'), async (c) => {
		const member = requireMember(c);
		const cursor = parseCursor(c.req.valid('query').before);
		const [page, unread] = await Promise.all([listNotifications(c.var.db, c.var.channel.id, member, cursor), unreadCount(c.var.db, member.userId)]);
		return c.json(ok({ content: { ...page, unread } }));
	})
	.get(UNREAD, zv('query', NoQuerySchema), rateLimit('notifications'), async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: { unread: await unreadCount(c.var.db, member.userId) } }));
	})
	.post(READ_ALL, zv('query', NoQuerySchema), rateLimit('notificationChange'), noBody, async (c) => {
		const member = requireMember(c);
		await markAllRead(c.var.db, member.userId, Date.now());
		return c.json(ok({ content: { unread: 0 } }));
	})
	.get(SETTINGS, zv('query', NoQuerySchema), rateLimit('notifications'), async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: { settings: await notificationSettings(c.var.db, member.userId) } }));
	})
	.put(SETTINGS, zv('query', NoQuerySchema), rateLimit('notificationChange'), zvJson(SettingsSchema), async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: { settings: await saveNotificationSettings(c.var.db, member.userId, c.req.valid('json').settings) } }));
	})
	.post(READ, zv('param', NotificationParamSchema), zv('query', NoQuerySchema), rateLimit('notificationChange'), noBody, async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: { unread: await markRead(c.var.db, member.userId, c.req.valid('param').notificationId, Date.now()) } }));
	})
	.get(WATCHES, zv('query', NoQuerySchema), rateLimit('notifications'), async (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: { items: await listWatches(c.var.db, c.var.channel.id, member) } }));
	})
	.put(WATCH_POST, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('notificationChange'), noBody, (c) =>
		watch(c, 'POST', c.req.valid('param').postId, true),
	)
	.delete(WATCH_POST, zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('notificationChange'), noBody, (c) =>
		watch(c, 'POST', c.req.valid('param').postId, false),
	)
	.put(WATCH_BOARD, zv('param', BoardParamSchema), zv('query', NoQuerySchema), rateLimit('notificationChange'), noBody, (c) =>
		watch(c, 'BOARD', c.req.valid('param').boardId, true),
	)
	.delete(WATCH_BOARD, zv('param', BoardParamSchema), zv('query', NoQuerySchema), rateLimit('notificationChange'), noBody, (c) =>
		watch(c, 'BOARD', c.req.valid('param').boardId, false),
	)
	.post(PUSH, zv('query', NoQuerySchema), rateLimit('notificationChange'), zvJson(PushSubscriptionSchema), async (c) => {
		const member = requireMember(c);
		await subscribePush(c.var.db, member.userId, c.req.valid('json'), pushSetupFromEnv(env), Date.now());
		return c.json(ok({ content: { subscribed: true } }));
	})
	.delete(PUSH, zv('query', NoQuerySchema), rateLimit('notificationChange'), zvJson(PushEndpointSchema), async (c) => {
		const member = requireMember(c);
		await unsubscribePush(c.var.db, member.userId, c.req.valid('json').endpoint);
		return c.json(ok({ content: { subscribed: false } }));
	})
	.get(SUGGEST, zv('query', SuggestQuerySchema), rateLimit('notifications'), async (c) => {
		const member = requireMember(c);
		const members = await suggestMembers(c.var.db, c.var.channel.id, member.userId, c.req.valid('query').q, Date.now());
		return c.json(ok({ content: { members } }));
	})
	.on(['POST', 'PUT', 'PATCH', 'DELETE'], [LIST, UNREAD, WATCHES, SUGGEST], methodNotAllowed)
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], [READ_ALL, READ], methodNotAllowed)
	.on(['POST', 'PATCH', 'DELETE'], SETTINGS, methodNotAllowed)
	.on(['GET', 'PUT', 'PATCH'], PUSH, methodNotAllowed)
	.on(['GET', 'POST', 'PATCH'], [WATCH_POST, WATCH_BOARD], methodNotAllowed);

/** Watches or stops watching; answers `{ watching }`. */
async function watch(c: Context<ApiEnv>, target: WatchTarget, id: number, watching: boolean) {
	const member = requireMember(c);
	return c.json(ok({ content: await setWatching(c.var.db, c.var.channel.id, member, target, id, watching, Date.now()) }));
}
