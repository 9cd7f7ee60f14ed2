import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './test';
import { demoIds, execute, viewCount } from './fixtures';

/** The HTML of a page as served, with its status (a check of what the server wrote needs no browser). */
async function served(request: APIRequestContext, path: string): Promise<{ status: number; url: string; html: string }> {
	const response = await request.get(path);
	return { status: response.status(), url: response.url(), html: await response.text() };
}

/** How many elements of the served HTML carry `className` among their classes. */
const withClass = (html: string, className: string) => html.match(new RegExp(`class="(?:[^"]*\\s)?${className}(?:\\s[^"]*)?"`, 'g'))?.length ?? 0;

test.describe('routes and redirects', () => {
	test('boards/{id}/posts goes up to the board, boards/{id}/posts/{postId} to the post, posts to the channel', async ({ request }) => {
		for (const [from, to] of [
			['/starfall/global/boards/12/posts', /\/starfall\/global\/boards\/12$/],
			['/starfall/global/boards/12/posts/5', /\/starfall\/global\/posts\/5$/],
			['/starfall/global/posts', /\/starfall\/global\/boards$/],
		] as const) {
			const page = await served(request, from);
			expect(page.url, from).toMatch(to);
		}
	});

	test('a board filters by category and pages with page=', async ({ page }) => {
		await page.goto('/starfall/global/boards/12');
		const firstTitle = await page.locator('.post-row:not(.pinned) .post-title').first().textContent();
		await page.getByRole('link', { name: '2', exact: true }).click();
		await expect(page).toHaveURL(/page=2/);
		await expect(page.locator('.post-row:not(.pinned) .post-title').first()).not.toHaveText(firstTitle ?? '');
		const category = page.locator('.subjects a').nth(1);
		const name = (await category.textContent()) ?? '';
		await category.click();
		await expect(page).toHaveURL(/subjectId=/);
		for (const tag of await page.locator('.post-row:not(.pinned) [data-category]').allTextContents()) expect(tag).toBe(name);
	});

	test('a bad page number still shows the list, and a board of another channel is not reachable', async ({ request }) => {
		for (const value of ['abc', '0', '-4', '99999']) {
			const page = await served(request, `/starfall/global/boards/12?page=${value}`);
			expect(page.status, `page=${value}`).toBe(200);
			expect(withClass(page.html, 'post-row'), `page=${value}: the rows`).toBeGreaterThan(0);
		}
		expect((await served(request, '/starfall/kr/boards/12')).status, 'a board of another channel').toBe(404);
	});
});

// What a guest reads, each page loaded once in one browser context: each check a step named as the
// test it was (docs/guides/testing.md, "Writing a cheap browser test").
test('what a guest reads: lists, posts in every state, profiles and the not-found pages', async ({ page }) => {
	test.slow();
	const ids = demoIds();

	await test.step('All Posts lists posts of every public board with their board names', async () => {
		await page.goto('/starfall/global/boards');
		await expect(page.locator('h1')).toHaveText('All Posts');
		await expect(page.locator('.post-row')).toHaveCount(20);
		await expect(page.locator('.post-row .tag.board').first()).not.toBeEmpty();
	});

	await test.step('a private board says so', async () => {
		await page.goto('/starfall/global/boards/17');
		await expect(page.getByText('This board is private.')).toBeVisible();
	});

	await test.step('the post view shows no category for a post without one, not "None"', async () => {
		await page.goto(`/starfall/global/posts/${ids.postWithoutCategory}`);
		await expect(page.locator('.post-title')).toBeVisible();
		await expect(page.locator('[data-post-category]')).toHaveCount(0);
		await expect(page.locator('.post-crumbs')).not.toContainText('None');
	});

	await test.step('the post view shows the states of docs/reference/product-rules.md#states instead of the body', async () => {
		await page.goto(`/starfall/global/posts/${ids.hiddenPost}`);
		await expect(page.getByText('The post has been hidden by the administrator.')).toBeVisible();
		await page.goto(`/starfall/global/posts/${ids.deletedPost}`);
		await expect(page.getByText('This post has been deleted.')).toBeVisible();
		await page.goto(`/starfall/global/posts/${ids.privatePost}`);
		await expect(page.getByText('This post is private.')).toBeVisible();
		await page.goto(`/starfall/global/posts/${ids.staffPost}`);
		await expect(page.getByText('This board is private.')).toBeVisible();
		await expect(page.locator('.post-body')).toHaveCount(0);
	});

	await test.step('the post view renders comments on the server, with a deleted one as its placeholder', async () => {
		await page.goto(`/starfall/global/posts/${ids.postWithDeletedComment}`);
		await expect(page.getByText('This comment has been deleted.')).toBeVisible();
		await expect(page.locator('.comment').first()).toBeVisible();
	});

	await test.step('the post view shows the post-not-found screen for an unknown or foreign post', async () => {
		for (const path of ['/starfall/global/posts/99999999', '/starfall/global/posts/abc']) {
			const response = await page.goto(path);
			expect(response?.status(), path).toBe(404);
			await expect(page.getByRole('heading', { name: 'Post not found.' })).toBeVisible();
			await expect(page.getByText('The link is invalid or the post does not exist.')).toBeVisible();
		}
		// Post 5 belongs to the English community; under the Korean one it does not exist.
		const response = await page.goto('/starfall/kr/posts/5');
		expect(response?.status(), '/starfall/kr/posts/5').toBe(404);
		await expect(page.getByRole('heading', { name: '게시글을 찾을 수 없습니다.' })).toBeVisible();
	});

	await test.step('a member profile shows the nickname, join date and their posts', async () => {
		await page.goto(`/starfall/global/users/${ids.member}`);
		await expect(page.locator('#profile-name')).toHaveText(ids.memberNickname);
		await expect(page.getByText(/^Joined \d{4}\.\d{2}\.\d{2}$/)).toBeVisible();
		for (const author of await page.locator('.post-row .author').allTextContents())
			expect(author, 'the author of a listed post').toBe(ids.memberNickname);
	});

	await test.step('a profile route without a userId is the channel not-found page', async () => {
		const response = await page.goto('/starfall/global/users');
		expect(response?.status(), '/starfall/global/users').toBe(404);
		await expect(page.getByRole('link', { name: 'Go to the community home' })).toBeVisible();
	});

	await test.step('an unknown top-level path says Page not found without a previous-page button', async () => {
		const response = await page.goto('/no-such-place');
		expect(response?.status(), '/no-such-place').toBe(404);
		await expect(page.getByRole('heading', { name: 'Page not found.' })).toBeVisible();
		await expect(page.getByText('Please check the URL and try again.')).toBeVisible();
		await expect(page.getByRole('button', { name: 'Previous page' })).toHaveCount(0);
	});

	await test.step('an unknown community is the site-wide not-found page', async () => {
		const response = await page.goto('/nowhere/none/boards');
		expect(response?.status(), '/nowhere/none/boards').toBe(404);
		await expect(page.getByRole('heading', { name: 'Page not found.' })).toBeVisible();
	});

	// Last: it follows a link away.
	await test.step('an unknown path under a channel links to the channel', async () => {
		const response = await page.goto('/starfall/global/no-such-page');
		expect(response?.status(), '/starfall/global/no-such-page').toBe(404);
		await page.getByRole('link', { name: 'Go to the community home' }).click();
		await expect(page).toHaveURL(/\/starfall\/global\/boards$/);
	});
});

test('the post view shows board, category, author link, counts and the body with images and a video facade', async ({ page }) => {
	const ids = demoIds();
	await page.goto(`/starfall/global/posts/${ids.postWithImage}`);
	await expect(page.locator('.post-title')).toBeVisible();
	await expect(page.locator('.post-body img').first()).toBeVisible();
	await page.goto(`/starfall/global/posts/${ids.postWithVideo}`);
	const facade = page.locator('.youtube-facade');
	await expect(facade).toBeVisible();
	await facade.click();
	await expect(page.locator('.post-body iframe[src*="youtube-nocookie.com/embed/"]')).toHaveCount(1);
});

test.describe('not-found pages', () => {
	test('the previous-page button goes to the channel home after a direct arrival', async ({ page }) => {
		await page.goto('/starfall/global/no-such-page');
		await page.getByRole('button', { name: 'Previous page' }).click();
		await expect(page).toHaveURL(/\/starfall\/global\/boards$/);
	});

	test('the previous-page button goes back in history after in-app navigation', async ({ page }) => {
		await page.goto('/starfall/global/boards/13');
		await page.evaluate(() => location.assign('/starfall/global/no-such-page'));
		await expect(page.getByRole('button', { name: 'Previous page' })).toBeVisible();
		await page.getByRole('button', { name: 'Previous page' }).click();
		await expect(page).toHaveURL(/\/starfall\/global\/boards\/13$/);
	});
});

test('a post view is counted once per reader session, not on reload', async ({ page }) => {
	// Every viewCount() starts wrangler to read D1: seconds apiece on a busy machine.
	test.slow();
	const before = viewCount(21);
	const beacons: string[] = [];
	page.on('request', (request) => request.url().endsWith('/posts/21/views') && beacons.push(request.method()));
	await page.goto('/starfall/global/posts/21');
	await expect.poll(() => beacons).toEqual(['POST']);
	// The Worker writes view counts after answering, batched for about a second.
	await expect.poll(() => viewCount(21), { timeout: 15_000 }).toBe(before + 1);
	await page.reload();
	await page.waitForLoadState('networkidle');
	// The reload sends no beacon at all, so nothing can count it.
	expect(beacons).toEqual(['POST']);
	await page.goto('/starfall/global/posts/21');
	await page.waitForLoadState('networkidle');
	expect(beacons).toEqual(['POST']);
	expect(viewCount(21)).toBe(before + 1);
});

test.describe('the role badge', () => {
	/** The first id a query over the browser tests' D1 finds. */
	const first = (sql: string): number => {
		const [row] = execute(sql) as { id: number }[];
		if (!row) throw new Error(`Nothing for ${sql}`);
		return row.id;
	};
	const READABLE = 'p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0 AND b.is_public = 1';
	const postBy = (channelId: number, role: string) =>
		first(
			`SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id JOIN members m ON m.id = p.member_id WHERE p.channel_id = ${channelId} AND m.role = '${role}' AND m.withdrawn_at IS NULL AND ${READABLE} ORDER BY p.id LIMIT 1`,
		);
	const adminOf = (channelId: number) =>
		first(`SELECT id FROM members WHERE channel_id = ${channelId} AND role = 'ADMIN' AND withdrawn_at IS NULL ORDER BY id LIMIT 1`);

	test("shows beside an administrator's name on the post, in lists and on the profile, and not beside a member's", async ({ page }) => {
		// PixelFarm (dark theme): its administrator is PixelFarmTeam.
		const admin = adminOf(4);
		await page.goto(`/pixelfarm/main/posts/${postBy(4, 'ADMIN')}`);
		await expect(page.locator('.post-meta .post-author')).toHaveText('PixelFarmTeam');
		await expect(page.locator('.post-meta [data-role-badge]')).toHaveText('Admin');
		await page.goto(`/pixelfarm/main/posts/${postBy(4, 'MEMBER')}`);
		await expect(page.locator('.post-meta .post-author')).toBeVisible();
		await expect(page.locator('.post-meta [data-role-badge]')).toHaveCount(0);

		// All Posts: a badge on the administrator's rows only.
		await page.goto('/pixelfarm/main/boards');
		const rows = page.locator('.post-row');
		await expect(rows.first()).toBeVisible();
		for (const row of await rows.all()) {
			const isAdmin = (await row.locator('.author').getAttribute('href'))?.endsWith(`/users/${admin}`) ?? false;
			await expect(row.locator('[data-role-badge]')).toHaveCount(isAdmin ? 1 : 0);
		}

		// The profile: in the heading, and on each of the administrator's listed posts.
		await page.goto(`/pixelfarm/main/users/${admin}`);
		await expect(page.locator('#profile-name [data-role-badge]')).toHaveText('Admin');
		await expect(page.locator('#profile-name')).toHaveText(/^\s*PixelFarmTeam\s*Admin\s*$/);
		const listed = await page.locator('.post-row').count();
		expect(listed).toBeGreaterThan(0);
		await expect(page.locator('.post-row [data-role-badge]')).toHaveCount(listed);
		await page.goto('/pixelfarm/main/users/4004');
		await expect(page.locator('#profile-name')).toBeVisible();
		await expect(page.locator('[data-role-badge]')).toHaveCount(0);
	});

	test('says it in the community language and fits a 390 px screen beside server-rendered comments', async ({ page }) => {
		await page.setViewportSize({ width: 390, height: 844 });
		const admin = adminOf(2);
		const commented = first(
			`SELECT c.post_id AS id FROM comments c JOIN posts p ON p.id = c.post_id JOIN boards b ON b.id = p.board_id WHERE c.channel_id = 2 AND c.member_id = ${admin} AND c.deleted_at IS NULL AND c.hidden_by_admin = 0 AND ${READABLE} ORDER BY c.id LIMIT 1`,
		);
		await page.goto(`/starfall/kr/posts/${commented}`);
		const adminHead = page.locator(`[data-comments] .comment-head[data-author-id="${admin}"]`).first();
		await expect(adminHead.locator('[data-role-badge]')).toHaveText('운영자');
		await expect(page.locator(`[data-comments] .comment-head:not([data-author-id="${admin}"]) [data-role-badge]`)).toHaveCount(0);
		expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
		await page.goto(`/starfall/kr/users/${admin}`);
		await expect(page.locator('#profile-name [data-role-badge]')).toHaveText('운영자');
		await page.goto(`/starfall/jp/users/${adminOf(3)}`);
		await expect(page.locator('#profile-name [data-role-badge]')).toHaveText('運営');
		await page.goto(`/starfall/tw/users/${adminOf(5)}`);
		await expect(page.locator('#profile-name [data-role-badge]')).toHaveText('管理員');
	});
});
