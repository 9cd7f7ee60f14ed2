/**
 * WCAG 2.2 AA (axe-core) on the reader's pages of every demo community, each in its own theme and
 * language: a board with its category filter, a post with images and comments, the login page and
 * My Page as a signed-in member.
 */
import { wcagViolations } from './axe';
import { expect, test } from './test';
import { signInAsDemoMember } from './sign-in-helpers';
import ja from '@/i18n/ja.json' with { type: 'json' };

interface Community {
	path: string;
	/** What sets it apart: language and theme. */
	look: string;
	/** A board with categories. */
	boardId: number;
	/** A board of posts with images. */
	mediaBoardId: number;
	/** Whether it offers sign-in (starfall/jp does not). */
	signIn: boolean;
}

const COMMUNITIES: Community[] = [
	{ path: '/starfall/global', look: 'English, light', boardId: 12, mediaBoardId: 14, signIn: true },
	{ path: '/starfall/kr', look: 'Korean', boardId: 22, mediaBoardId: 24, signIn: true },
	{ path: '/starfall/jp', look: 'Japanese, no sign-in providers', boardId: 32, mediaBoardId: 34, signIn: false },
	{ path: '/starfall/tw', look: 'Traditional Chinese', boardId: 52, mediaBoardId: 54, signIn: true },
	{ path: '/pixelfarm/main', look: 'English, dark', boardId: 42, mediaBoardId: 44, signIn: true },
];

/**
 * One test per community, in one browser context: each page is loaded once and audited, the guest's pages first,
 * then My Page signed in. Each audit is a step named by its page, and its message names the page, so a failure says
 * which one failed.
 */
for (const community of COMMUNITIES) {
	test(`WCAG 2.2 AA in ${community.path} (${community.look}): a board, a post, the login page and My Page`, async ({ page }) => {
		await test.step('a board page with its category filter has no violation', async () => {
			await page.goto(`${community.path}/boards/${community.boardId}`);
			await expect(page.locator('.subjects a[aria-current="page"]')).toBeVisible();
			expect(await wcagViolations(page), 'violations on the board page').toEqual([]);
		});

		await test.step('a post page with images and comments has no violation', async () => {
			await page.goto(`${community.path}/boards/${community.mediaBoardId}`);
			const href = await page.locator('.post-row:not(.pinned) .post-title').first().getAttribute('href');
			expect(href, 'a post on the media board').toBeTruthy();
			await page.goto(href ?? '');
			await expect(page.locator('h1')).toBeVisible();
			expect(await wcagViolations(page), 'violations on the post page').toEqual([]);
		});

		await test.step('the login page has no violation', async () => {
			await page.goto(`${community.path}/login`);
			if (!community.signIn) await expect(page.getByText(ja['login.noProviders'])).toBeVisible();
			else await expect(page.locator('[data-login-form] button').first()).toBeVisible();
			expect(await wcagViolations(page), 'violations on the login page').toEqual([]);
		});

		if (!community.signIn) {
			await test.step('My Page cannot be reached: without sign-in providers nobody signs in here, so there is no My Page to audit', async () => {
				await page.goto(`${community.path}/mypage`);
				await expect(page, 'My Page without sign-in providers').not.toHaveURL(/\/mypage/);
				await expect(page.locator('[data-member-card]')).toHaveCount(0);
			});
		} else {
			await test.step("a signed-in member's My Page has no violation", async () => {
				await signInAsDemoMember(page, community.path, `${community.path}/mypage`);
				await expect(page.locator('[data-member-card]')).toBeVisible();
				expect(await wcagViolations(page), "violations on the member's My Page").toEqual([]);
			});
		}
	});
}
