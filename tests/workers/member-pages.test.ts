/**
 * The one rule of a member's page made from the guest's (functions/shell/member-pages.ts), a case
 * each, and the rewrite through the edge cache with real sessions on the local D1: the Worker
 * behind it is a stand-in page with the marks the guest's page carries, which counts what it is asked.
 * The whole pages, rewritten against rendered in full, are compared by tests/e2e/member-pages.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { withEdgeCache } from '@functions/shell/edge-cache';
import { cacheableRoute } from '@functions/shell/cache-routes';
import { memberPageChoice, memberPageOf } from '@functions/shell/member-pages';
import { resolveChannel } from '@/server/channels/channels';
import { loadLayout } from '@/server/channels/layout';
import type { SessionMember, SessionState } from '@/server/sign-in/sessions';
import { mintSessionToken } from '@/server/sign-in/session-token';
import { signIn, TEST_SECRET } from './harness';

const PAGES = 'http://localhost/starfall/global';

async function layoutOfGlobal() {
	const channel = await resolveChannel(env.DB, 'starfall', 'global');
	return loadLayout(env.DB, channel!);
}

/** The rule's first half for `url` (asked as it is canonical unless `canonical` says otherwise). */
async function pageOf(url: string, canonical = url, providers?: []) {
	const layout = await layoutOfGlobal();
	return memberPageOf(cacheableRoute(new URL(url))!, url, canonical, providers ? { ...layout, providers } : layout);
}

const member = (role: 'MEMBER' | 'ADMIN'): SessionMember => ({
	userId: 1002,
	nickname: 'Someone',
	role,
	provider: 'GOOGLE',
	recentProvider: 'GOOGLE',
	joinedAt: 0,
});

describe('the rule: which member pages are made from the guest’s', () => {
	it('rewrites All Posts and a board a guest may read', async () => {
		expect(await pageOf(`${PAGES}/boards`)).toEqual({ boardId: null });
		expect(await pageOf(`${PAGES}/boards/12`)).toEqual({ boardId: 12 });
	});

	it('renders in full a notice-only board, where an administrator is offered Write and no one else is', async () => {
		expect(await pageOf(`${PAGES}/boards/11`)).toBeNull();
	});

	it('renders every other route in full (a post, search, a profile, home)', async () => {
		for (const path of ['/posts/1', '/search?q=a', '/users/1002', '', '/boards/12/posts/1']) expect(await pageOf(`${PAGES}${path}`), path).toBeNull();
	});

	it('renders in full a URL that is not its canonical one: the page’s links follow the URL asked', async () => {
		expect(await pageOf(`${PAGES}/boards?page=1`, `${PAGES}/boards`)).toBeNull();
	});

	it('renders in full where the community has no sign-in providers (no Write for a guest, one for a member)', async () => {
		expect(await pageOf(`${PAGES}/boards/12`, `${PAGES}/boards/12`, [])).toBeNull();
	});

	it('renders in full a private board (an administrator reads its list) and a board that does not exist', async () => {
		expect(await pageOf(`${PAGES}/boards/17`)).toBeNull();
		expect(await pageOf(`${PAGES}/boards/999`)).toBeNull();
	});

	it('renders in full for a banned member; rewrites for a member and an administrator', () => {
		const banned: SessionState = { kind: 'banned', member: member('MEMBER'), ban: { kind: 'PERMANENT', endsAt: null, reason: '' }, tokenHash: 'x' };
		expect(memberPageChoice(banned, false)).toBe('full');
		expect(memberPageChoice({ kind: 'member', member: member('ADMIN'), tokenHash: 'x' }, false)).toBe('rewrite');
		expect(memberPageChoice({ kind: 'member', member: member('MEMBER'), tokenHash: 'x' }, false)).toBe('rewrite');
	});

	it('renders in full for a member who blocked anyone (their blocked members’ posts collapsed)', () => {
		expect(memberPageChoice({ kind: 'member', member: member('MEMBER'), tokenHash: 'x' }, true)).toBe('full');
		expect(memberPageChoice({ kind: 'member', member: member('ADMIN'), tokenHash: 'x' }, true)).toBe('full');
	});

	it('rewrites for a session that has ended: the guest’s page with the session’s state', () => {
		expect(memberPageChoice({ kind: 'expired' }, false)).toBe('rewrite');
		expect(memberPageChoice({ kind: 'revoked' }, false)).toBe('rewrite');
	});
});

/** The marks of a guest's page that the rewrite looks for (MainLayout, Header, Sidebar, BoardView). */
const GUEST_PAGE = `<!doctype html><html><body><div class="top-bar-search"></div><a class="account-icon" href="/login" data-account-icon></a>
<section class="card welcome" data-guest-welcome>Welcome</section><div class="board-actions" data-board-actions><a data-write data-login-required>Write</a></div>
<dialog data-route-error-dialog data-session="guest"></dialog><dialog data-login-required-dialog></dialog></body></html>`;

function guestPage() {
	const asked: Request[] = [];
	return {
		asked,
		answer: (request: Request) => {
			asked.push(request);
			return new Response(GUEST_PAGE, { headers: { 'Content-Type': 'text/html' } });
		},
	};
}

async function ask(url: string, origin: ReturnType<typeof guestPage>, cookie?: string) {
	const ctx = createExecutionContext();
	const response = await withEdgeCache(new Request(url, cookie ? { headers: { cookie } } : {}), env.DB, ctx, async (request) =>
		origin.answer(request),
	);
	const text = await response.text();
	await waitOnExecutionContext(ctx);
	return { text, headers: response.headers };
}

describe('a member’s page made from the guest’s, through the edge cache', () => {
	it('puts the member’s parts into the guest’s page, never stores them, and gives nothing of one member to another or a guest', async () => {
		const url = `${PAGES}/boards/14`;
		const origin = guestPage();
		const first = await ask(url, origin, await signIn(1003));
		expect(first.headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(first.headers.get('Cache-Control')).toBe('private, no-store');
		expect(first.headers.get('X-Edge-Cache')).toBeNull();
		expect(first.text).toContain('data-member-card');
		expect(first.text).toContain('data-user-id="1003"');
		expect(first.text).toContain('data-board-watch');
		expect(first.text).not.toContain('data-guest-welcome');
		expect(first.text).not.toContain('data-login-required');
		// The guest's page was asked once, without the member's cookie, and stored as a guest's.
		expect(origin.asked).toHaveLength(1);
		expect(origin.asked[0]?.headers.get('cookie')).toBeNull();
		const guest = await ask(url, origin);
		expect(guest.headers.get('X-Edge-Cache')).toBe('HIT');
		expect(guest.text).toBe(GUEST_PAGE);
		const other = await ask(url, origin, await signIn(1004));
		expect(other.text).toContain('data-user-id="1004"');
		expect(other.text).not.toContain('data-user-id="1003"');
		expect(origin.asked).toHaveLength(1);
	});

	it('answers a banned member with the full render, their cookie passed on', async () => {
		const origin = guestPage();
		const cookie = await signIn(1005);
		await env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, 1005, 'PERMANENT', NULL, ?1)")
			.bind(Date.now())
			.run();
		const answer = await ask(`${PAGES}/boards/15`, origin, cookie);
		expect(answer.headers.get('X-Member-Page')).toBeNull();
		expect(origin.asked.at(-1)?.headers.get('cookie')).toBe(cookie);
	});

	it('answers a member who blocked anyone with the full render, read in the session’s batch; one who blocked no one keeps the rewrite', async () => {
		const origin = guestPage();
		const blocker = await signIn(1006);
		const other = await signIn(1008);
		await env.DB.prepare('INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) VALUES (1006, 1007, 1, 0)').run();
		const full = await ask(`${PAGES}/boards/15`, origin, blocker);
		expect(full.headers.get('X-Member-Page')).toBeNull();
		expect(origin.asked.at(-1)?.headers.get('cookie')).toBe(blocker);
		const rewritten = await ask(`${PAGES}/boards/15`, origin, other);
		expect(rewritten.headers.get('X-Member-Page')).toBe('REWRITTEN');
		await env.DB.prepare('DELETE FROM member_blocks WHERE blocker_id = 1006').run();
	});

	it('answers a cookie whose session no longer exists with the guest’s page, saying so and clearing the cookie', async () => {
		const origin = guestPage();
		const cookie = `__Host-session_starfall_global=${await mintSessionToken(TEST_SECRET, 1)}`;
		const answer = await ask(`${PAGES}/boards/16`, origin, cookie);
		expect(answer.headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(answer.text).toContain('data-session="revoked"');
		expect(answer.text).not.toContain('data-member-card');
		expect(answer.headers.get('Set-Cookie')).toContain('Max-Age=0');
	});
});
