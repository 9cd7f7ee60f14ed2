/**
 * /{domain}/{slug}/oauth, the providers' return (docs/reference/product-rules.md#routes): Google and X come back with a GET,
 * Apple with a cross-site form POST (response_mode=form_post). It runs before Astro's pages, so
 * Astro's origin check does not turn Apple's POST away; that POST is the one deliberate exception
 * to the Origin check, and the transaction (state, PKCE verifier, nonce, bound to the browser by
 * its cookie, usable once) guards it instead. Success signs the member in, or starts the sign-up;
 * anything else goes back to the login page, which says that it failed.
 *
 * What it costs a stranger: a return without a cookie of the transaction token's shape is answered
 * without D1; one with it is counted per client address (the `signInReturn` rate limit) and then
 * takes the transaction only when the return's state is the transaction's, so another site that
 * sends the browser here with a made-up state cancels nothing.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { isFormRequest } from '@functions/api/validate';
import { env } from 'cloudflare:workers';
import { database } from '@/server/platform/database';
import type { Channel } from '@/server/channels/channels';
import { findCommunity } from '@/server/channels/community';
import { communityWrites, MOVING, unlessMoving } from '@/server/databases/write-guard';
import { authCookie, clearAuthCookie, readAuthCookie, SIGNUP_COOKIE_SECONDS } from '@/server/sign-in/cookies';
import { callbackUrl, configuredProvider, consumeTransaction, type Transaction } from '@/server/sign-in/transactions';
import { isRandomToken } from '@/server/platform/tokens';
import { enforceRateLimit, limitersOf } from '@/server/platform/rate-limit';
import { isAppError } from '@/server/platform/errors';
import { siteOrigin } from '@/server/platform/site-origin';
import { completeAuthorization } from '@/server/sign-in/oauth';
import { signInIdentity } from '@/server/accounts/signup';
import { requireSessionSecret } from '@/server/sign-in/session-secret';
import { loginPageUrl, pageUrls } from '@/lib/urls';
import { channelPathOf } from '@/schemas/params';

/** The largest form body Apple's return can need (code, state, id_token, user); larger is refused unread. */
const MAX_FORM_BYTES = 16 * 1024;

async function callbackParams(c: Context): Promise<URLSearchParams | null> {
	if (c.req.method === 'GET') return new URL(c.req.url).searchParams;
	if (!isFormRequest(c)) return null;
	return new URLSearchParams(await c.req.text());
}

function finish(location: string, cookies: string[]): Response {
	const headers = new Headers({ Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
	for (const cookie of cookies) headers.append('Set-Cookie', cookie);
	return new Response(null, { status: 303, headers });
}

/** Where the browser goes next, and the cookie it gets: a session, or a sign-up in progress. */
async function signIn(
	c: Context,
	db: Db,
	channel: Channel,
	transaction: Transaction,
	params: URLSearchParams,
	url: URL,
): Promise<{ location: string; cookie: string }> {
	// Apple must answer with its form POST and the others with a redirect: no downgrade either way.
	if ((transaction.provider === 'APPLE') !== (c.req.method === 'POST')) throw new Error(`${transaction.provider} returned with ${c.req.method}`);
	const config = configuredProvider(transaction.provider);
	const subject = await completeAuthorization(config, callbackUrl(siteOrigin(url), channel), params, transaction);
	const outcome = await signInIdentity(
		{ directory: database(env.DB), community: db },
		channel.id,
		{ provider: transaction.provider, subject },
		transaction.redirectUrl,
		requireSessionSecret(),
	);
	if (outcome.kind === 'member') {
		return {
			location: transaction.redirectUrl,
			cookie: authCookie(url, 'session', channel.domain, channel.slug, outcome.sessionToken, { maxAge: outcome.maxAgeSeconds }),
		};
	}
	return {
		location: pageUrls(channel.basePath).signup,
		cookie: authCookie(url, 'signup', channel.domain, channel.slug, outcome.signupToken, { maxAge: SIGNUP_COOKIE_SECONDS }),
	};
}

const limitForm = bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.text('The request is too large.', 413) });

export const signInCallback = new Hono().on(['GET', 'POST'], '/:domain/:slug/oauth', limitForm, async (c, next) => {
	const path = channelPathOf(c.req.param());
	if (!path) return next();
	const url = new URL(c.req.url);
	const clearTransaction = clearAuthCookie(url, 'oauth', path.domain, path.slug);
	const transactionToken = readAuthCookie(c.req.raw, 'oauth', path.domain, path.slug);
	// No cookie of the token's shape names no transaction: back to the login page without a D1 query.
	if (transactionToken === null || !isRandomToken(transactionToken)) {
		const basePath = `/${path.domain}/${path.slug}`;
		return finish(loginPageUrl(basePath, basePath, 'failed'), transactionToken === null ? [] : [clearTransaction]);
	}
	const community = await findCommunity(path.domain, path.slug);
	// No such channel: Astro's not-found page answers.
	if (!community) return next();
	const { channel } = community;
	// While the community moves between databases a sign-in would write where it is leaving: the
	// login page's "busy" answer, the transaction kept for a return once the move is done. Every
	// write carries the move's check as well (the row read here may predate its mark).
	const busy = () => finish(loginPageUrl(channel.basePath, channel.basePath, 'busy'), []);
	if (channel.movingTo !== null) return busy();
	const db = communityWrites(community.db, channel);
	try {
		await enforceRateLimit(limitersOf(env), 'signInReturn', { channelId: channel.id, memberId: null, ip: c.req.header('cf-connecting-ip') ?? null });
	} catch (error) {
		// The transaction stays: the browser may come back with the same return once the minute is over.
		if (isAppError(error) && error.codeName === 'TooManyRequests') return finish(loginPageUrl(channel.basePath, channel.basePath, 'busy'), []);
		throw error;
	}
	const params = await callbackParams(c);
	const state = params?.get('state');
	const transaction = state ? await unlessMoving(() => consumeTransaction(db, channel.id, transactionToken, state)) : null;
	if (transaction === MOVING) return busy();
	const redirectUrl = transaction?.redirectUrl ?? channel.basePath;
	// The cookie is cleared only with the transaction it names: a return with another state leaves both.
	const cleared = transaction ? [clearTransaction] : [];
	try {
		if (!transaction) throw new Error('No sign-in transaction with this state for this browser (missing, used, expired, or another state)');
		if (!params) throw new Error('The return carries no readable parameters');
		// The member said no at the provider: back to the login page, without an error.
		if (params.get('error') === 'access_denied') return finish(loginPageUrl(channel.basePath, redirectUrl), cleared);
		const { location, cookie } = await signIn(c, db, channel, transaction, params, url);
		return finish(location, [...cleared, cookie]);
	} catch (error) {
		if (isAppError(error) && error.codeName === 'CommunityMoving') return busy();
		console.warn('Sign-in refused:', error instanceof Error ? error.message : error);
		return finish(loginPageUrl(channel.basePath, redirectUrl, 'failed'), cleared);
	}
});
