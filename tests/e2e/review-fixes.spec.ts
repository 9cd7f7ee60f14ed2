/**
 * What the look at the member features' screens found (tests/e2e/review-screens.spec.ts), held:
 * a comment's menu is as wide as "Block {nickname}" on a phone, so the nickname is not broken over
 * lines, and stays on the screen; in the dark theme (Pixel Farm's) the Block confirm's red button
 * has text a reader can read (4.5:1).
 */
import { expect, test } from './test';
import { execute } from './fixtures';
import { community, freshMember, freshPost } from './write-helpers';
import { signInContext } from './sessions';

test.use({ viewport: { width: 390, height: 844 } });

/** The contrast ratio of two CSS colours `rgb(r, g, b)` (WCAG 2's relative luminance). */
function contrast(first: string, second: string): number {
	const luminance = (colour: string) => {
		const [red, green, blue] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
			const value = Number(part) / 255;
			return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
		}) as [number, number, number];
		return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
	};
	const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
	return (light + 0.05) / (dark + 0.05);
}

for (const { path, block } of [
	{ path: '/starfall/global', block: (nickname: string) => `Block ${nickname}` },
	{ path: '/starfall/kr', block: (nickname: string) => `${nickname} 차단` },
]) {
	test(`${path}: a comment's menu on a phone keeps "Block {nickname}" on one line, within the screen`, async ({ page }) => {
		const channel = await community(path);
		const writer = freshMember('Lanternkeeper', channel.index);
		const postId = freshPost(channel, `Menus ${writer.nickname}`);
		execute(
			`INSERT INTO comments (channel_id, post_id, member_id, content, created_at) VALUES (${channel.index}, ${postId}, ${writer.id}, 'Lovely lanterns.', ${Date.now()})`,
		);
		execute(`UPDATE posts SET comment_count = 1 WHERE id = ${postId}`);
		await signInContext(page.context(), channel, freshMember('Reader', channel.index).id);
		await page.goto(`${path}/posts/${postId}`);
		const comment = page.locator('[data-comments] li', { hasText: 'Lovely lanterns.' }).first();
		await comment.scrollIntoViewIfNeeded();
		await comment.locator('[aria-haspopup="menu"]').click();
		const items = page.locator('.comment-menu-list button');
		const blockItem = items.filter({ hasText: block(writer.nickname) });
		await expect(blockItem).toBeVisible();
		const heights = await items.evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().height));
		// Every item is one line: as tall as the shortest ("Copy link").
		expect(Math.max(...heights)).toBeLessThan(Math.min(...heights) * 1.3);
		const menu = (await page.locator('.comment-menu-list').boundingBox())!;
		expect(menu.x).toBeGreaterThanOrEqual(0);
		expect(menu.x + menu.width).toBeLessThanOrEqual(390);
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
	});
}

test("the dark theme's Block confirm: the red button's text is 4.5:1 on it", async ({ page }) => {
	const channel = await community('/pixelfarm/main');
	const other = freshMember('Farmhand', channel.index);
	await signInContext(page.context(), channel, freshMember('Reader', channel.index).id);
	await page.goto(`/pixelfarm/main/users/${other.id}`);
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'DARK');
	await page.locator('[data-block-toggle]').click();
	const confirm = page.locator('dialog[data-block-dialog] [data-block-confirm]');
	await expect(confirm).toBeVisible();
	const [colour, background] = await confirm.evaluate((button) => [getComputedStyle(button).color, getComputedStyle(button).backgroundColor]);
	expect(contrast(colour!, background!)).toBeGreaterThanOrEqual(4.5);
});
