/**
 * Member actions on the account (/v1/{domain}/{slug}): logout, the member's own data, nickname
 * change, withdrawal, and the two steps of sign-up (terms, then nickname), which run on the sign-up
 * cookie instead of a session.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/context';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { authCookie, clearAuthCookie, readAuthCookie } from '@/server/sign-in/cookies';
import { endSession } from '@/server/sign-in/sessions';
import { agreeToTerms, completeSignup, findSignup } from '@/server/accounts/signup';
import { changeNickname } from '@/server/accounts/nickname';
import { withdrawMember } from '@/server/accounts/withdrawal';
import { requireSessionSecret } from '@/server/sign-in/session-secret';
import { methodNotAllowed } from '@functions/middleware/errors';
import { requireMember } from '@functions/middleware/session';
import { rateLimit } from '@functions/middleware/rate-limit';
import { NoQuerySchema, zv, zvJson } from '@functions/validate';
import { turnstileConfig, verifyChallenge } from '@/server/spam/turnstile';

const TermsBodySchema = z.strictObject({ terms: z.boolean(), privacy: z.boolean() });
const WithdrawalBodySchema = z.strictObject({ agree: z.boolean() });
/** The nickname body; the service answers a broken rule with that rule's own result code. */
const NicknameInputSchema = z.strictObject({ nickname: z.string().max(400) });
/** The sign-up's nickname body, with the Turnstile token when the deployment asks for one. */
const SignupInputSchema = NicknameInputSchema.extend({ challengeToken: z.string().max(10_000).optional() });

/** The sign-up in progress for this browser. @throws AppError SignupExpired */
async function signupOf(c: Context<ApiEnv>) {
	const { channel, db } = c.var;
	const signup = await findSignup(db, channel.id, readAuthCookie(c.req.raw, 'signup', channel.domain, channel.slug));
	if (!signup) throw new AppError('SignupExpired');
	return signup;
}

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
	.put('/me/nickname', zv('query', NoQuerySchema), rateLimit('nickname'), zvJson(NicknameInputSchema), async (c) => {
		const member = requireMember(c);
		const { nickname } = c.req.valid('json');
		return c.json(ok({ content: { nickname: await changeNickname(c.var.db, c.var.channel.id, member, nickname) } }));
	})
	.post('/me/withdrawal', zv('query', NoQuerySchema), rateLimit('account'), zvJson(WithdrawalBodySchema), async (c) => {
		const member = requireMember(c);
		const { agree } = c.req.valid('json');
		if (!agree) throw new AppError('WithdrawalUnconfirmed');
		const { channel, db } = c.var;
		await withdrawMember(db, channel.id, member.userId);
		c.header('Set-Cookie', clearAuthCookie(new URL(c.req.url), 'session', channel.domain, channel.slug), { append: true });
		return c.json(ok({}));
	})
	.post('/signup/terms', zv('query', NoQuerySchema), rateLimit('signup'), zvJson(TermsBodySchema), async (c) => {
		const signup = await signupOf(c);
		const { terms, privacy } = c.req.valid('json');
		if (!terms || !privacy) throw new AppError('TermsRequired');
		await agreeToTerms(c.var.db, signup);
		return c.json(ok({}));
	})
	.post('/signup', zv('query', NoQuerySchema), rateLimit('signup'), zvJson(SignupInputSchema), async (c) => {
		const { channel, db } = c.var;
		const signup = await signupOf(c);
		const { nickname, challengeToken } = c.req.valid('json');
		const turnstile = turnstileConfig();
		const verify = turnstile && (() => verifyChallenge(turnstile, challengeToken, 'signup', c.req.header('cf-connecting-ip') ?? null));
		const done = await completeSignup(db, channel.id, signup, nickname, requireSessionSecret(), Date.now(), verify);
		const url = new URL(c.req.url);
		c.header('Set-Cookie', clearAuthCookie(url, 'signup', channel.domain, channel.slug), { append: true });
		c.header('Set-Cookie', authCookie(url, 'session', channel.domain, channel.slug, done.sessionToken, { maxAge: done.maxAgeSeconds }), { append: true });
		return c.json(ok({ content: { redirectUrl: done.redirectUrl, user: { userId: done.memberId, nickname: done.nickname } } }));
	})
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/auth/logout', '/me/withdrawal', '/signup/terms', '/signup'], methodNotAllowed)
	.on(['POST', 'PATCH', 'DELETE'], '/me', methodNotAllowed)
	.on(['GET', 'POST', 'PATCH', 'DELETE'], '/me/nickname', methodNotAllowed);
