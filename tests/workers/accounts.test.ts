/**
 * Sessions, sign-up, nickname, logout, withdrawal and bans through the API, inside workerd on the
 * demo D1. A sign-in is made the way the providers' return makes it (signInIdentity), so the
 * OAuth exchange itself is left to the browser tests against the local provider.
 */
import { describe, expect, it } from 'vitest';
import { api } from '@functions/api/app';
import {
	call,
	memberApi,
	publicApi,
	sessionCookie,
	signIn,
	signInDatabases,
	signInSubject,
	signUp,
	startSignup,
	ORIGIN,
	TEST_SECRET,
} from './harness';
import { communityDb, inCommunityRange, inLayout, LAYOUTS } from './layouts';
import { signInIdentity } from '@/server/accounts/signup';
import type { Provider } from '@/schemas/channel';
import { banMember, unbanMember } from '@/server/members/bans';
import { resolveSession, SESSION_IDLE_MS, SESSION_MAX_MS } from '@/server/sign-in/sessions';
import { hashToken } from '@/server/platform/tokens';

const PUBLIC = publicApi();
const MEMBER = memberApi();
const SESSION = sessionCookie();
const SIGNUP = '__Host-signup_starfall_global';

/** A provider's return to /starfall/global for `subject`, in the databases the community's layout has. */
const returnOf = async (provider: Provider, subject: string) =>
	signInIdentity(await signInDatabases(1), 1, { provider, subject }, '/starfall/global', TEST_SECRET);

describe('auth status', () => {
	it('has no user for a guest', async () => {
		const answer = await call(`${PUBLIC}/auth/status`);
		expect(answer.code).toBe(0);
		expect(answer.body['user']).toBeUndefined();
	});

	it('has the user for a signed-in member', async () => {
		const answer = await call(`${PUBLIC}/auth/status`, { cookie: await signIn(1002) });
		expect(answer.body['user']).toEqual({ userId: 1002, nickname: expect.any(String) });
	});

	it('says the session ended to a browser that holds a user id but no session', async () => {
		expect((await call(`${PUBLIC}/auth/status`, { headers: { 'x-user-id': '1002' } })).code).toBe(-4011402);
	});

	it('says the session was revoked for an unknown session cookie, and clears the cookie', async () => {
		const answer = await call(`${PUBLIC}/auth/status`, { cookie: `${SESSION}=forged-token` });
		expect(answer.code).toBe(-4011415);
		expect(answer.cookies.join()).toMatch(new RegExp(`${SESSION}=;.*Max-Age=0`));
	});

	it('does not take a session of another channel', async () => {
		const cookie = await signIn(1002);
		const token = cookie.split('=')[1];
		const answer = await call(`${ORIGIN}/public/v1/starfall/kr/auth/status`, { cookie: `__Host-session_starfall_kr=${token}` });
		expect(answer.code).toBe(-4011415);
	});
});

describe('sessions', () => {
	it('keeps only the hash of the token in D1', async () => {
		const cookie = await signIn(1003);
		const token = cookie.split('=')[1] ?? '';
		expect(token.length).toBeGreaterThanOrEqual(43);
		const stored = await communityDb()
			.prepare('SELECT token_hash FROM sessions WHERE token_hash = ?1')
			.bind(await hashToken(token))
			.first();
		expect(stored).not.toBeNull();
		expect(await communityDb().prepare('SELECT count(*) AS n FROM sessions WHERE token_hash = ?1').bind(token).first('n')).toBe(0);
	});

	it('gives every sign-in a new session', async () => {
		expect(await signIn(1003)).not.toBe(await signIn(1003));
	});

	it('ends after the idle time without use', async () => {
		const token = (await signIn(1004)).split('=')[1] ?? null;
		expect((await resolveSession(communityDb(), 1, token, TEST_SECRET, Date.now() + SESSION_IDLE_MS - 60_000)).kind).toBe('member');
		expect((await resolveSession(communityDb(), 1, token, TEST_SECRET, Date.now() + SESSION_IDLE_MS + 60_000 * 61)).kind).toBe('member');
		expect((await resolveSession(communityDb(), 1, token, TEST_SECRET, Date.now() + 2 * SESSION_IDLE_MS + 60_000 * 62)).kind).toBe('expired');
		expect((await resolveSession(communityDb(), 1, token, TEST_SECRET)).kind).toBe('revoked');
	});

	it("records its use at most hourly, after the answer and in no round trip of the answer's", async () => {
		const cookie = await signIn(1007);
		const hash = await hashToken(cookie.split('=')[1] ?? '');
		const lastSeen = () => communityDb().prepare('SELECT last_seen_at FROM sessions WHERE token_hash = ?1').bind(hash).first<number>('last_seen_at');
		const longAgo = Date.now() - 2 * 60 * 60 * 1000;
		await communityDb().prepare('UPDATE sessions SET last_seen_at = ?2 WHERE token_hash = ?1').bind(hash, longAgo).run();
		const first = await call(`${MEMBER}/me`, { cookie });
		expect(first.code).toBe(0);
		expect([first.trips.count, first.trips.depth]).toEqual([1, 1]);
		await expect.poll(lastSeen).toBeGreaterThan(longAgo);
		const recorded = await lastSeen();
		// Within the hour, a request writes nothing.
		const second = await call(`${MEMBER}/me`, { cookie });
		expect([second.trips.count, second.trips.depth]).toEqual([1, 1]);
		expect(await lastSeen()).toBe(recorded);
	});

	it('ends at the absolute limit however active', async () => {
		const token = (await signIn(1004)).split('=')[1] ?? null;
		await communityDb()
			.prepare('UPDATE sessions SET idle_expires_at = ?2 WHERE token_hash = ?1')
			.bind(await hashToken(token ?? ''), Date.now() + 10 * SESSION_MAX_MS)
			.run();
		expect((await resolveSession(communityDb(), 1, token, TEST_SECRET, Date.now() + SESSION_MAX_MS + 1000)).kind).toBe('expired');
	});

	it('ends on logout: the old cookie is refused afterwards', async () => {
		const cookie = await signIn(1005);
		const out = await call(`${MEMBER}/auth/logout`, { method: 'POST', cookie });
		expect(out.code).toBe(0);
		expect(out.cookies.join()).toMatch(new RegExp(`${SESSION}=;.*Max-Age=0`));
		expect((await call(`${PUBLIC}/auth/status`, { cookie })).code).toBe(-4011415);
		expect((await call(`${MEMBER}/me`, { cookie })).code).toBe(-4011415);
	});

	it('refuses member actions without a session', async () => {
		expect((await call(`${MEMBER}/me`)).code).toBe(-4011401);
		expect((await call(`${MEMBER}/me/nickname`, { method: 'PUT', body: { nickname: 'Nobody' } })).code).toBe(-4011401);
	});
});

describe('mutations', () => {
	it('refuses a request from another site and changes nothing', async () => {
		const cookie = await signIn(1006);
		const answer = await call(`${MEMBER}/auth/logout`, { method: 'POST', cookie, headers: { origin: 'https://evil.example' } });
		expect(answer.status).toBe(403);
		expect(answer.code).toBe(-4031401);
		expect((await call(`${PUBLIC}/auth/status`, { cookie })).body['user']).toBeDefined();
	});

	it('refuses a cross-site request without an Origin', async () => {
		const cookie = await signIn(1006);
		const response = await api.request(`${MEMBER}/auth/logout`, { method: 'POST', headers: { cookie, 'sec-fetch-site': 'cross-site' } });
		expect(response.status).toBe(403);
	});

	it.each(['/auth/logout', '/me/withdrawal', '/signup/terms', '/signup'])('answers 405 to GET %s', async (path) => {
		const answer = await call(`${MEMBER}${path}`);
		expect(answer.status).toBe(405);
		expect(answer.code).toBe(-4051401);
	});

	it('answers 405 to GET oauth/login', async () => {
		expect((await call(`${PUBLIC}/oauth/login`)).status).toBe(405);
	});

	it.each([
		['a non-JSON body', { body: 'nickname=x', headers: { 'content-type': 'text/plain' } }, -4151401],
		['malformed JSON', { body: '{"nickname":', headers: {} }, -4001405],
		['a huge body', { body: JSON.stringify({ nickname: 'x'.repeat(20_000) }), headers: {} }, -4131401],
		['an unknown field', { body: { nickname: 'Fine01', role: 'ADMIN' }, headers: {} }, -4001400],
		['a wrong type', { body: { nickname: 42 }, headers: {} }, -4001400],
		['an array', { body: [1, 2], headers: {} }, -4001400],
	])('refuses %s with a clear error', async (_, request, code) => {
		const cookie = await signIn(1007);
		const answer = await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, ...request });
		expect(answer.code).toBe(code);
		expect(answer.status).toBeLessThan(500);
	});
});

describe.each(LAYOUTS)('$name', (layout) => {
	inLayout(layout);

	describe('sign-up', () => {
		it('needs both agreements, then a nickname by the rules, then signs the new member in', async () => {
			const signup = await startSignup('new-member-1');
			expect((await call(`${MEMBER}/signup`, { method: 'POST', cookie: signup, body: { nickname: 'FreshPilot' } })).code).toBe(-4001426);
			expect((await call(`${MEMBER}/signup/terms`, { method: 'POST', cookie: signup, body: { terms: true, privacy: false } })).code).toBe(-4001426);
			expect((await call(`${MEMBER}/signup/terms`, { method: 'POST', cookie: signup, body: { terms: true, privacy: true } })).code).toBe(0);
			expect((await call(`${MEMBER}/signup`, { method: 'POST', cookie: signup, body: { nickname: 'star [1]' } })).code).toBe(-4001423);
			const taken = await communityDb().prepare('SELECT nickname FROM members WHERE id = 1003').first<{ nickname: string }>();
			expect((await call(`${MEMBER}/signup`, { method: 'POST', cookie: signup, body: { nickname: taken?.nickname.toUpperCase() } })).code).toBe(
				-4091421,
			);
			const done = await call(`${MEMBER}/signup`, { method: 'POST', cookie: signup, body: { nickname: 'FreshPilot' } });
			expect(done.code).toBe(0);
			expect(done.body['content']).toMatchObject({ redirectUrl: '/starfall/global/boards/12', user: { nickname: 'FreshPilot' } });
			const { userId } = (done.body['content'] as { user: { userId: number } }).user;
			expect(userId, 'an id in the range of its database').toSatisfy((id: number) => inCommunityRange('members', id));
			const session = done.cookies.find((value) => value.startsWith(`${SESSION}=`)) ?? '';
			expect(session).toMatch(/HttpOnly/);
			expect(session).toMatch(/Secure/);
			expect(session).toMatch(/SameSite=Lax/);
			expect(session).toMatch(/Path=\//);
			expect(session).not.toMatch(/Domain=/);
			expect(done.cookies.join()).toMatch(new RegExp(`${SIGNUP}=;.*Max-Age=0`));
			const status = await call(`${PUBLIC}/auth/status`, { cookie: session.split(';')[0] ?? '' });
			expect(status.body['user']).toMatchObject({ nickname: 'FreshPilot' });
			// The sign-up cannot be used twice.
			expect((await call(`${MEMBER}/signup`, { method: 'POST', cookie: signup, body: { nickname: 'SecondTry' } })).code).toBe(-4011417);
		});

		it('keeps a returning member out of sign-up', async () => {
			const outcome = await returnOf('GOOGLE', 'demo-starfall-global-2');
			expect(outcome.kind).toBe('member');
		});

		it('never merges identities of two providers with the same subject', async () => {
			const google = await signUp('shared-subject', 'GoogleOne');
			const apple = await returnOf('APPLE', 'shared-subject');
			expect(apple.kind).toBe('signup');
			expect(google.userId).toBeGreaterThan(0);
		});
	});

	describe('nickname change', () => {
		it('applies the rules, refuses the current and taken names, and retires the old one for good', async () => {
			const { cookie } = await signUp('nick-changer', 'FirstName');
			const version = async () =>
				(await communityDb().prepare('SELECT content_version AS v FROM channels WHERE id = 1').first<{ v: number }>())?.v ?? 0;
			const put = (nickname: string, as = cookie) => call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie: as, body: { nickname } });
			expect((await put('')).code).toBe(-4001421);
			expect((await put('x')).code).toBe(-4001422);
			expect((await put('a🚀b')).code).toBe(-4001423);
			expect((await put('FirstName')).code).toBe(-4001425);
			expect((await put('ＦＩＲＳＴname')).code).toBe(-4001425);
			expect((await put('GoogleOne')).code).toBe(-4091421);
			const before = await version();
			expect((await put('SecondName')).code).toBe(0);
			expect(await version()).toBe(before + 1);
			expect((await put('FirstName')).code).toBe(-4001424);
			const other = await signUp('nick-thief', 'ThiefName');
			expect((await put('firstname', other.cookie)).code).toBe(-4091421);
		});
	});

	describe('withdrawal', () => {
		it('needs the checkbox, then unlinks the identity, retires the nickname and ends every session', async () => {
			const { cookie, userId } = await signUp('leaver', 'LeavingSoon');
			const second = await signInSubject('leaver');
			expect((await call(`${MEMBER}/me/withdrawal`, { method: 'POST', cookie, body: { agree: false } })).code).toBe(-4001427);
			expect((await call(`${MEMBER}/me/withdrawal`, { method: 'POST', cookie, body: { agree: true } })).code).toBe(0);
			const row = await communityDb().prepare('SELECT identity_id, nickname, withdrawn_at FROM members WHERE id = ?1').bind(userId).first();
			expect(row).toMatchObject({ identity_id: null, nickname: null, withdrawn_at: expect.any(Number) });
			expect((await call(`${PUBLIC}/auth/status`, { cookie: second })).code).toBe(-4011415);
			expect(await communityDb().prepare('SELECT count(*) AS n FROM sessions WHERE member_id = ?1').bind(userId).first('n')).toBe(0);
			// Signing in again starts a new membership; the old nickname stays retired.
			const again = await startSignup('leaver');
			await call(`${MEMBER}/signup/terms`, { method: 'POST', cookie: again, body: { terms: true, privacy: true } });
			expect((await call(`${MEMBER}/signup`, { method: 'POST', cookie: again, body: { nickname: 'LeavingSoon' } })).code).toBe(-4091421);
		});
	});

	describe('bans', () => {
		it('keep the sessions, answer every request but a read with -4031452, and lift by themselves at the end', async () => {
			const before = await signIn(1009);
			const endsAt = Date.now() + 3_600_000;
			await banMember(communityDb(), 1, 1009, { kind: 'TEMPORARY', endsAt, reason: 'test' });
			// The session stays: the member is told of the ban, not asked to log in (docs/reference/moderation.md#a-banned-member).
			expect((await call(`${PUBLIC}/auth/status`, { cookie: before })).code).toBe(-4031452);
			const cookie = await signIn(1009);
			const status = await call(`${PUBLIC}/auth/status`, { cookie });
			expect(status.status).toBe(403);
			expect(status.code).toBe(-4031452);
			expect(status.body['ban']).toEqual({ kind: 'TEMPORARY', endsAt, reason: 'test' });
			expect((await call(`${PUBLIC}/boards`, { cookie })).code).toBe(0);
			expect((await call(`${MEMBER}/me`, { cookie })).code).toBe(-4031452);
			expect((await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'Evader01' } })).code).toBe(-4031452);
			// No way around a ban by withdrawing and joining again.
			expect((await call(`${MEMBER}/me/withdrawal`, { method: 'POST', cookie, body: { agree: true } })).code).toBe(-4031452);
			const token = cookie.split('=')[1] ?? null;
			expect((await resolveSession(communityDb(), 1, token, TEST_SECRET, endsAt + 1)).kind).toBe('member');
			await unbanMember(communityDb(), 1, 1009);
			expect((await call(`${PUBLIC}/auth/status`, { cookie })).code).toBe(0);
			expect((await call(`${MEMBER}/auth/logout`, { method: 'POST', cookie })).code).toBe(0);
		});

		it('shows a permanent ban without an end', async () => {
			const cookie = await signIn(1039);
			const status = await call(`${PUBLIC}/auth/status`, { cookie });
			expect(status.body['ban']).toMatchObject({ kind: 'PERMANENT', endsAt: null });
		});
	});
});

describe('oauth/login', () => {
	it('refuses a provider the channel does not offer', async () => {
		const answer = await call(`${ORIGIN}/public/v1/pixelfarm/main/oauth/login`, { method: 'POST', body: { provider: 'X' } });
		expect(answer.code).toBe(-4001428);
	});

	it('says so when the deployment has not configured the provider', async () => {
		const answer = await call(`${PUBLIC}/oauth/login`, { method: 'POST', body: { provider: 'GOOGLE', redirectUrl: '/starfall/global' } });
		expect(answer.status).toBe(503);
		expect(answer.code).toBe(-5031401);
	});

	it('refuses an unknown provider name', async () => {
		expect((await call(`${PUBLIC}/oauth/login`, { method: 'POST', body: { provider: 'FACEBOOK' } })).code).toBe(-4001428);
	});
});
