/**
 * The admin API of a community (/admin/v1/{domain}/{slug}): for its administrators
 * only, checked on every request from the session's current row (a revoked or banned
 * administrator is refused at once), never cached, and every mutation passes the Origin check and
 * the moderation rate limit. Anyone else is refused before the input is read (functions/api/app.ts):
 * a guest with -4011401, a banned member with the ban, any other member with -4031403.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { createMiddleware } from 'hono/factory';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { forgetChannel } from '@/server/channels/channels';
import { hideComment, hidePost, unhideComment, unhidePost } from '@/server/moderation/hide';
import { listLog, REASON_MAX } from '@/server/moderation/log';
import { banMemberAsAdministrator, listBansInForce, memberBanHistory, memberByNickname, unbanMemberAsAdministrator } from '@/server/members/bans';
import { changedSettings, moderationSettings, setModerationSettings } from '@/server/moderation/settings';
import { removedText } from '@/server/moderation/removed-text';
import { removeAvatarAsAdministrator } from '@/server/members/avatars';
import { env } from 'cloudflare:workers';
import { dismissReports, listClosedReports, listReportQueue } from '@/server/moderation/reports-queue';
import { IdSchema, PageSchema } from '@/schemas/params';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { requireAdministrator } from '@functions/api/middleware/session';
import { NoQuerySchema, zv, zvJson } from '@functions/api/validate';
import { noBody } from '@functions/api/routers/likes';
import { BAN_FIELDS, SETTINGS_FIELDS } from '@functions/api/input-codes';

const PostParamSchema = z.object({ postId: IdSchema });
const CommentParamSchema = z.object({ commentId: IdSchema });
const NoteSchema = z.strictObject({ reason: z.string().max(REASON_MAX).default('') });
const PageQuerySchema = z.strictObject({ page: PageSchema.default(1) });
const MemberParamSchema = z.object({ userId: IdSchema });
const QueueQuerySchema = z.strictObject({ page: PageSchema.default(1), order: z.enum(['newest', 'most']).default('newest') });
const TargetParamSchema = z.object({ targetType: z.enum(['posts', 'comments']), targetId: IdSchema });
const NicknameQuerySchema = z.strictObject({ nickname: z.string().trim().min(1).max(100) });
/** The keys a PUT settings may name; their values are checked by the service, each with its own code. */
const SettingsSchema = z.strictObject({ autoHideReports: z.unknown(), reportMinAgeHours: z.unknown() }).partial();
const Reason = z.string().max(REASON_MAX).default('');
/** A ban: until a moment (epoch ms, in the future: the service checks) or for good, with a reason. */
const BanSchema = z.discriminatedUnion('kind', [
	z.strictObject({ kind: z.literal('TEMPORARY'), endsAt: z.number().int().positive().max(8.64e15), reason: Reason }),
	z.strictObject({ kind: z.literal('PERMANENT'), reason: Reason }),
]);

/** The session's administrator. @throws AppError LoginRequired (and the other session errors) for a guest, Forbidden for a member */
const administrator = requireAdministrator;

/** Every answer is the administrator's alone; a change of posts turns the isolate's channel row cold. */
const adminOnly = createMiddleware<ApiEnv>(async (c, next) => {
	administrator(c);
	await next();
	c.header('Cache-Control', 'private, no-store');
	if (c.req.method !== 'GET' && c.res.ok) forgetChannel(c.var.channel.domain, c.var.channel.slug);
});

export const adminRouter = new Hono<ApiEnv>()
	.use(adminOnly)
	.post('/posts/:postId/hide', zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('moderation'), zvJson(NoteSchema), async (c) => {
		await hidePost(c.var.db, c.var.channel.id, administrator(c), c.req.valid('param').postId, { reason: c.req.valid('json').reason });
		return c.json(ok({ content: { hidden: true } }));
	})
	.post('/posts/:postId/unhide', zv('param', PostParamSchema), zv('query', NoQuerySchema), rateLimit('moderation'), zvJson(NoteSchema), async (c) => {
		await unhidePost(c.var.db, c.var.channel.id, administrator(c), c.req.valid('param').postId, { reason: c.req.valid('json').reason });
		return c.json(ok({ content: { hidden: false } }));
	})
	.post(
		'/comments/:commentId/hide',
		zv('param', CommentParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('moderation'),
		zvJson(NoteSchema),
		async (c) => {
			await hideComment(c.var.db, c.var.channel.id, administrator(c), c.req.valid('param').commentId, { reason: c.req.valid('json').reason });
			return c.json(ok({ content: { hidden: true } }));
		},
	)
	.post(
		'/comments/:commentId/unhide',
		zv('param', CommentParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('moderation'),
		zvJson(NoteSchema),
		async (c) => {
			await unhideComment(c.var.db, c.var.channel.id, administrator(c), c.req.valid('param').commentId, { reason: c.req.valid('json').reason });
			return c.json(ok({ content: { hidden: false } }));
		},
	)
	.post(
		'/members/:userId/ban',
		zv('param', MemberParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('moderation'),
		zvJson(BanSchema, BAN_FIELDS),
		async (c) => {
			const { userId } = c.req.valid('param');
			const order = c.req.valid('json');
			// The member is checked first (UserNotFound, Forbidden), then the order; the history after the ban comes in its batch.
			const history = await banMemberAsAdministrator(c.var.db, c.var.channel.id, administrator(c).userId, userId, {
				kind: order.kind,
				endsAt: order.kind === 'TEMPORARY' ? order.endsAt : null,
				reason: order.reason,
			});
			return c.json(ok({ content: history }));
		},
	)
	.post(
		'/members/:userId/unban',
		zv('param', MemberParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('moderation'),
		zvJson(NoteSchema),
		async (c) => {
			const { userId } = c.req.valid('param');
			const history = await unbanMemberAsAdministrator(c.var.db, c.var.channel.id, administrator(c).userId, userId, c.req.valid('json').reason);
			return c.json(ok({ content: history }));
		},
	)
	// A member's avatar removed, audited (REMOVE_AVATAR); their generated one shows again (docs/reference/avatars.md).
	.post(
		'/members/:userId/avatar/remove',
		zv('param', MemberParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('moderation'),
		zvJson(NoteSchema),
		async (c) => {
			const { userId } = c.req.valid('param');
			const { db, channel } = c.var;
			const removed = await removeAvatarAsAdministrator(
				db,
				env.UPLOADS,
				channel,
				administrator(c).userId,
				userId,
				c.req.valid('json').reason,
				Date.now(),
			);
			return c.json(ok({ content: { removed } }));
		},
	)
	.get('/members/:userId/bans', zv('param', MemberParamSchema), zv('query', NoQuerySchema), async (c) =>
		c.json(ok({ content: await memberBanHistory(c.var.db, c.var.channel.id, c.req.valid('param').userId) })),
	)
	.get('/bans', zv('query', PageQuerySchema), async (c) =>
		c.json(ok({ content: await listBansInForce(c.var.db, c.var.channel.id, c.req.valid('query').page) })),
	)
	.get('/members', zv('query', NicknameQuerySchema), async (c) => {
		const memberId = await memberByNickname(c.var.db, c.var.channel.id, c.req.valid('query').nickname);
		if (memberId === null) throw new AppError('UserNotFound');
		return c.json(ok({ content: await memberBanHistory(c.var.db, c.var.channel.id, memberId) }));
	})
	.get('/settings', zv('query', NoQuerySchema), async (c) => c.json(ok({ content: await moderationSettings(c.var.db, c.var.channel.id) })))
	.put('/settings', zv('query', NoQuerySchema), rateLimit('moderation'), zvJson(SettingsSchema, SETTINGS_FIELDS), async (c) => {
		const settings = await changedSettings(c.var.db, c.var.channel.id, c.req.valid('json'));
		await setModerationSettings(c.var.db, c.var.channel.id, administrator(c).userId, settings);
		return c.json(ok({ content: settings }));
	})
	// The text of a post or comment as the database keeps it, hidden and deleted ones too, for appeals.
	// A POST: each read writes its row of the audit log, which a GET another site sent must not do.
	.post('/content/:targetType/:targetId', zv('param', TargetParamSchema), zv('query', NoQuerySchema), rateLimit('moderation'), noBody, async (c) => {
		const { targetType, targetId } = c.req.valid('param');
		const target = { type: targetType === 'posts' ? ('POST' as const) : ('COMMENT' as const), id: targetId };
		return c.json(ok({ content: await removedText(c.var.db, c.var.channel.id, target, administrator(c).userId, Date.now()) }));
	})
	.get('/reports', zv('query', QueueQuerySchema), async (c) => {
		const { page, order } = c.req.valid('query');
		return c.json(ok({ content: await listReportQueue(c.var.db, c.var.channel.id, page, order) }));
	})
	.get('/reports/history', zv('query', PageQuerySchema), async (c) =>
		c.json(ok({ content: await listClosedReports(c.var.db, c.var.channel.id, c.req.valid('query').page) })),
	)
	.post(
		'/reports/:targetType/:targetId/dismiss',
		zv('param', TargetParamSchema),
		zv('query', NoQuerySchema),
		rateLimit('moderation'),
		zvJson(NoteSchema),
		async (c) => {
			const { targetType, targetId } = c.req.valid('param');
			await dismissReports(
				c.var.db,
				c.var.channel.id,
				administrator(c).userId,
				{ type: targetType === 'posts' ? 'POST' : 'COMMENT', id: targetId },
				c.req.valid('json').reason,
			);
			return c.json(ok({ content: { dismissed: true } }));
		},
	)
	.get('/audit-log', zv('query', PageQuerySchema), async (c) =>
		c.json(ok({ content: await listLog(c.var.db, c.var.channel.id, c.req.valid('query').page) })),
	)
	.on(
		['PUT', 'PATCH', 'DELETE'],
		[
			'/posts/:postId/hide',
			'/posts/:postId/unhide',
			'/comments/:commentId/hide',
			'/comments/:commentId/unhide',
			'/members/:userId/ban',
			'/members/:userId/unban',
			'/members/:userId/avatar/remove',
		],
		methodNotAllowed,
	)
	.on(['POST', 'PUT', 'PATCH', 'DELETE'], ['/members/:userId/bans', '/reports', '/reports/history', '/bans', '/members'], methodNotAllowed)
	.on(['POST', 'PATCH', 'DELETE'], '/settings', methodNotAllowed)
	.on(['PUT', 'PATCH', 'DELETE'], '/reports/:targetType/:targetId/dismiss', methodNotAllowed)
	.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/audit-log', methodNotAllowed)
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], '/content/:targetType/:targetId', methodNotAllowed);
