import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { community, signInMember } from './write-helpers';

test.describe('main layout', () => {
	// Checks that only look share the page they look at: each page below is loaded once, and each
	// check is a step named as the test it was; a check that leaves the page (the channel switcher)
	// comes last on its page.
	test('the layout of the board pages: menu, tree, sidebar, footer, banner, theme, switcher and languages', async ({ page }) => {
		await page.goto('/starfall/global/boards/12');
		await test.step('the header menu follows the order of docs/reference/product-rules.md#main-layout: Home, Board, pinned boards, external links in a new tab', async () => {
			const items = page.locator('[data-menu-list] a');
			await expect(items.nth(0), 'first menu item').toHaveText('Home');
			await expect(items.nth(1), 'second menu item').toHaveText('Board');
			await expect(items.nth(2), 'third menu item').toHaveText('Announcements');
			await expect(items.last(), 'the external link opens a new tab').toHaveAttribute('target', '_blank');
		});
		await test.step('the tree has All Posts, boards, external links in a new tab and dividers', async () => {
			const tree = page.locator('.tree-card');
			await expect(tree.getByRole('link', { name: 'All Posts' }), 'All Posts').toHaveAttribute('href', '/starfall/global/boards');
			await expect(tree.locator('a.external').first(), 'an external link of the tree').toHaveAttribute('target', '_blank');
			expect(await tree.getByRole('separator').count(), 'dividers in the tree').toBeGreaterThan(0);
			await expect(tree.locator('[aria-current="page"]'), 'the current board').toHaveAttribute('href', '/starfall/global/boards/12');
		});
		await test.step('the search box caps the keyword at 20 characters', async () => {
			await expect(page.getByRole('searchbox'), 'the search box').toHaveAttribute('maxlength', '20');
		});
		await test.step('menu arrows appear only on the overflowing side and scroll half the visible width', async () => {
			const list = page.locator('[data-menu-list]');
			const left = page.locator('[data-menu-arrow="left"]');
			const right = page.locator('[data-menu-arrow="right"]');
			await expect(left, 'the left arrow before scrolling').toBeHidden();
			await expect(right, 'the right arrow before scrolling').toBeVisible();
			const width = await list.evaluate((el) => el.clientWidth);
			expect(width, 'the menu width').toBeLessThanOrEqual(680);
			await right.click();
			await expect
				.poll(() => list.evaluate((el) => el.scrollLeft), { message: 'the menu scrolled half its width' })
				.toBeGreaterThanOrEqual(Math.floor(width / 2) - 2);
			await expect(left, 'the left arrow after scrolling').toBeVisible();
		});

		await page.goto('/starfall/global/boards');
		await test.step('categories are collapsed unless useCollapsed is N and toggle on click', async () => {
			const media = page.locator('details.tree-category').nth(1);
			const community = page.locator('details.tree-category').nth(0);
			await expect(community, 'a category with useCollapsed N').toHaveAttribute('open', '');
			await expect(media, 'a collapsed category').not.toHaveAttribute('open', '');
			await expect(media.locator('.tree-link').first(), 'a link of the collapsed category').toBeHidden();
			await media.locator('summary').click();
			await expect(media.locator('.tree-link').first(), 'a link of the opened category').toBeVisible();
			await media.locator('summary').click();
			await expect(media.locator('.tree-link').first(), 'a link of the category closed again').toBeHidden();
		});
		await test.step("a collapsed category opens on its own board's page, which it shows as the current one", async () => {
			const href = await page.locator('details.tree-category').nth(1).locator('.tree-link').first().getAttribute('href');
			await page.goto(href ?? '');
			const media = page.locator('details.tree-category').nth(1);
			await expect(media, 'the category of the board being read').toHaveAttribute('open', '');
			await expect(media.locator('[aria-current="page"]'), 'the current board').toBeVisible();
			await expect(media.locator('[aria-current="page"]'), 'the current board').toHaveAttribute('href', href ?? '');
			// The header's menu marks it too, when the board is pinned there.
			const pinned = page.locator(`[data-menu-list] a[href="${href}"]`);
			if ((await pinned.count()) > 0) await expect(pinned, 'the board in the top menu').toHaveAttribute('aria-current', 'page');
		});
		await test.step('guests of a channel with providers see the welcome and the account icon', async () => {
			await expect(page.locator('[data-guest-welcome]'), 'the welcome').toContainText('Welcome to Starfall Odyssey Global');
			await expect(page.locator('[data-account-icon]'), 'the account icon').toHaveAttribute(
				'href',
				'/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal%2Fmypage',
			);
		});
		await test.step('the footer shows policy links, logos, only FACEBOOK, X and LINE, and the copyright line', async () => {
			const footer = page.locator('footer.site-footer');
			await expect(footer.locator('[data-sns]'), 'the social links').toHaveCount(3);
			await expect(footer.locator('.copyright'), 'the copyright line').toHaveText(/All rights reserved\.$/);
			await expect(footer.locator('.logos img'), 'the logos').toHaveCount(3);
		});
		await test.step('the banner is 1920x320 over its colour', async () => {
			await expect(page.locator('[data-banner] img'), 'the banner image').toHaveAttribute('width', '1920');
			const box = await page.locator('[data-banner]').boundingBox();
			expect(box?.height, 'the banner height').toBe(320);
		});
		await test.step('the theme colours come from the channel header (Starfall)', async () => {
			expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'the page background').toBe('rgb(245, 246, 251)');
		});
		await test.step('the channel switcher lists the domain communities', async () => {
			const switcher = page.locator('[data-channel-switcher]');
			await switcher.locator('summary').click();
			const links = switcher.locator('a');
			await expect(links, 'the communities of the domain').toHaveCount(4);
			await links.nth(1).click();
			await expect(page, 'the second community').toHaveURL(/\/starfall\/kr\/boards\/22$/);
		});
		await test.step('the Korean community renders Korean texts', async () => {
			await expect(page.locator('html'), 'the language').toHaveAttribute('lang', 'ko');
			await expect(page.locator('.tree-card').getByRole('link', { name: '전체 글' }), 'All Posts in Korean').toBeVisible();
			await expect(page.locator('[data-guest-welcome] .button'), 'Log in in Korean').toHaveText('로그인');
			await expect(page.locator('.copyright'), 'the copyright line').toHaveText(/All rights reserved\.$/);
		});

		await page.goto('/starfall/jp/boards/31');
		await test.step('the Japanese community renders Japanese texts', async () => {
			await expect(page.locator('html'), 'the language').toHaveAttribute('lang', 'ja');
			await expect(page.locator('.tree-card').getByRole('link', { name: 'すべての投稿' }), 'All Posts in Japanese').toBeVisible();
		});
		await test.step('guests of a channel without providers see neither the welcome nor the account icon', async () => {
			await expect(page.locator('[data-guest-welcome]'), 'the welcome').toHaveCount(0);
			await expect(page.locator('[data-account-icon]'), 'the account icon').toHaveCount(0);
		});

		await page.goto('/starfall/tw/boards');
		await test.step('the Traditional Chinese community renders Chinese texts', async () => {
			await expect(page.locator('html'), 'the language').toHaveAttribute('lang', 'zh-Hant');
			await expect(page.locator('h1'), 'All Posts in Chinese').toHaveText('全部文章');
			await expect(page.locator('[data-guest-welcome] .button'), 'Log in in Chinese').toHaveText('登入');
		});

		await page.goto('/pixelfarm/main/boards');
		await test.step('a menu that fits shows no arrows', async () => {
			await expect(page.locator('[data-menu-arrow="left"]'), 'the left arrow').toBeHidden();
			await expect(page.locator('[data-menu-arrow="right"]'), 'the right arrow').toBeHidden();
		});
		await test.step('the theme colours come from the channel header (Pixel Farm)', async () => {
			expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'the page background').toBe('rgb(21, 25, 29)');
			const active = await page
				.locator('.subjects a[aria-current="page"], .pagination a[aria-current="page"]')
				.first()
				.evaluate((el) => getComputedStyle(el).backgroundColor);
			expect(active, 'the current category or page').toBe('rgb(132, 204, 22)');
		});
		await test.step('the channel switcher is absent with one channel', async () => {
			await expect(page.locator('[data-channel-switcher]'), 'the switcher').toHaveCount(0);
		});

		await test.step('the layout is 1196 px wide with a 276 px sidebar at desktop size', async () => {
			await page.setViewportSize({ width: 1400, height: 900 });
			await page.goto('/starfall/global/boards');
			const layout = await page.locator('.layout').boundingBox();
			const sidebar = await page.locator('.sidebar').boundingBox();
			expect(layout?.width, 'the layout width').toBe(1196);
			expect(sidebar?.width, 'the sidebar width').toBe(276);
		});
	});

	test('the route spinner appears only after 200 ms of loading', async ({ page }) => {
		// The page's clock is Playwright's, paused, so the loading lasts exactly as long as the test
		// says; the next page answers 204, so the browser stays on this one, still loading.
		await page.clock.install();
		await page.goto('/starfall/global/boards/12');
		await page.clock.pauseAt(Date.now() + 10_000);
		await page.route('**/starfall/global/boards/13', (route) => route.fulfill({ status: 204 }));
		const spinner = page.locator('[data-route-spinner]');
		await page.locator('.tree-card a[href="/starfall/global/boards/13"]').click();
		await page.clock.runFor(199);
		await expect(spinner).toBeHidden();
		await page.clock.runFor(2);
		await expect(spinner).toBeVisible();
	});

	test('a post is readable on a phone without sideways scrolling', async ({ page }) => {
		await page.setViewportSize({ width: 375, height: 740 });
		await page.goto('/starfall/global/posts/10');
		const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
		expect(overflow).toBeLessThanOrEqual(0);
	});
});

/** Opens a board and hydrates the search box the way a reader does: by clicking into it. */
async function searchBox(page: Page) {
	await page.goto('/starfall/global/boards/12');
	const input = page.getByRole('searchbox');
	await input.click();
	await page.locator('[data-search-ready]').waitFor({ state: 'attached' });
	return input;
}

test.describe('search box', () => {
	test('opens the required modal for an empty keyword and returns focus 300 ms after closing', async ({ page }) => {
		await page.clock.install();
		const input = await searchBox(page);
		await page.clock.pauseAt(Date.now() + 10_000);
		await input.press('Enter');
		const dialog = page.getByRole('dialog');
		await expect(dialog).toContainText('Please enter a search term.');
		await expect(dialog.getByRole('heading')).toHaveText('Notice');
		await dialog.getByRole('button', { name: 'OK' }).click();
		await expect(dialog).toBeHidden();
		await page.clock.runFor(299);
		await expect(input).not.toBeFocused();
		await page.clock.runFor(1);
		await expect(input).toBeFocused();
	});

	test('one character opens the short-keyword modal; a keyword submits to the search route with q and the default search type', async ({ page }) => {
		const input = await searchBox(page);
		await test.step('opens the short-keyword modal for one character', async () => {
			await input.fill('a');
			await input.press('Enter');
			await expect(page.getByRole('dialog'), 'the short-keyword modal').toContainText('Please enter 2 or more characters.');
			await page.keyboard.press('Escape');
			await expect(page.getByRole('dialog'), 'the modal after Escape').toBeHidden();
		});
		await test.step('submits to the search route with q and the default search type', async () => {
			await input.fill('nebula');
			await input.press('Enter');
			await expect(page, 'the search route').toHaveURL(/\/starfall\/global\/search\?q=nebula&searchType=TITLE_AND_CONTENT$/);
		});
	});
});

test.describe('a signed-in phone header (390×844)', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

	for (const channelPath of ['/starfall/global', '/starfall/kr', '/starfall/jp', '/starfall/tw']) {
		test(`shows the whole search placeholder in ${channelPath}, and the search type once the box is in use`, async ({ page }) => {
			const channel = await community(channelPath);
			await signInMember(page, channel, 21, `${channelPath}/boards`);
			await expect(page.locator('[data-bell]')).toBeVisible();
			const input = page.locator('.top-bar-search input[name="q"]');
			// The placeholder's own width, in the box's font, fits the room the box gives it.
			const fit = await input.evaluate((element: HTMLInputElement) => {
				const style = getComputedStyle(element);
				const context = document.createElement('canvas').getContext('2d')!;
				context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
				const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
				return { text: context.measureText(element.placeholder).width, room };
			});
			expect(fit.text).toBeGreaterThan(0);
			expect(fit.text).toBeLessThanOrEqual(fit.room);
			expect(fit.room).toBeGreaterThanOrEqual(48);
			const type = page.locator('.top-bar-search select[name="searchType"]');
			await expect(type).toBeHidden();
			await input.tap();
			await expect(type).toBeVisible();
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
		});
	}

	test('the menu arrow is a 44 px target around its 28 px circle', async ({ page }) => {
		await page.goto('/starfall/global/boards/12');
		const right = page.locator('[data-menu-arrow="right"]');
		await expect(right).toBeVisible();
		const box = (await right.boundingBox())!;
		expect(box.width).toBeGreaterThanOrEqual(44);
		expect(box.height).toBeGreaterThanOrEqual(44);
		expect(box.x + box.width).toBeLessThanOrEqual(390);
		const circle = await right.evaluate((element) => parseFloat(getComputedStyle(element, '::before').width));
		expect(circle).toBeLessThanOrEqual(30);
		const list = page.locator('[data-menu-list]');
		await right.tap();
		await expect.poll(() => list.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
	});
});
