/**
 * GET auth/status, oauth/providers and oauth/providers/exists, and POST oauth/login (docs/reference/product-rules.md#api-calls).
 * oauth/login takes JSON (answering the authorization URL) or the login page's plain form
 * (answering with a redirect to the provider); either way it sets the transaction cookie.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { loadLayout } from '@/server/channels/layout';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { authCookie, OAUTH_COOKIE_SECONDS } from '@/server/sign-in/cookies';
import { startSignIn } from '@/server/sign-in/transactions';
import { safeRedirect } from '@/server/sign-in/redirect';
import { loginPageUrl } from '@/lib/urls';
import { ProviderSchema } from '@/schemas/channel';
import { USER_ID_HEADER } from '@/lib/names';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { sessionError } from '@functions/api/middleware/session';
import { checkRateLimit } from '@functions/api/middleware/rate-limit';
import { siteOrigin } from '@/server/platform/site-origin';
import { NoQuerySchema, isFormRequest, zv, zvJsonOrForm } from '@functions/api/validate';
import { LOGIN_FIELDS } from '@functions/api/input-codes';

const ProvidersQuerySchema = z.strictObject({ callbackUrl: z.string().max(2048).optional() });
const LoginBodySchema = z.strictObject({ provider: ProviderSchema, redirectUrl: z.string().max(2048).optional() });

export const authRouter = new Hono<ApiEnv>()
	// Read whole by the client: `user` is present only for a signed-in member.
	.get('/auth/status', zv('query', NoQuerySchema), (c) => {
		c.header('Cache-Control', 'private, no-store');
		const session = c.var.session;
		if (session.kind === 'member') return c.json(ok({ user: { userId: session.member.userId, nickname: session.member.nickname } }));
		// A browser that still holds a user id but no session cookie: its session has ended.
		if (session.kind === 'guest' && !c.req.header(USER_ID_HEADER)) return c.json(ok({}));
		throw sessionError(session.kind === 'guest' ? { kind: 'expired' } : session);
	})
	.get('/oauth/providers', zv('query', ProvidersQuerySchema), async (c) => {
		const { providers } = await loadLayout(c.var.db, c.var.channel);
		return c.json(ok({ content: providers.map((provider) => ({ provider })) }));
	})
	.get('/oauth/providers/exists', zv('query', NoQuerySchema), async (c) => {
		const { providers } = await loadLayout(c.var.db, c.var.channel);
		return c.json(ok({ content: { exists: providers.length > 0 } }));
	})
	.post('/oauth/login', zv('query', NoQuerySchema), zvJsonOrForm(LoginBodySchema, LOGIN_FIELDS), async (c) => {
		const { channel, db } = c.var;
		const isForm = isFormRequest(c);
		const body = c.req.valid('json');
		const url = new URL(c.req.url);
		const redirectUrl = safeRedirect(channel.basePath, body.redirectUrl);
		let started;
		try {
			await checkRateLimit(c, 'signIn');
			if (c.var.session.kind === 'member') throw new AppError('Conflict', 'You are already logged in.');
			started = await startSignIn(db, channel, body.provider, redirectUrl, siteOrigin(url));
		} catch (error) {
			// The login page's form goes back to the login page, which says that it failed.
			if (isForm && error instanceof AppError)
				return c.redirect(loginPageUrl(channel.basePath, redirectUrl, error.codeName === 'TooManyRequests' ? 'busy' : 'failed'), 303);
			throw error;
		}
		const { authorizationUrl, transactionToken } = started;
		c.header('Cache-Control', 'no-store');
		c.header(
			'Set-Cookie',
			authCookie(url, 'oauth', channel.domain, channel.slug, transactionToken, {
				maxAge: OAUTH_COOKIE_SECONDS,
				sameSite: body.provider === 'APPLE' ? 'None' : 'Lax',
			}),
		);
		if (isForm) return c.redirect(authorizationUrl, 303);
		return c.json(ok({ content: { authorizationUrl } }));
	})
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], '/oauth/login', methodNotAllowed);
