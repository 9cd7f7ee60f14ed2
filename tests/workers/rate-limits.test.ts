/**
 * Who the rate limits count (src/server/platform/rate-limit.ts, docs/reference/rate-limits.md): a signed-in
 * member by the member, with a ceiling per client address ten times theirs; the address alone only
 * where nobody is signed in; an IPv6 client by its /64. And the read limits: searches and profiles
 * that reach D1 are counted per member and per address, while a guest's edge-cache hit is not.
 *
 * The limiters are Cloudflare's Rate Limiting bindings as miniflare emulates them, with the limits
 * of wrangler.toml. Their windows follow the clock, so a window may end in the middle of a burst:
 * a burst therefore goes on until the refusal comes (at most three windows' worth), and asserts
 * that nothing within the budget was refused.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { api } from '@functions/api/app';
import { withEdgeCache } from '@functions/shell/edge-cache';
import {
	clientKey,
	enforceRateLimit,
	limitersOf,
	LIMITERS,
	RATE_LIMITS,
	type RateLimitedAction,
	type RateLimitSubject,
} from '@/server/platform/rate-limit';
import { AppError } from '@/server/platform/errors';
import { call, memberApi, postWhere, publicApi, signIn, startOfRateWindow, ORIGIN, type Answer } from './harness';

const PUBLIC = publicApi();
const MEMBER = memberApi();
const TOO_MANY = -4291401;

beforeEach(startOfRateWindow);

/** Sends `send()` until it answers TooManyRequests (at most three windows' worth); returns the codes in order. */
async function untilRefused(budget: number, send: (i: number) => Promise<Answer>): Promise<Answer[]> {
	const answers: Answer[] = [];
	while (answers.length < 3 * budget + 1 && answers.at(-1)?.code !== TOO_MANY) answers.push(await send(answers.length));
	return answers;
}

/** Counts `action` of `subject` on the real limiters until it is refused; returns how many passed. */
async function exhaust(action: RateLimitedAction, subject: RateLimitSubject, budget: number): Promise<number> {
	const limiters = limitersOf(env);
	for (let passed = 0; passed < 3 * budget + 1; passed += 1) {
		const refused = await enforceRateLimit(limiters, action, subject).then(
			() => false,
			(error: unknown) => error instanceof AppError && error.codeName === 'TooManyRequests',
		);
		if (refused) return passed;
	}
	throw new Error(`${action} was never refused`);
}

describe('client addresses', () => {
	it('count an IPv6 client by its /64 and an IPv4 client by its address', () => {
		expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
		expect(clientKey('2001:0DB8:0001:0002:ffff::9')).toBe('2001:db8:1:2::/64');
		expect(clientKey('2001:db8:1:2::')).toBe('2001:db8:1:2::/64');
		expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
		expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
		expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
		expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
		expect(clientKey('203.0.113.10')).not.toBe(clientKey('203.0.113.9'));
		expect(clientKey(null)).toBe('unknown');
		// Not an address (CF-Connecting-IP always is one on Cloudflare): kept as sent, cut short.
		expect(clientKey('1:2:3:4:5:6:7:8:9')).toBe('1:2:3:4:5:6:7:8:9');
		expect(clientKey('x'.repeat(500))).toBe('x'.repeat(64));
	});

	it('share one budget across a /64, and not with the next /64', async () => {
		const { limit } = LIMITERS[RATE_LIMITS.signIn.address];
		const start = (ip: string) =>
			call(`${PUBLIC}/oauth/login`, { method: 'POST', body: { provider: 'GOOGLE' }, headers: { 'cf-connecting-ip': ip } });
		// Each request from another address of the same /64.
		const answers = await untilRefused(limit, (i) => start(`2001:db8:aa:1:${(i + 1).toString(16)}::${(i * 7 + 1).toString(16)}`));
		expect(answers.slice(0, limit).every((answer) => answer.code !== TOO_MANY)).toBe(true);
		expect(answers.at(-1)?.code).toBe(TOO_MANY);
		expect((await start('2001:db8:aa:2::1')).code).not.toBe(TOO_MANY);
	});
});

describe('members behind one address', () => {
	it('each get their full budget: the likes of one member do not use up the first like of another', async () => {
		const { limit } = LIMITERS[RATE_LIMITS.like.member];
		const ip = '203.0.113.60';
		const postId = await postWhere(
			'deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND board_id IN (SELECT id FROM boards WHERE is_public = 1)',
		);
		const busy = await signIn(1005);
		for (let i = 0; i < limit; i += 1) {
			const answer = await call(`${MEMBER}/posts/${postId}/like`, {
				method: i % 2 === 0 ? 'PUT' : 'DELETE',
				cookie: busy,
				headers: { 'cf-connecting-ip': ip },
			});
			expect(answer.code).not.toBe(TOO_MANY);
		}
		// The old per-address key would refuse this one: the address had its 30 likes this minute.
		const newcomer = await call(`${MEMBER}/posts/${postId}/like`, { method: 'PUT', cookie: await signIn(1006), headers: { 'cf-connecting-ip': ip } });
		expect(newcomer.code).toBe(0);
	});

	it('each get their full budget, and a member past theirs is refused whatever address they use', async () => {
		const { limit } = LIMITERS[RATE_LIMITS.nickname.member];
		const ip = '203.0.113.61';
		const attempt = (cookie: string, from = ip) =>
			call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'x' }, headers: { 'cf-connecting-ip': from } });
		const [first, second] = [await signIn(1007), await signIn(1008)];
		// Each is refused only past their own budget (the nickname 'x' is refused after the count, with no D1 query).
		const firsts = await untilRefused(limit, () => attempt(first));
		const seconds = await untilRefused(limit, () => attempt(second));
		for (const answers of [firsts, seconds]) {
			expect(answers.slice(0, limit).map((answer) => answer.code)).toEqual(new Array(limit).fill(-4001422));
			expect(answers.at(-1)?.code).toBe(TOO_MANY);
		}
		// One member from many addresses: still their one budget.
		const third = await signIn(1009);
		const wandering = await untilRefused(limit, (i) => attempt(third, `198.51.100.${100 + i}`));
		expect(wandering.slice(0, limit).every((answer) => answer.code === -4001422)).toBe(true);
		expect(wandering.at(-1)?.code).toBe(TOO_MANY);
		expect(wandering.at(-1)?.headers.get('retry-after')).toBe('60');
	});

	it('share a ceiling ten times the budget of a member, which holds however many members come from it', async () => {
		for (const action of [
			'nickname',
			'post',
			'comment',
			'like',
			'report',
			'upload',
			'draft',
			'account',
			'moderation',
			'export',
			'search',
			'profile',
		] as const) {
			const rule: { member?: keyof typeof LIMITERS; address: keyof typeof LIMITERS } = RATE_LIMITS[action];
			expect(rule.member, action).toBeDefined();
			expect(LIMITERS[rule.address].limit, action).toBe(10 * LIMITERS[rule.member ?? rule.address].limit);
		}
		const rule = RATE_LIMITS.nickname;
		const memberLimit = LIMITERS[rule.member].limit;
		const ceiling = LIMITERS[rule.address].limit;
		const limiters = limitersOf(env);
		const ip = '203.0.113.62';
		// Members 1..n of one address, each within their own budget, until the address is refused.
		let passed = 0;
		let refused: unknown = null;
		for (let memberId = 900_001; refused === null && passed < 3 * ceiling + 1; memberId += 1) {
			for (let i = 0; i < memberLimit && refused === null; i += 1) {
				refused = await enforceRateLimit(limiters, 'nickname', { channelId: 1, memberId, ip }).then(
					() => null,
					(error: unknown) => error,
				);
				if (refused === null) passed += 1;
			}
		}
		expect(refused).toBeInstanceOf(AppError);
		expect((refused as AppError).codeName).toBe('TooManyRequests');
		expect(passed).toBeGreaterThanOrEqual(ceiling);
		// Another address is not held back by it.
		await enforceRateLimit(limiters, 'nickname', { channelId: 1, memberId: 999_999, ip: '203.0.113.63' });
	});

	it('where nobody is signed in (starting a sign-in, the sign-up steps), the address alone counts, at the member limit', () => {
		for (const action of ['signIn', 'signInReturn', 'signup'] as const) {
			expect('member' in RATE_LIMITS[action], action).toBe(false);
			expect(LIMITERS[RATE_LIMITS[action].address].limit).toBe(LIMITERS.RATE_LIMIT_STRICT.limit);
		}
	});
});

/** A guest's API read from `ip` through the edge cache, with the real API behind it. */
async function guestRead(path: string, ip: string) {
	const ctx = createExecutionContext();
	const response = await withEdgeCache(new Request(`${ORIGIN}${path}`, { headers: { 'cf-connecting-ip': ip } }), env.DB, ctx, async (request) =>
		api.request(request),
	);
	const body = await response.text();
	await waitOnExecutionContext(ctx);
	return { status: response.status, state: response.headers.get('x-edge-cache'), retryAfter: response.headers.get('retry-after'), body };
}

describe('read limits', () => {
	it('count the searches of a member, answer -4291401 with Retry-After past them, and spare others at the address', async () => {
		const { limit, periodSeconds } = LIMITERS[RATE_LIMITS.search.member];
		const ip = '203.0.113.70';
		const cookie = await signIn(1010);
		const search = (q: string, who = cookie) =>
			call(`${PUBLIC}/search?q=${encodeURIComponent(q)}`, { cookie: who, headers: { 'cf-connecting-ip': ip } });
		// A keyword the API refuses reads nothing and is not counted.
		for (let i = 0; i < limit; i += 1) expect((await search('x')).code).toBe(-4001400);
		const answers = await untilRefused(limit, (i) => search(`term${i}`));
		expect(answers.slice(0, limit).every((answer) => answer.code === 0)).toBe(true);
		const refused = answers.at(-1);
		expect(refused?.status).toBe(429);
		expect(refused?.code).toBe(TOO_MANY);
		expect(refused?.headers.get('retry-after')).toBe(String(periodSeconds));
		expect((await search('term-other', await signIn(1011))).code).toBe(0);
	});

	it('count the profile reads of a member, page and list alike', async () => {
		const { limit } = LIMITERS[RATE_LIMITS.profile.member];
		const cookie = await signIn(1012);
		const answers = await untilRefused(limit, (i) =>
			call(`${PUBLIC}/users/1002${i % 2 ? '/posts' : ''}`, { cookie, headers: { 'cf-connecting-ip': `198.51.100.${i % 200}` } }),
		);
		expect(answers.slice(0, limit).every((answer) => answer.code === 0)).toBe(true);
		expect(answers.at(-1)?.code).toBe(TOO_MANY);
	});

	it('never count an edge-cache hit of a guest, and refuse a miss past the limit of the address without storing the refusal', async () => {
		const ip = '203.0.113.71';
		const read = (path: string) => guestRead(path, ip);
		const cached = '/public/v1/starfall/global/search?q=star';
		expect((await read(cached)).state).toBe('MISS');
		for (let attempt = 0; ; attempt += 1) {
			// The address's search budget used up (the limiters' own calls: no D1).
			expect(await exhaust('search', { channelId: 1, memberId: null, ip }, LIMITERS[RATE_LIMITS.search.address].limit)).toBeGreaterThan(0);
			// A hit is served, not counted and not refused.
			const hit = await read(cached);
			expect(hit.status).toBe(200);
			expect(hit.state).toBe('HIT');
			// A miss reaches the Worker, which refuses it before D1; the refusal is not stored.
			const miss = await read(`/public/v1/starfall/global/search?q=new${attempt}`);
			// Only a window that ended between the two lines lets it through: then again.
			if (miss.status === 429 || attempt === 2) {
				expect(miss.status).toBe(429);
				expect(miss.state).toBe('BYPASS');
				expect(miss.retryAfter).toBe('60');
				expect(JSON.parse(miss.body).header.resultCode).toBe(TOO_MANY);
				break;
			}
		}
	});
	it("count a post's reads that reach D1 per address: made-up post ids use up the budget and are refused past it, and a cached post is still served", async () => {
		const { limit, periodSeconds } = LIMITERS[RATE_LIMITS.postRead.address];
		const ip = '203.0.113.73';
		// It counts up to the limit: the window must not turn mid-way.
		await startOfRateWindow();
		const postId = await postWhere(
			'deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND board_id IN (SELECT id FROM boards WHERE is_public = 1)',
		);
		const posts = '/public/v1/starfall/global/posts';
		expect((await guestRead(`${posts}/${postId}`, ip)).state).toBe('MISS');
		// Each made-up id is a new key, so a miss that reads D1: each is counted.
		for (let i = 0; i < 10; i += 1) expect((await guestRead(`${posts}/${800_000_000 + i}`, ip)).status).toBe(404);
		// What the address has left this minute (the limiter's own calls: no D1): the budget less those eleven reads.
		expect(await exhaust('postRead', { channelId: 1, memberId: null, ip }, limit)).toBeLessThanOrEqual(limit - 11);
		// Past it, a made-up id is refused before D1, and the refusal is not stored; so is a made-up post's comments read.
		const refused = await guestRead(`${posts}/800000100`, ip);
		expect([refused.status, refused.state, refused.retryAfter]).toEqual([429, 'BYPASS', String(periodSeconds)]);
		expect(JSON.parse(refused.body).header.resultCode).toBe(TOO_MANY);
		expect((await guestRead(`${posts}/800000100/comments?after=1`, ip)).status).toBe(429);
		// The cached post is a hit, not counted and not refused; another address is not held back.
		expect((await guestRead(`${posts}/${postId}`, ip)).state).toBe('HIT');
		expect((await guestRead(`${posts}/800000100`, '203.0.113.74')).status).toBe(404);
	});
});
