/**
 * Sign-in end to end in Chromium against the local OpenID provider (scripts/idp/), which stands in
 * for Google, Apple and X on http://localhost — another site than the app on 127.0.0.1, so Apple's
 * form POST back is cross-site here as it is in production.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute, nicknameOf } from './fixtures';
import { chooseMember, chooseNewAccount, memberButton, openProvider, signInAs } from './sign-in-helpers';
import { signInContext } from './sessions';
import { freshMember } from './write-helpers';

const HOME = '/starfall/global';
const BOARD = '/starfall/global/boards/12';
/** For the tests about something else than signing in, which start with a minted session (sessions.ts). */
const GLOBAL = { index: 1, domain: 'starfall', slug: 'global' };

async function expectSignedIn(page: Page, nickname: string) {
	await expect(page.locator('[data-member-nickname]')).toHaveText(nickname);
	await expect(page.locator('[data-guest-welcome]')).toHaveCount(0);
	await expect(page.locator('[data-account-icon]')).toHaveAttribute('href', `${HOME}/mypage`);
	await expect(page.locator('[data-member-card]').getByRole('link', { name: 'Write' })).toHaveAttribute('href', `${HOME}/write?boardId=12`);
}

async function sessionCookie(page: Page) {
	return (await page.context().cookies()).find((cookie) => cookie.name === '__Host-session_starfall_global');
}

test('a returning member signs in with Google and comes back to the page they were reading', async ({ page }) => {
	const nickname = nicknameOf(1002);
	await signInAs(page, BOARD, 'Google', nickname);
	await expect(page).toHaveURL(new RegExp(`${BOARD}$`));
	await expectSignedIn(page, nickname);
	expect(await page.evaluate(() => localStorage.getItem('app:starfall-global-userId'))).toBe('1002');
	const cookie = await sessionCookie(page);
	expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
	expect(cookie?.value.length).toBeGreaterThanOrEqual(43);
});

test('a returning member signs in with Apple through its cross-site form POST', async ({ page }) => {
	const nickname = nicknameOf(1004);
	await page.goto(BOARD);
	await page.locator('[data-guest-welcome]').getByRole('link', { name: 'Log in' }).click();
	const login = page.waitForResponse((response) => response.url().endsWith('/oauth/login'));
	await openProvider(page, 'Apple');
	// The transaction cookie must come back with Apple's cross-site POST: SameSite=None, Secure.
	const setCookie = (await (await login).headerValue('set-cookie')) ?? '';
	expect(setCookie).toMatch(/^__Host-oauth_starfall_global=/);
	expect(setCookie).toMatch(/SameSite=None/);
	expect(setCookie).toMatch(/Secure/);
	expect(setCookie).toMatch(/HttpOnly/);
	expect(setCookie).toMatch(/Max-Age=600/);
	const callback = page.waitForRequest((request) => request.url().endsWith('/starfall/global/oauth'));
	await chooseMember(page, nickname);
	expect((await callback).method()).toBe('POST');
	await expect(page).toHaveURL(new RegExp(`${BOARD}$`));
	await expectSignedIn(page, nickname);
});

test('a returning member signs in with X (OAuth 2.0 and the user lookup)', async ({ page }) => {
	const nickname = nicknameOf(1003);
	await signInAs(page, BOARD, 'X', nickname);
	await expect(page).toHaveURL(new RegExp(`${BOARD}$`));
	await expectSignedIn(page, nickname);
});

test('a new member agrees to the terms, picks a nickname and goes back to the redirectUrl', async ({ page }) => {
	await page.goto(`${BOARD}?page=2`);
	await page.locator('[data-guest-welcome]').getByRole('link', { name: 'Log in' }).click();
	await openProvider(page, 'Google');
	await chooseNewAccount(page, `e2e-newcomer-${Date.now()}`);
	await expect(page).toHaveURL(/\/starfall\/global\/signup$/);
	const next = page.getByRole('button', { name: 'Next' });
	await expect(next).toBeDisabled();
	await page.getByLabel('I agree to the terms of service. (Required)').check();
	await expect(next).toBeDisabled();
	await page.getByLabel('Agree to all').check();
	await expect(page.getByLabel('I agree to the collection and use of personal information. (Required)')).toBeChecked();
	await next.click();
	await expect(page).toHaveURL(/\/starfall\/global\/signup\/nickname$/);
	const field = page.getByLabel('Nickname', { exact: true });
	await field.fill('new [pilot]');
	await page.getByRole('button', { name: 'Join the community' }).click();
	await expect(page.getByText('Spaces, brackets ([,]), braces ({,}), and emojis are not allowed.')).toBeVisible();
	// An invisible combining grapheme joiner inside a name (docs/reference/nicknames.md).
	await field.fill('Nova\u034FPilot');
	await page.getByRole('button', { name: 'Join the community' }).click();
	await expect(page.getByText('This nickname cannot be used.')).toBeVisible();
	await field.fill(nicknameOf(1005));
	await page.getByRole('button', { name: 'Join the community' }).click();
	await expect(page.getByText('This nickname is already in use.')).toBeVisible();
	const nickname = `Newcomer${Date.now() % 100000}`;
	await field.fill(nickname);
	// The local Turnstile's check (docs/reference/spam-defence.md): the sign-up that creates the membership asks for it.
	await page.frameLocator('.cf-turnstile iframe').getByLabel('I am human').check();
	await page.getByRole('button', { name: 'Join the community' }).click();
	await expect(page).toHaveURL(new RegExp(`${BOARD}\\?page=2$`));
	await expect(page.locator('[data-member-nickname]')).toHaveText(nickname);
});

test('logout ends the session on the server; the old cookie is refused', async ({ page }) => {
	// A minted session, straight to the settings: the provider's screens are the tests above.
	await signInContext(page.context(), GLOBAL, 1008);
	const cookie = await sessionCookie(page);
	await page.goto(`${HOME}/mypage/settings`);
	await expect(page.locator('[data-provider]')).toHaveText('Google');
	await expect.poll(() => page.evaluate(() => localStorage.getItem('app:starfall-global-userId')), 'the member remembered by the page').toBe('1008');
	await page.getByRole('button', { name: 'Log out' }).click();
	await expect(page.locator('[data-guest-welcome]')).toBeVisible();
	expect(await sessionCookie(page)).toBeUndefined();
	expect(await page.evaluate(() => localStorage.getItem('app:starfall-global-userId'))).toBeNull();
	const replay = await page.request.get(`/public/v1/starfall/global/auth/status`, { headers: { cookie: `${cookie?.name}=${cookie?.value}` } });
	expect((await replay.json()).header.resultCode).toBe(-4011415);
});

test('withdrawal needs the checkbox and ends with the toast', async ({ page }) => {
	// A member made for the test (the sign-up is the new member's test above), with a minted session.
	await signInContext(page.context(), GLOBAL, freshMember('Leaver').id);
	await page.goto(`${HOME}/mypage/withdraw`);
	const withdraw = page.getByRole('button', { name: 'Withdraw' });
	await expect(withdraw).toBeDisabled();
	await page.getByLabel('I will leave the community.').check();
	await withdraw.click();
	await expect(page.getByRole('status').filter({ hasText: 'You have withdrawn from the community.' })).toBeVisible();
	await expect(page.locator('[data-guest-welcome]')).toBeVisible();
	expect(await sessionCookie(page)).toBeUndefined();
});

test('a temporarily banned member reads the end of the ban, its reason and whom to ask, over a page they can read', async ({ page }) => {
	await signInAs(page, BOARD, 'Google', nicknameOf(1038));
	const notice = page.getByRole('region', { name: 'Access restricted' });
	await expect(notice).toContainText('Your access to this community is restricted until 2027.06.30 15:00 (UTC).');
	await expect(notice).toContainText('Reason: Repeated credit-selling spam across several boards after two warnings.');
	await expect(notice).toContainText('You can still read posts and comments here.');
	await expect(notice).toContainText('To ask for a review, contact support@starfall.example.');
	// Nothing covers the page: no dialog, no log-in prompt; the board's posts are there to read.
	await expect(page.getByRole('dialog')).toHaveCount(0);
	await expect(page).toHaveURL(new RegExp(`${BOARD}$`));
});

test('a permanently banned member sees the permanent message', async ({ page }) => {
	// A minted session: the temporarily banned member above signs in through the provider.
	await signInContext(page.context(), GLOBAL, 1039);
	await page.goto(BOARD);
	await expect(page.getByRole('region', { name: 'Access restricted' })).toContainText(
		'Your access to this community has been permanently restricted.',
	);
});

test('the operator command bans a member at once and lifts the ban again', async ({ page }) => {
	// The operator command runs twice, each run starting wrangler: seconds apiece on a busy machine.
	test.slow();
	await signInContext(page.context(), GLOBAL, 1010);
	await page.goto(BOARD);
	const { spawnSync } = await import('node:child_process');
	const member = (command: string, ...args: string[]) =>
		spawnSync(
			process.execPath,
			['scripts/member.mjs', command, '--channel', 'starfall/global', '--member', '1010', '--persist-to', '.wrangler/test-state', ...args],
			{ encoding: 'utf8' },
		);
	expect(member('ban', '--days', '3', '--reason', 'e2e').status).toBe(0);
	await page.reload();
	// The session stays: the page tells the member of the ban and its reason, and asks nothing.
	await expect(page.getByRole('region', { name: 'Access restricted' })).toContainText('Reason: e2e');
	await expect(page.getByRole('dialog')).toHaveCount(0);
	expect(member('unban').status).toBe(0);
});

test('the login-required modal: cancel stays, confirm goes to login with the target', async ({ page }) => {
	await page.clock.install();
	await page.goto(BOARD);
	const sidebarLinks = page.getByRole('navigation', { name: 'My Page' });
	await sidebarLinks.getByRole('link', { name: 'My Page' }).click();
	const dialog = page.getByRole('dialog');
	await expect(dialog).toContainText('Please log in to continue.');
	await dialog.getByRole('button', { name: 'Cancel' }).click();
	await expect(dialog).toBeHidden();
	// Nothing is loading: the link did not navigate, so the route spinner never shows.
	await page.clock.runFor(400);
	await expect(page.locator('[data-route-spinner]')).toBeHidden();
	await expect(page).toHaveURL(new RegExp(`${BOARD}$`));
	await sidebarLinks.getByRole('link', { name: 'Write' }).click();
	await dialog.getByRole('button', { name: 'Log in' }).click();
	await expect(page).toHaveURL(/\/starfall\/global\/login\?redirectUrl=%2Fstarfall%2Fglobal%2Fwrite%3FboardId%3D12$/);
});

test('guards: guests go to login from member routes, members are sent on from login', async ({ page, request }) => {
	// A guest's redirects, asked without a browser: the URL after them.
	const landing = async (path: string) => (await request.get(path)).url();
	expect(await landing(`${HOME}/mypage/nickname`)).toMatch(/\/starfall\/global\/login\?redirectUrl=%2Fstarfall%2Fglobal%2Fmypage%2Fnickname$/);
	expect(await landing(`${HOME}/write?boardId=12`)).toMatch(/\/login\?redirectUrl=%2Fstarfall%2Fglobal%2Fwrite%3FboardId%3D12$/);
	expect(await landing(`${HOME}/signup`)).toMatch(/\/starfall\/global\/login\?/);
	await signInContext(page.context(), GLOBAL, 1011);
	await page.goto(`${HOME}/login?redirectUrl=${encodeURIComponent(`${HOME}/mypage`)}`);
	await expect(page).toHaveURL(/\/starfall\/global\/mypage$/);
	await expect(page.getByRole('heading', { name: 'My Page' })).toBeVisible();
	await page.goto(`${HOME}/signup`);
	await expect(page).not.toHaveURL(/signup/);
});

test('a channel without providers shows no login feature anywhere', async ({ request }) => {
	// The pages as served (no script of a guest's page adds a login feature).
	const boards = await (await request.get('/starfall/jp/boards')).text();
	expect(boards, 'the account icon').not.toContain('data-account-icon');
	expect(boards, 'the guest welcome').not.toContain('data-guest-welcome');
	expect(boards, 'a login-required control').not.toContain('data-login-required');
	const login = await request.get('/starfall/jp/login');
	expect(login.ok(), 'the login page').toBe(true);
	expect(await login.text(), "a provider's button").not.toMatch(/Continue with/);
});

test.describe('refused returns from the provider', () => {
	/**
	 * Signs in with Google up to the provider's return and holds that return back: the provider's
	 * redirects are read instead of followed (a followed redirect cannot be intercepted).
	 */
	async function heldReturn(page: Page, nickname: string): Promise<URL> {
		await page.goto(`${HOME}/login?redirectUrl=${encodeURIComponent(BOARD)}`);
		let held = '';
		const isLogin = (url: URL) => /^\/google\/interaction\/[^/]+\/login$/.test(url.pathname);
		await page.route(isLogin, async (route) => {
			const chosen = await route.fetch({ maxRedirects: 0 });
			const resume = new URL(chosen.headers()['location'] ?? '', route.request().url());
			const answer = await page.request.get(resume.href, { maxRedirects: 0 });
			held = answer.headers()['location'] ?? '';
			await route.fulfill({ status: 200, contentType: 'text/plain', body: 'held' });
		});
		await openProvider(page, 'Google');
		await memberButton(page, nickname).click();
		await expect.poll(() => held).toContain('/starfall/global/oauth?');
		await page.unroute(isLogin);
		return new URL(held);
	}

	async function expectRefused(page: Page, url: URL) {
		await page.goto(url.href);
		await expect(page).toHaveURL(/\/starfall\/global\/login\?.*error=failed/);
		await expect(page.getByRole('alert')).toHaveText('Failed to log in. Please try again.');
		expect(await sessionCookie(page)).toBeUndefined();
	}

	test('a return without state is refused', async ({ page }) => {
		const url = await heldReturn(page, nicknameOf(1014));
		url.searchParams.delete('state');
		await expectRefused(page, url);
	});

	test('a return with another state is refused', async ({ page }) => {
		const url = await heldReturn(page, nicknameOf(1014));
		url.searchParams.set('state', 'forged-state-value-0123456789');
		await expectRefused(page, url);
	});

	test('a replayed return is refused after the first one signed in', async ({ page }) => {
		const url = await heldReturn(page, nicknameOf(1017));
		await page.goto(url.href);
		await expect(page).toHaveURL(new RegExp(`${BOARD}$`));
		await page.context().clearCookies();
		await expectRefused(page, url);
	});

	test('a return in a browser that did not start the sign-in is refused', async ({ page, browser }) => {
		const url = await heldReturn(page, nicknameOf(1020));
		const other = await browser.newPage();
		await expectRefused(other, url);
		await other.close();
	});

	test('a wrong PKCE verifier makes the provider refuse the code', async ({ page }) => {
		const url = await heldReturn(page, nicknameOf(1023));
		execute(`UPDATE oauth_transactions SET code_verifier = '${'x'.repeat(43)}' WHERE state = '${url.searchParams.get('state')?.replace(/'/g, '')}'`);
		await expectRefused(page, url);
	});

	test('a sign-in whose PKCE verifier is gone is refused', async ({ page }) => {
		const url = await heldReturn(page, nicknameOf(1026));
		execute(`UPDATE oauth_transactions SET code_verifier = '' WHERE state = '${url.searchParams.get('state')?.replace(/'/g, '')}'`);
		await expectRefused(page, url);
	});
});

test.describe('redirectUrl stays inside the channel', () => {
	for (const [what, target] of [
		['another site', 'https://evil.example/steal'],
		['another channel', '/starfall/kr/boards'],
	] as const) {
		test(`a redirectUrl to ${what} goes to the channel home after sign-in`, async ({ page }) => {
			await page.goto(`${HOME}/login?redirectUrl=${encodeURIComponent(target)}`);
			await expect(page.locator('input[name="redirectUrl"]')).toHaveValue(HOME);
			await openProvider(page, 'Google');
			await chooseMember(page, nicknameOf(what === 'another site' ? 1029 : 1032));
			await expect(page).toHaveURL(/\/starfall\/global\/boards$/);
		});
	}
});

test('a mutation from another site is refused', async ({ page }) => {
	// The context's request carries the member's cookie: no page of it needs loading before.
	await signInContext(page.context(), GLOBAL, 1035);
	const answer = await page.request.post('/v1/starfall/global/auth/logout', { headers: { origin: 'https://evil.example' } });
	expect(answer.status()).toBe(403);
	expect((await answer.json()).header.resultCode).toBe(-4031401);
	await page.goto(BOARD);
	await expect(page.locator('[data-member-nickname]')).toBeVisible();
});

test("a member's page is never cached: a guest who asks next gets the guest page", async ({ page, browser }) => {
	const nickname = nicknameOf(1012);
	// The context's own request carries the member's cookie: no page of it needs loading.
	await signInContext(page.context(), GLOBAL, 1012);
	const mine = await page.request.get('/starfall/global/boards/14?page=1');
	expect(mine.headers()['cache-control']).toBe('private, no-store');
	expect(mine.headers()['x-edge-cache']).toBeUndefined();
	expect(await mine.text()).toContain(nickname);
	const guest = await browser.newPage();
	for (let i = 0; i < 2; i++) {
		const response = await guest.goto('/starfall/global/boards/14?page=1');
		expect(await response?.text()).not.toContain('data-member-card');
	}
	await expect(guest.locator('[data-guest-welcome]')).toBeVisible();
	await guest.close();
});

test("My Page lists the member's posts, comments and likes, and changes the nickname", async ({ page }) => {
	const [counts] = execute(
		`SELECT (SELECT count(*) FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.member_id = 1015 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0 AND b.is_public = 1) AS posts,
		        (SELECT count(*) FROM comments c JOIN posts p ON p.id = c.post_id JOIN boards b ON b.id = p.board_id
		         WHERE c.member_id = 1015 AND c.deleted_at IS NULL AND c.hidden_by_admin = 0 AND p.deleted_at IS NULL
		           AND p.hidden_by_admin = 0 AND p.is_private = 0 AND b.is_public = 1) AS comments`,
	) as { posts: number; comments: number }[];
	await signInContext(page.context(), GLOBAL, 1015);
	const current = nicknameOf(1015);
	await page.goto(`${HOME}/mypage`);
	await expect(page.getByRole('heading', { name: 'My Page' })).toBeVisible();
	await expect(page.locator('.post-row')).toHaveCount(Math.min(20, counts?.posts ?? 0));
	const tabs = page.getByRole('navigation', { name: 'My activity' });
	await tabs.getByRole('link', { name: 'Comments' }).click();
	await expect(page).toHaveURL(/mypage\?tab=comments$/);
	expect(counts?.comments).toBeGreaterThan(0);
	await expect(page.locator('.my-comments li')).toHaveCount(Math.min(20, counts?.comments ?? 0));
	await tabs.getByRole('link', { name: 'Likes' }).click();
	await expect(page).toHaveURL(/mypage\?tab=likes$/);
	await page.getByRole('link', { name: 'Change nickname' }).click();
	const field = page.getByLabel('Nickname', { exact: true });
	await expect(field).toHaveValue(current);
	await page.getByRole('button', { name: 'Change nickname' }).click();
	await expect(page.getByRole('alert')).toHaveText('Nickname currently in use.');
	const renamed = `Renamed${Date.now() % 100000}`;
	await field.fill(renamed);
	await page.getByRole('button', { name: 'Change nickname' }).click();
	await expect(page.locator('[data-member-nickname]')).toHaveText(renamed);
});
