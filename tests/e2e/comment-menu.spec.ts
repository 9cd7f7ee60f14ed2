/**
 * A comment's menu pressed before the comments island has taken over (its module held until the
 * test lets it through, as on a slow phone): the island opens it once it is there, unless the reader
 * closed it meanwhile, with a press outside it, Escape, or a second press on its button, as each
 * closes an open menu (src/islands/comments/CommentMenu.tsx). Then the island's own menu: opened,
 * closed by a press outside and by Escape, and not opened again by anything that follows. A guest on
 * a demo post with comments, one page load a case.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { community } from './write-helpers';

const GLOBAL = '/starfall/global';

const section = (page: Page) => page.locator('[data-comments]');
const menuButton = (page: Page) => section(page).locator('.comment-menu-button').first();
const menuList = (page: Page) => section(page).locator('.comment-menu-list');

/** Once the island's effects have run: a frame, then a task after it (no clock involved). */
const settled = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve))));

/** A visible demo post of the global community with two readable comments. */
async function postPath(): Promise<string> {
	const channel = await community(GLOBAL);
	const [row] = execute(
		`SELECT p.id FROM posts p WHERE p.channel_id = ${channel.index} AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0
		 AND (SELECT COUNT(*) FROM comments c WHERE c.post_id = p.id AND c.deleted_at IS NULL AND c.hidden_by_admin = 0) >= 2
		 ORDER BY p.id LIMIT 1`,
	) as { id: number }[];
	return `${GLOBAL}/posts/${row!.id}`;
}

/**
 * Opens `path` with the island's module held; `before` acts on the page before the island, which
 * then takes over. Resolves once the island has mounted and run its first effects.
 */
async function beforeIsland(page: Page, path: string, before: () => Promise<void>): Promise<void> {
	let release: () => void = () => undefined;
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route(/\/_astro\/mount\.[\w-]+\.js$/, async (route) => {
		await held;
		await route.continue();
	});
	await page.goto(path);
	await expect(section(page)).toHaveAttribute('data-comments-loader', 'armed');
	await menuButton(page).click();
	await before();
	await expect(section(page), 'the island waits for its module').not.toHaveAttribute('data-mounted');
	release();
	await expect(section(page)).toHaveAttribute('data-mounted', '');
	await settled(page);
	await page.unrouteAll();
}

/**
 * The first comment's menu is still closed once the island has answered a later press: another
 * comment's menu, opened through the island, is then the only one open (a replay of the first press,
 * had it been left pending, would have run before the island handled this one).
 */
async function staysClosed(page: Page): Promise<void> {
	const other = section(page).locator('.comment-menu-button').nth(1);
	await other.click();
	await expect(other).toHaveAttribute('aria-expanded', 'true');
	await expect(menuList(page)).toHaveCount(1);
	await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
	await page.keyboard.press('Escape');
	await expect(menuList(page)).toBeHidden();
}

test.describe('a comment menu pressed before the island', () => {
	test('opens once the island is there, with the focus on its first item', async ({ page }) => {
		await beforeIsland(page, await postPath(), async () => undefined);
		await expect(menuList(page)).toBeVisible();
		await expect(menuList(page).getByRole('menuitem').first()).toBeFocused();
		await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
	});

	test('stays closed after a press outside it, outside the comments or inside them', async ({ page }) => {
		const path = await postPath();
		await beforeIsland(page, path, () => page.locator('h1').first().click());
		await expect(menuList(page)).toBeHidden();
		await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
		await staysClosed(page);
		await beforeIsland(page, path, () => section(page).locator('h2').first().click());
		await expect(menuList(page)).toBeHidden();
		await staysClosed(page);
	});

	test('stays closed after Escape, or a second press on its button', async ({ page }) => {
		const path = await postPath();
		await beforeIsland(page, path, () => page.keyboard.press('Escape'));
		await expect(menuList(page)).toBeHidden();
		await staysClosed(page);
		await beforeIsland(page, path, () => menuButton(page).click());
		await expect(menuList(page)).toBeHidden();
		await staysClosed(page);
	});
});

test("the island's menu closes at a press outside and at Escape, and does not open again", async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 });
	await page.goto(await postPath());
	await expect(section(page)).toHaveAttribute('data-comments-loader', 'armed');
	// The first press wakes the island, which replays it.
	await menuButton(page).click();
	await expect(menuList(page)).toBeVisible();
	// A press outside, at the screen's left edge beside the comments (as the review run presses).
	await page.mouse.click(2, 422);
	await expect(menuList(page)).toBeHidden();
	await settled(page);
	await expect(menuList(page), 'still closed once the press has ended').toBeHidden();
	// Its button opens and closes it; Escape in it closes it and gives the button the focus back.
	await menuButton(page).click();
	await expect(menuList(page)).toBeVisible();
	await menuButton(page).click();
	await expect(menuList(page)).toBeHidden();
	await menuButton(page).click();
	await page.keyboard.press('Escape');
	await expect(menuList(page)).toBeHidden();
	await expect(menuButton(page)).toBeFocused();
	await settled(page);
	await expect(menuList(page)).toBeHidden();
});
