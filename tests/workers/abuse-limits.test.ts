/**
 * The limits that keep one client from costing everyone: the rate limits of every writing route
 * (the Rate Limiting binding, emulated by miniflare with wrangler.toml's limits), the nickname
 * cooldown, uniqueness that holds under racing requests, cheap made-up sessions and bodies refused
 * before they are read.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { parse } from 'smol-toml';
import wranglerToml from '../../wrangler.toml?raw';
import { api } from '@functions/api/app';
import { signInCallback } from '@functions/callbacks/sign-in';
import {
	call,
	memberApi,
	publicApi,
	recordingDb,
	sessionCookie,
	signIn,
	signUp,
	startOfRateWindow,
	startSignup,
	ORIGIN,
	TEST_SECRET,
} from './harness';
import { LIMITERS, RATE_LIMITS } from '@/server/platform/rate-limit';
import { changeNickname, NICKNAME_CHANGE_COOLDOWN_DAYS } from '@/server/accounts/nickname';
import { completeSignup, findSignup } from '@/server/accounts/signup';
import { resolveSession } from '@/server/sign-in/sessions';
import { mintSessionToken } from '@/server/sign-in/session-token';
import { hashToken } from '@/server/platform/tokens';

const PUBLIC = publicApi();
const MEMBER = memberApi();
const DAY = 24 * 60 * 60 * 1000;

/** Sends `count` requests from one client address; returns the result codes in order. */
async function burst(count: number, url: string, init: Parameters<typeof call>[1] & { ip: string }) {
	const codes: number[] = [];
	for (let i = 0; i < count; i += 1) codes.push((await call(url, { ...init, headers: { ...init.headers, 'cf-connecting-ip': init.ip } })).code);
	return codes;
}

describe('rate limits', () => {
	beforeEach(startOfRateWindow);

	it('uses the limits of wrangler.toml', () => {
		const config = parse(wranglerToml) as { ratelimits: { name: string; simple: { limit: number; period: number } }[] };
		expect(Object.fromEntries(config.ratelimits.map(({ name, simple }) => [name, { limit: simple.limit, periodSeconds: simple.period }]))).toEqual(
			LIMITERS,
		);
		for (const rule of Object.values(RATE_LIMITS)) {
			const limiters: string[] = [rule.address, ...('member' in rule ? [rule.member] : [])];
			for (const limiter of limiters) expect(Object.keys(LIMITERS)).toContain(limiter);
		}
	});

	it('limits sign-in starts per client address, answers -4291401 with Retry-After, and spares other addresses', async () => {
		const { limit, periodSeconds } = LIMITERS.RATE_LIMIT_STRICT;
		const codes = await burst(limit + 1, `${PUBLIC}/oauth/login`, { method: 'POST', body: { provider: 'GOOGLE' }, ip: '198.51.100.1' });
		// Within the limit the API gets as far as the provider, which the tests do not configure.
		expect(codes.slice(0, limit).every((code) => code === -5031401)).toBe(true);
		const refused = await call(`${PUBLIC}/oauth/login`, {
			method: 'POST',
			body: { provider: 'GOOGLE' },
			headers: { 'cf-connecting-ip': '198.51.100.1' },
		});
		expect(refused.status).toBe(429);
		expect(refused.code).toBe(-4291401);
		expect(refused.headers.get('retry-after')).toBe(String(periodSeconds));
		expect(
			(await call(`${PUBLIC}/oauth/login`, { method: 'POST', body: { provider: 'GOOGLE' }, headers: { 'cf-connecting-ip': '198.51.100.2' } })).code,
		).toBe(-5031401);
	});

	it('sends the login form back to the login page when it comes too often', async () => {
		await burst(LIMITERS.RATE_LIMIT_STRICT.limit, `${PUBLIC}/oauth/login`, { method: 'POST', body: { provider: 'GOOGLE' }, ip: '198.51.100.3' });
		const response = await api.request(`${PUBLIC}/oauth/login`, {
			method: 'POST',
			headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', 'cf-connecting-ip': '198.51.100.3' },
			body: 'provider=GOOGLE&redirectUrl=%2Fstarfall%2Fglobal',
		});
		expect(response.status).toBe(303);
		expect(response.headers.get('location')).toBe('/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal&error=busy');
	});

	it('limits nickname attempts per member, whatever address they come from', async () => {
		const cookie = await signIn(1011);
		const { limit } = LIMITERS.RATE_LIMIT_STRICT;
		for (let i = 0; i < limit; i += 1) {
			const answer = await call(`${MEMBER}/me/nickname`, {
				method: 'PUT',
				cookie,
				body: { nickname: 'x' },
				headers: { 'cf-connecting-ip': `203.0.113.${i}` },
			});
			expect(answer.code).toBe(-4001422);
		}
		const refused = await call(`${MEMBER}/me/nickname`, {
			method: 'PUT',
			cookie,
			body: { nickname: 'x' },
			headers: { 'cf-connecting-ip': '203.0.113.200' },
		});
		expect(refused.code).toBe(-4291401);
		// Another member at the same address is not held back by this one.
		const other = await call(`${MEMBER}/me/nickname`, {
			method: 'PUT',
			cookie: await signIn(1012),
			body: { nickname: 'x' },
			headers: { 'cf-connecting-ip': '203.0.113.200' },
		});
		expect(other.code).toBe(-4001422);
	});

	it('limits the sign-up steps and the view beacon per client address', async () => {
		const signup = await startSignup('rate-limited-newcomer');
		const codes = await burst(LIMITERS.RATE_LIMIT_STRICT.limit + 1, `${MEMBER}/signup/terms`, {
			method: 'POST',
			cookie: signup,
			body: { terms: true, privacy: true },
			ip: '198.51.100.9',
		});
		expect(codes.at(-1)).toBe(-4291401);
		expect(codes.slice(0, -1).every((code) => code === 0)).toBe(true);
		const views = await burst(LIMITERS.RATE_LIMIT_VIEW.limit + 1, `${PUBLIC}/posts/1/views`, { method: 'POST', ip: '198.51.100.10' });
		expect(views.slice(0, -1).every((code) => code === 0)).toBe(true);
		expect(views.at(-1)).toBe(-4291401);
	});
});

describe('the nickname cooldown', () => {
	it(`allows one change every ${NICKNAME_CHANGE_COOLDOWN_DAYS} days, and says when the next one is possible`, async () => {
		const { cookie } = await signUp('cooldown-member', 'CoolFirst');
		expect((await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'CoolSecond' } })).code).toBe(0);
		const refused = await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'CoolThird' } });
		expect(refused.status).toBe(429);
		expect(refused.code).toBe(-4291421);
		const retryAt = refused.body['retryAt'] as number;
		expect(retryAt).toBeGreaterThan(Date.now() + (NICKNAME_CHANGE_COOLDOWN_DAYS - 1) * DAY);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan((NICKNAME_CHANGE_COOLDOWN_DAYS - 1) * 86_400);
		// The name held stays the second one, and the third is still free for anyone.
		expect((await call(`${PUBLIC}/auth/status`, { cookie })).body['user']).toMatchObject({ nickname: 'CoolSecond' });
	});

	it('lets the change through once the cooldown has passed', async () => {
		const { userId } = await signUp('patient-member', 'PatientOne');
		const member = { userId, nickname: 'PatientOne', role: 'MEMBER', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 } as const;
		await changeNickname(env.DB, 1, member, 'PatientTwo');
		await expect(changeNickname(env.DB, 1, { ...member, nickname: 'PatientTwo' }, 'PatientThree', Date.now() + DAY)).rejects.toMatchObject({
			codeName: 'NicknameChangeTooSoon',
		});
		expect(
			await changeNickname(env.DB, 1, { ...member, nickname: 'PatientTwo' }, 'PatientThree', Date.now() + NICKNAME_CHANGE_COOLDOWN_DAYS * DAY + 1000),
		).toBe('PatientThree');
	});

	it('holds under two changes racing each other: one wins, one active name', async () => {
		const { cookie, userId } = await signUp('racing-member', 'RacerStart');
		const [a, b] = await Promise.all([
			call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'RacerLeft' } }),
			call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'RacerRight' } }),
		]);
		expect([a.code, b.code].sort()).toEqual([-4291421, 0]);
		const active = await env.DB.prepare('SELECT count(*) AS n FROM nickname_claims WHERE member_id = ?1 AND released_at IS NULL')
			.bind(userId)
			.first('n');
		expect(active).toBe(1);
	});
});

describe('two sign-ups of one identity', () => {
	it('racing each other leave one membership with one active nickname', async () => {
		const first = await startSignup('twin-tabs');
		const second = await startSignup('twin-tabs');
		for (const cookie of [first, second]) await call(`${MEMBER}/signup/terms`, { method: 'POST', cookie, body: { terms: true, privacy: true } });
		const [a, b] = await Promise.all([
			call(`${MEMBER}/signup`, { method: 'POST', cookie: first, body: { nickname: 'TwinLeft' } }),
			call(`${MEMBER}/signup`, { method: 'POST', cookie: second, body: { nickname: 'TwinRight' } }),
		]);
		expect([a.code, b.code].sort()).toEqual([-4091401, 0]);
		const members = await env.DB.prepare(
			"SELECT m.id FROM members m JOIN identities i ON i.id = m.identity_id WHERE i.subject = 'twin-tabs' AND m.channel_id = 1",
		).all<{ id: number }>();
		expect(members.results.length).toBe(1);
		const claims = await env.DB.prepare('SELECT nickname FROM nickname_claims WHERE member_id = ?1 AND released_at IS NULL')
			.bind(members.results[0]?.id)
			.all();
		expect(claims.results.length).toBe(1);
	});

	it('one after the other: the second is refused and claims nothing', async () => {
		const first = await startSignup('late-twin');
		const second = await startSignup('late-twin');
		for (const cookie of [first, second]) await call(`${MEMBER}/signup/terms`, { method: 'POST', cookie, body: { terms: true, privacy: true } });
		expect((await call(`${MEMBER}/signup`, { method: 'POST', cookie: first, body: { nickname: 'LateFirst' } })).code).toBe(0);
		expect((await call(`${MEMBER}/signup`, { method: 'POST', cookie: second, body: { nickname: 'LateSecond' } })).code).toBe(-4091401);
		expect(await env.DB.prepare("SELECT count(*) AS n FROM nickname_claims WHERE nickname = 'LateSecond'").first('n')).toBe(0);
	});

	it('a sign-up that ran out before its batch creates nothing', async () => {
		const cookie = await startSignup('vanishing-newcomer');
		await call(`${MEMBER}/signup/terms`, { method: 'POST', cookie, body: { terms: true, privacy: true } });
		const signup = await findSignup(env.DB, 1, cookie.split('=')[1] ?? null);
		if (!signup) throw new Error('no sign-up');
		await env.DB.prepare('DELETE FROM signups WHERE token_hash = ?1').bind(signup.tokenHash).run();
		await expect(completeSignup(env.DB, 1, signup, 'Vanished', TEST_SECRET)).rejects.toMatchObject({ codeName: 'SignupExpired' });
		expect(await env.DB.prepare("SELECT count(*) AS n FROM nickname_claims WHERE nickname = 'Vanished'").first('n')).toBe(0);
	});
});

describe('session cookies', () => {
	it('refuses a made-up or foreign token without a D1 query', async () => {
		for (const token of [
			'forged',
			`${'a'.repeat(43)}.${'b'.repeat(43)}`,
			await mintSessionToken('another-deployment-secret-0123456789', 1),
			await mintSessionToken(TEST_SECRET, 2),
		]) {
			const { db, statements } = recordingDb();
			expect((await resolveSession(db, 1, token, TEST_SECRET)).kind).toBe('revoked');
			expect(statements).toEqual([]);
		}
	});

	it('keeps only the hash of a minted token in D1, and a minted token of a gone session asks D1 once', async () => {
		const token = (await signIn(1013)).split('=')[1] ?? '';
		expect(
			await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE token_hash = ?1')
				.bind(await hashToken(token))
				.first('n'),
		).toBe(1);
		await env.DB.prepare('DELETE FROM sessions WHERE token_hash = ?1')
			.bind(await hashToken(token))
			.run();
		const { db, statements } = recordingDb();
		expect((await resolveSession(db, 1, token, TEST_SECRET)).kind).toBe('revoked');
		expect(statements.length).toBe(1);
	});

	it('reads only the __Host- name on https and loopback, and the plain name only on plain http', async () => {
		const token = (await signIn(1014)).split('=')[1] ?? '';
		const status = async (origin: string, name: string) =>
			(await call(`${origin}/public/v1/starfall/global/auth/status`, { cookie: `${name}=${token}`, headers: { origin } })).body['user'];
		expect(await status('https://board.example', sessionCookie())).toMatchObject({ userId: 1014 });
		expect(await status('https://board.example', 'session_starfall_global')).toBeUndefined();
		expect(await status('http://localhost', 'session_starfall_global')).toBeUndefined();
		expect(await status('http://192.168.1.20', 'session_starfall_global')).toMatchObject({ userId: 1014 });
		expect(await status('http://192.168.1.20', sessionCookie())).toBeUndefined();
	});
});

describe('request bodies', () => {
	/** A body sent as a stream, without a Content-Length, of `bytes` bytes. */
	function streamed(bytes: number): ReadableStream<Uint8Array> {
		let sent = 0;
		return new ReadableStream({
			pull(controller) {
				const chunk = Math.min(4096, bytes - sent);
				if (chunk <= 0) return controller.close();
				controller.enqueue(new TextEncoder().encode('a'.repeat(chunk)));
				sent += chunk;
			},
		});
	}

	it('refuses a JSON body over the limit while reading it, without a Content-Length', async () => {
		const cookie = await signIn(1015);
		const response = await api.request(`${MEMBER}/me/nickname`, {
			method: 'PUT',
			headers: { origin: ORIGIN, cookie, 'content-type': 'application/json' },
			body: streamed(1024 * 1024),
			duplex: 'half',
		} as RequestInit);
		expect(response.status).toBe(413);
		expect(((await response.json()) as { header: { resultCode: number } }).header.resultCode).toBe(-4131401);
	});

	it('refuses an oversized provider return (the Origin-exempt route) before reading it', async () => {
		const response = await signInCallback.request('http://localhost/starfall/global/oauth', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: streamed(1024 * 1024),
			duplex: 'half',
		} as RequestInit);
		expect(response.status).toBe(413);
	});
});
