/**
 * Member actions on the account (/v1/{domain}/{slug}): logout, the member's own data, nickname
 * change, withdrawal, and the two steps of sign-up (terms, then nickname), which run on the sign-up
 * cookie instead of a session (checked by functions/api/app.ts before the input, `c.var.signup`).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { authCookie, clearAuthCookie } from '@/server/sign-in/cookies';
import { endSession } from '@/server/sign-in/sessions';
import { agreeToTerms, completeSignup } from '@/server/accounts/signup';
import { changeNickname } from '@/server/accounts/nickname';
import { withdrawMember } from '@/server/accounts/withdrawal';
import { deleteAvatarObjects, removeOwnAvatar, storeAvatar } from '@/server/members/avatars';
import { AVATAR_SIZES, type AvatarSize } from '@/lib/avatars';
import { env } from 'cloudflare:workers';
import { requireSessionSecret } from '@/server/sign-in/session-secret';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember } from '@functions/api/middleware/session';
import { checkRateLimit, rateLimit } from '@functions/api/middleware/rate-limit';
import { claimExport, exportFileName, exportStream } from '@/server/members/export';
import { NoQuerySchema, zv, zvJson } from '@functions/api/validate';
import { noBody } from '@functions/api/routers/likes';
import { NICKNAME_FIELDS, TERMS_FIELDS, WITHDRAWAL_FIELDS } from '@functions/api/input-codes';
import { turnstileConfig, verifyChallenge } from '@/server/spam/turnstile';

const TermsBodySchema = z.strictObject({ terms: z.boolean(), privacy: z.boolean() });
/** Which size of the avatar the body is (src/lib/avatars.ts AVATAR_SIZES). */
const AvatarQuerySchema = z.strictObject({ size: z.enum(AVATAR_SIZES.map(String) as ['96', '256']) });
const WithdrawalBodySchema = z.strictObject({ agree: z.boolean() });
/** The nickname body; the service answers a broken rule with that rule's own result code. */
const NicknameInputSchema = z.strictObject({ nickname: z.string().max(400) });
/** The sign-up's nickname body, with the Turnstile token when the deployment asks for one. */
const SignupInputSchema = NicknameInputSchema.extend({ challengeToken: z.string().max(10_000).optional() });

export const accountRouter = new Hono<ApiEnv>()
	.post('/auth/logout', zv('query', NoQuerySchema), rateLimit('account'), async (c) => {
		const { channel, db, session } = c.var;
		if (session.kind === 'member' || session.kind === 'banned') await endSession(db, session.tokenHash).run();
		c.header('Set-Cookie', clearAuthCookie(new URL(c.req.url), 'session', channel.domain, channel.slug), { append: true });
		return c.json(ok({}));
	})
	.get('/me', zv('query', NoQuerySchema), (c) => {
		const member = requireMember(c);
		return c.json(ok({ content: member }));
	})
	// The member's data as one JSON file, streamed (src/server/members/export.ts): members only,
	// their own data of this community; at most one export per 20 minutes per member. A POST, so
	// that it passes the Origin check: a GET another site's link or image makes the browser send
	// would spend the member's slot (docs/reference/export.md).
	.post('/me/export', zv('query', NoQuerySchema), noBody, async (c) => {
		const member = requireMember(c);
		await checkRateLimit(c, 'export');
		const { channel, db } = c.var;
		const now = Date.now();
		await claimExport(db, channel.id, member.userId, now);
		const subject = { channel, memberId: member.userId, origin: new URL(c.req.url).origin };
		return c.body(exportStream(db, subject, now), 200, {
			'Content-Type': 'application/json; charset=utf-8',
			'Content-Disposition': `attachment; filename="${exportFileName(subject, now)}"`,
			'Cache-Control': 'private, no-store',
			'X-Content-Type-Options': 'nosniff',
		});
	})
	.put('/me/nickname', zv('query', NoQuerySchema), rateLimit('nickname'), zvJson(NicknameInputSchema, NICKNAME_FIELDS), async (c) => {
		const member = requireMember(c);
		const { nickname } = c.req.valid('json');
		return c.json(ok({ content: { nickname: await changeNickname(c.var.db, c.var.channel.id, member, nickname) } }));
	})
	// One size of the member's avatar, raw JPEG or WebP bytes made by the crop in My Page, and its
	// removal (src/server/members/avatars.ts, docs/reference/avatars.md). Rate limited as an upload.
	.put('/me/avatar', zv('query', AvatarQuerySchema), rateLimit('upload'), async (c) => {
		const member = requireMember(c);
		const bytes = new Uint8Array(await c.req.arrayBuffer());
		const size = Number(c.req.valid('query').size) as AvatarSize;
		return c.json(ok({ content: await storeAvatar(c.var.db, env.UPLOADS, c.var.channel, member.userId, size, bytes, Date.now()) }));
	})
	.delete('/me/avatar', zv('query', NoQuerySchema), rateLimit('upload'), noBody, async (c) => {
		const member = requireMember(c);
		await removeOwnAvatar(c.var.db, env.UPLOADS, c.var.channel, member.userId, Date.now());
		return c.json(ok({}));
	})
	.on(['GET', 'POST', 'PATCH'], '/me/avatar', methodNotAllowed)
	.post('/me/withdrawal', zv('query', NoQuerySchema), rateLimit('account'), zvJson(WithdrawalBodySchema, WITHDRAWAL_FIELDS), async (c) => {
		const member = requireMember(c);
		const { agree } = c.req.valid('json');
		if (!agree) throw new AppError('WithdrawalUnconfirmed');
		const { channel, db } = c.var;
		await withdrawMember(db, channel.id, member.userId);
		await deleteAvatarObjects(env.UPLOADS, channel, member.userId);
		c.header('Set-Cookie', clearAuthCookie(new URL(c.req.url), 'session', channel.domain, channel.slug), { append: true });
		return c.json(ok({}));
	})
	.post('/signup/terms', zv('query', NoQuerySchema), rateLimit('signup'), zvJson(TermsBodySchema, TERMS_FIELDS), async (c) => {
		const { signup } = c.var;
		const { terms, privacy } = c.req.valid('json');
		if (!terms || !privacy) throw new AppError('TermsRequired');
		await agreeToTerms(c.var.db, signup);
		return c.json(ok({}));
	})
	.post('/signup', zv('query', NoQuerySchema), rateLimit('signup'), zvJson(SignupInputSchema, NICKNAME_FIELDS), async (c) => {
		const { channel, db } = c.var;
		const { signup } = c.var;
		const { nickname, challengeToken } = c.req.valid('json');
		const turnstile = turnstileConfig();
		const verify = turnstile && (() => verifyChallenge(turnstile, challengeToken, 'signup', c.req.header('cf-connecting-ip') ?? null));
		const done = await completeSignup(db, channel.id, signup, nickname, requireSessionSecret(), Date.now(), verify);
		const url = new URL(c.req.url);
		c.header('Set-Cookie', clearAuthCookie(url, 'signup', channel.domain, channel.slug), { append: true });
		c.header('Set-Cookie', authCookie(url, 'session', channel.domain, channel.slug, done.sessionToken, { maxAge: done.maxAgeSeconds }), {
			append: true,
		});
		return c.json(ok({ content: { redirectUrl: done.redirectUrl, user: { userId: done.memberId, nickname: done.nickname } } }));
	})
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/auth/logout', '/me/withdrawal', '/signup/terms', '/signup'], methodNotAllowed)
	.on(['POST', 'PATCH', 'DELETE'], '/me', methodNotAllowed)
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], '/me/export', methodNotAllowed)
	.on(['GET', 'POST', 'PATCH', 'DELETE'], '/me/nickname', methodNotAllowed);
