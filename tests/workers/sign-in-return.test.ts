/**
 * The providers' return (functions/callbacks/sign-in.ts) against strangers, and the configured site origin:
 * a return without a cookie of the transaction token's shape costs no D1 query, returns are
 * counted per client address, a return with another state cancels no pending sign-in, and with
 * SITE_ORIGIN set the redirect URIs and the Origin check follow it, not the request's Host.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { signInCallback } from '@functions/callbacks/sign-in';
import { hashToken, randomToken } from '@/server/platform/tokens';
import { cookieName } from '@/server/sign-in/cookies';
import { LIMITERS, RATE_LIMITS } from '@/server/platform/rate-limit';
import { call, memberApi, publicApi, recordingDb, signIn } from './harness';

const RETURN = 'http://localhost/starfall/global/oauth';
const TRANSACTION_COOKIE = cookieName('oauth', 'starfall', 'global');
const REAL_STATE = 'the-state-the-provider-was-given';
const settable = env as unknown as Record<string, unknown>;

/** A sign-in started in this browser: its transaction row, and the cookie's value naming it. */
async function pendingSignIn(provider: 'GOOGLE' | 'APPLE' = 'GOOGLE'): Promise<string> {
	const token = randomToken();
	const now = Date.now();
	await env.DB.prepare(
		`INSERT INTO oauth_transactions (id_hash, channel_id, provider, state, code_verifier, nonce, redirect_url, created_at, expires_at)
		 VALUES (?1, 1, ?2, ?3, 'verifier', 'nonce', '/starfall/global/boards/12', ?4, ?5)`,
	)
		.bind(await hashToken(token), provider, REAL_STATE, now, now + 10 * 60 * 1000)
		.run();
	return token;
}

const stillPending = async (token: string) =>
	(await env.DB.prepare('SELECT count(*) AS n FROM oauth_transactions WHERE id_hash = ?1')
		.bind(await hashToken(token))
		.first('n')) === 1;

/** The provider's return as the browser sends it (a GET, or Apple's cross-site form POST). */
async function providerReturn(query: string, cookie: string | null, ip: string, form?: string): Promise<Response> {
	const headers: Record<string, string> = { 'cf-connecting-ip': ip };
	if (cookie !== null) headers['cookie'] = `${TRANSACTION_COOKIE}=${cookie}`;
	if (form === undefined) return signInCallback.request(`${RETURN}${query}`, { headers });
	return signInCallback.request(RETURN, {
		method: 'POST',
		headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://appleid.apple.com' },
		body: form,
	});
}

const clearsTransactionCookie = (response: Response) =>
	response.headers.getSetCookie().some((cookie) => cookie.startsWith(`${TRANSACTION_COOKIE}=;`));

afterEach(() => {
	delete settable['SITE_ORIGIN'];
});

describe("the providers' return", () => {
	it('with another state (another site sending the browser here) leaves the pending sign-in and its cookie', async () => {
		const token = await pendingSignIn();
		const forged = await providerReturn('?code=stolen&state=made-up', token, '198.51.100.40');
		expect(forged.status).toBe(303);
		expect(forged.headers.get('location')).toBe('/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal&error=failed');
		expect(clearsTransactionCookie(forged)).toBe(false);
		expect(await stillPending(token)).toBe(true);
		// Without a state, the same.
		await providerReturn('?code=stolen', token, '198.51.100.40');
		expect(await stillPending(token)).toBe(true);
		// The real return (its state) takes it, once: here the provider is not configured, so it fails after.
		const real = await providerReturn(`?code=real&state=${REAL_STATE}`, token, '198.51.100.40');
		expect(real.headers.get('location')).toBe('/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal%2Fboards%2F12&error=failed');
		expect(clearsTransactionCookie(real)).toBe(true);
		expect(await stillPending(token)).toBe(false);
	});

	it("with another state in Apple's form POST cancels nothing either", async () => {
		const token = await pendingSignIn('APPLE');
		await providerReturn('', token, '198.51.100.41', 'code=stolen&state=made-up');
		expect(await stillPending(token)).toBe(true);
		await providerReturn('', token, '198.51.100.41', `code=real&state=${REAL_STATE}`);
		expect(await stillPending(token)).toBe(false);
	});

	it("without a cookie of the transaction token's shape is answered without a D1 query", async () => {
		const original = env.DB;
		const { db, statements } = recordingDb(original);
		settable['DB'] = db;
		try {
			for (const cookie of [null, 'forged', 'a'.repeat(42), `${'a'.repeat(43)}=`, 'a'.repeat(44), 'x'.repeat(4000)]) {
				const response = await providerReturn('?code=x&state=y', cookie, '198.51.100.42');
				expect(response.status, String(cookie)).toBe(303);
				expect(response.headers.get('location')).toBe('/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal&error=failed');
			}
		} finally {
			settable['DB'] = original;
		}
		expect(statements).toEqual([]);
	});

	it("with a cookie of the token's shape is counted per client address, and past the limit takes nothing", async () => {
		const rule = RATE_LIMITS.signInReturn;
		const { limit, periodSeconds } = LIMITERS[rule.address];
		expect(periodSeconds).toBe(60);
		const locations: string[] = [];
		// The limiter's window follows the clock and may end mid-way: up to three windows' worth go
		// out before the refusal must have come, and none of the first `limit` is refused.
		while (locations.length < 3 * limit + 1 && !locations.at(-1)?.endsWith('error=busy')) {
			locations.push((await providerReturn('?code=x&state=y', randomToken(), '198.51.100.43')).headers.get('location') ?? '');
		}
		expect(locations.slice(0, limit).every((location) => location.endsWith('error=failed'))).toBe(true);
		expect(locations.at(-1)).toBe('/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal&error=busy');
		// Past the limit nothing is read or taken: a pending sign-in of that address stays.
		const token = await pendingSignIn();
		expect((await providerReturn(`?code=real&state=${REAL_STATE}`, token, '198.51.100.43')).headers.get('location')).toMatch(/error=busy$/);
		expect(await stillPending(token)).toBe(true);
		// Another address is not held back.
		expect((await providerReturn('?code=x&state=y', randomToken(), '198.51.100.44')).headers.get('location')).toMatch(/error=failed$/);
	});
});

describe('SITE_ORIGIN', () => {
	it('is the only origin the Origin check accepts, whatever Host the request came with', async () => {
		const cookie = await signIn(1016);
		const nickname = (origin: string) => call(`${memberApi()}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'x' }, headers: { origin } });
		// Unset: the request's own origin (http://localhost in these tests).
		expect((await nickname('http://localhost')).code).toBe(-4001422);
		settable['SITE_ORIGIN'] = 'https://board.example';
		expect((await nickname('http://localhost')).code).toBe(-4031401);
		expect((await nickname('https://board.example')).code).toBe(-4001422);
		expect((await nickname('https://evil.example')).code).toBe(-4031401);
	});

	it("builds the providers' redirect URI, not the request's Host", async () => {
		const x = {
			OAUTH_X_ISSUER: 'https://x.example',
			OAUTH_X_AUTHORIZATION_URL: 'https://x.example/i/oauth2/authorize',
			OAUTH_X_TOKEN_URL: 'https://api.x.example/2/oauth2/token',
			OAUTH_X_USER_URL: 'https://api.x.example/2/users/me',
			OAUTH_X_CLIENT_ID: 'client',
			OAUTH_X_CLIENT_SECRET: 'secret',
			OAUTH_X_SCOPE: 'users.read',
		};
		Object.assign(settable, x);
		try {
			const redirectUri = async () => {
				const answer = await call(`${publicApi()}/oauth/login`, {
					method: 'POST',
					body: { provider: 'X' },
					headers: { origin: String(settable['SITE_ORIGIN'] ?? 'http://localhost') },
				});
				expect(answer.code).toBe(0);
				return new URL((answer.body['content'] as { authorizationUrl: string }).authorizationUrl).searchParams.get('redirect_uri');
			};
			expect(await redirectUri()).toBe('http://localhost/starfall/global/oauth');
			settable['SITE_ORIGIN'] = 'https://board.example';
			expect(await redirectUri()).toBe('https://board.example/starfall/global/oauth');
		} finally {
			for (const name of Object.keys(x)) delete settable[name];
		}
	});

	it('set to something that is not an origin is a configuration fault, not a silent fallback', async () => {
		settable['SITE_ORIGIN'] = 'board.example';
		const answer = await call(`${memberApi()}/me/nickname`, { method: 'PUT', cookie: await signIn(1016), body: { nickname: 'x' } });
		expect(answer.code).toBe(-5001500);
	});
});
