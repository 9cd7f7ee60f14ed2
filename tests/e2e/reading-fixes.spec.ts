/**
 * What readers see, as a person sees it (docs/reference/what-readers-see.md): no "None" category,
 * the site-wide not-found page leads to the directory, and Write only where the one looking could
 * write. The report button that stays "Reported" is in post-actions.spec.ts, the named targets of
 * the audit log in admin-area.spec.ts.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { demoIds, execute } from './fixtures';
import { boardOf, community, signInMember } from './write-helpers';

const GLOBAL = '/starfall/global';

/** Every category tag of the page's post list. */
async function categoryTags(page: Page): Promise<string[]> {
	return page.locator('.post-row [data-category]').allTextContents();
}

test.describe('a post without a category shows none (point 9)', () => {
	test('in a board list and in search results', async ({ page }) => {
		const { postWithoutCategory } = demoIds();
		const [post] = execute(`SELECT title, board_seq FROM posts WHERE id = ${postWithoutCategory}`) as { title: string; board_seq: number }[];
		// The board's page that lists it (newest first, 20 a page, notices apart).
		const [board] = execute(`SELECT listed_count AS listed FROM boards WHERE id = 12`) as { listed: number }[];
		const pageNumber = Math.floor((board!.listed - post!.board_seq) / 20) + 1;
		await page.goto(`${GLOBAL}/boards/12?page=${pageNumber}`);
		const row = page.locator(`.post-row[data-post-id="${postWithoutCategory}"]`);
		await expect(row).toBeVisible();
		await expect(row.locator('[data-category]')).toHaveCount(0);
		await expect(row.locator('.post-tags')).not.toContainText('None');
		// The others show their category's name, never "None".
		expect(await categoryTags(page)).not.toContain('None');
		expect((await categoryTags(page)).length).toBeGreaterThan(0);

		// A search keyword is at most 20 characters: the title's first 20 find it.
		await page.goto(`${GLOBAL}/search?searchType=TITLE&q=${encodeURIComponent(Array.from(post!.title).slice(0, 20).join('').trim())}`);
		const found = page.locator(`.post-row[data-post-id="${postWithoutCategory}"]`);
		await expect(found).toBeVisible();
		await expect(found.locator('[data-category]')).toHaveCount(0);
		expect(await categoryTags(page)).not.toContain('None');
	});

	test('on My Page', async ({ page }) => {
		const channel = await community(GLOBAL);
		// A member whose newest post has no category, whom no other test bans.
		const [row] = execute(
			`SELECT p.id, p.member_id FROM posts p WHERE p.channel_id = 1 AND p.subject_id IS NULL AND p.board_seq IS NOT NULL AND p.deleted_at IS NULL
			 AND p.member_id BETWEEN 1004 AND 1029 AND p.member_id NOT IN (SELECT member_id FROM bans)
			 AND p.id = (SELECT max(id) FROM posts q WHERE q.member_id = p.member_id) ORDER BY p.id LIMIT 1`,
		) as { id: number; member_id: number }[];
		await signInMember(page, channel, row!.member_id - 1001, `${GLOBAL}/mypage`);
		const listed = page.locator(`.post-row[data-post-id="${row!.id}"]`);
		await expect(listed).toBeVisible();
		await expect(listed.locator('[data-category]')).toHaveCount(0);
		expect(await categoryTags(page)).not.toContain('None');
	});
});

test('the site-wide Page not found links to the directory of communities (point 10)', async ({ page }) => {
	const answer = await page.goto('/nowhere/at-all');
	expect(answer?.status()).toBe(404);
	await expect(page.getByRole('heading', { name: 'Page not found.' })).toBeVisible();
	const link = page.getByRole('link', { name: 'Browse all communities' });
	await expect(link).toHaveAttribute('href', '/');
	await link.focus();
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(/\/$/);
	await expect(page.locator(`[data-community="${GLOBAL}"]`)).toBeVisible();
});

test.describe('Write only where the one looking could write (point 13)', () => {
	const write = (page: Page) => page.locator('.board-header [data-write]');

	test('a guest of a community without sign-in sees no Write on any board', async ({ page }) => {
		const jp = await community('/starfall/jp');
		for (const key of ['notice', 'general', 'guides'] as const) {
			await page.goto(`${jp.path}/boards/${boardOf(jp, key)}`);
			await expect(page.locator('#board-heading')).toBeVisible();
			await expect(write(page)).toHaveCount(0);
			await expect(page.getByRole('link', { name: '投稿する' })).toHaveCount(0);
		}
		await page.goto(`${jp.path}/boards`);
		await expect(page.locator('#board-heading')).toBeVisible();
		await expect(write(page)).toHaveCount(0);
	});

	test('a guest sees Write on an open board but not on the announcements; a member the same; the administrator on both', async ({ page }) => {
		const channel = await community(GLOBAL);
		const notice = `${GLOBAL}/boards/${boardOf(channel, 'notice')}`;
		const general = `${GLOBAL}/boards/${boardOf(channel, 'general')}`;
		await page.goto(notice);
		await expect(page.locator('#board-heading')).toBeVisible();
		await expect(write(page)).toHaveCount(0);
		await page.goto(general);
		await expect(write(page)).toHaveText('Write');

		await signInMember(page, channel, 6, notice);
		await expect(page.locator('[data-member-card]')).toBeVisible();
		await expect(write(page)).toHaveCount(0);
		await page.goto(general);
		await expect(write(page)).toHaveText('Write');

		await page.context().clearCookies();
		await signInMember(page, channel, 0, notice);
		await expect(page.locator('[data-member-card]')).toBeVisible();
		await expect(write(page)).toHaveText('Write');
		await write(page).click();
		await expect(page).toHaveURL(new RegExp(`/write\\?boardId=${boardOf(channel, 'notice')}$`));
	});
});
