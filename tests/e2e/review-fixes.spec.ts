/**
 * What the look at the member features' screens found (tests/e2e/review-screens.spec.ts), held:
 * a comment's menu is as wide as "Block {nickname}" on a phone, so the nickname is not broken over
 * lines, and stays on the screen; in the dark theme (Pixel Farm's) the Block confirm's red button
 * has text a reader can read (4.5:1). Korean on a dark community (Starfall's kr set dark for the test,
 * community-theme.ts): the bell's count and the chosen order tab are 4.5:1, and the muted marks (a
 * deleted comment, a saved post that is gone) stand upright, not in a slanted faux italic; a
 * notification's avatar keeps its 24 px (My Page's 52 px rule reached every avatar in its card).
 * Japanese on a dark community, and English on a phone: a profile's Block button keeps "Block
 * {nickname}" ("{nickname}さんをブロック") on one line, and a notification's avatar and unread dot stand
 * on its sentence's first line (the avatar rose above it).
 */
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, freshMember, freshPost } from './write-helpers';
import { signInContext } from './sessions';
import { setTheme } from './community-theme';

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

test("Korean on a dark community: the bell's count and the chosen order tab are 4.5:1, muted marks upright, a notification's avatar 24 px", async ({
	page,
}) => {
	const channel = await community('/starfall/kr');
	const reader = freshMember('Reader', channel.index).id;
	const writer = freshMember('Writer', channel.index).id;
	const now = Date.now();
	const postId = freshPost(channel, `Dark ${reader}`);
	const [gone] = execute(
		`INSERT INTO comments (channel_id, post_id, member_id, content, created_at, deleted_at) VALUES (${channel.index}, ${postId}, ${writer}, 'Gone.', ${now - 60_000}, ${now - 30_000}) RETURNING id`,
	) as { id: number }[];
	execute(
		`INSERT INTO comments (channel_id, post_id, member_id, parent_id, content, created_at) VALUES (${channel.index}, ${postId}, ${writer}, ${gone!.id}, 'Still here.', ${now - 50_000})`,
	);
	execute(`UPDATE posts SET comment_count = 2 WHERE id = ${postId}`);
	const deleted = freshPost(channel, `Deleted ${reader}`);
	execute(`UPDATE posts SET deleted_at = ${now} WHERE id = ${deleted}`);
	execute(`INSERT INTO saved_posts (member_id, post_id, channel_id, saved_at) VALUES (${reader}, ${deleted}, ${channel.index}, ${now})`);
	execute(
		`INSERT INTO notifications (channel_id, member_id, kind, dedupe_key, actor_id, post_id, created_at, updated_at)
		 VALUES (${channel.index}, ${reader}, 'COMMENT', 'dark-${postId}', ${writer}, ${postId}, ${now}, ${now})`,
	);
	execute(`UPDATE members SET unread_notifications = 1 WHERE id = ${reader}`);
	await signInContext(page.context(), channel, reader);
	const restore = await setTheme(page.request, channel, 'dark');
	/** The text's colour against the first opaque background behind it (the badge's own, a card's). */
	const ratio = (selector: string) =>
		page
			.locator(selector)
			.first()
			.evaluate((element) => {
				let at: Element | null = element;
				let background = 'rgb(0, 0, 0)';
				for (; at; at = at.parentElement) {
					const fill = getComputedStyle(at).backgroundColor;
					if (fill.startsWith('rgb(')) {
						background = fill;
						break;
					}
				}
				return [getComputedStyle(element).color, background] as const;
			});
	try {
		await page.goto(`/starfall/kr/posts/${postId}`);
		await expect(page.locator('html')).toHaveAttribute('data-theme', 'DARK');
		await test.step("the bell's count", async () => {
			await expect(page.locator('[data-bell-count]')).toBeVisible();
			const [colour, background] = await ratio('[data-bell-count]');
			expect.soft(contrast(colour, background), `${colour} on ${background}`).toBeGreaterThanOrEqual(4.5);
		});
		await test.step("a deleted comment's mark is upright", async () => {
			await expect(page.locator('.comment-text.muted')).toHaveText('삭제된 댓글입니다.');
			expect.soft(await page.locator('.comment-text.muted').evaluate((element) => getComputedStyle(element).fontStyle)).toBe('normal');
		});
		await test.step('the chosen order tab', async () => {
			await page.goto(`/starfall/kr/boards/${boardOf(channel, 'general')}?sort=popular`);
			const [colour, background] = await ratio('[data-sort-tabs] a[aria-current="page"]');
			expect.soft(contrast(colour, background), `${colour} on ${background}`).toBeGreaterThanOrEqual(4.5);
		});
		await test.step("a notification's avatar is the list's 24 px, not My Page's 52", async () => {
			await page.goto('/starfall/kr/mypage/notifications');
			const avatar = (await page.locator('.notification-avatar').first().boundingBox())!;
			expect.soft([Math.round(avatar.width), Math.round(avatar.height)]).toEqual([24, 24]);
		});
		await test.step('a saved post that is gone: its mark is upright', async () => {
			await page.goto('/starfall/kr/mypage?tab=saved');
			await expect(page.locator('.saved-gone')).toBeVisible();
			expect.soft(await page.locator('.saved-gone').evaluate((element) => getComputedStyle(element).fontStyle)).toBe('normal');
		});
	} finally {
		await restore();
	}
});

// The nicknames are as long as fits the card's width on one line with the label (about 290 px): 18
// characters with "Block ", 15 with "さんをブロック"; beside the picture, both broke over two lines.
for (const { path, name, block } of [
	{ path: '/starfall/global', name: 'Author', block: (nickname: string) => `Block ${nickname}` },
	{ path: '/starfall/jp', name: 'Lam', block: (nickname: string) => `${nickname}さんをブロック` },
]) {
	test(`${path} on a phone: a profile's Block button is one line, a notification's avatar and dot stand on its sentence's first line`, async ({
		page,
	}) => {
		const channel = await community(path);
		const reader = freshMember('Reader', channel.index).id;
		const author = freshMember(name, channel.index);
		const postId = freshPost(channel, `Profile ${author.nickname}`);
		const now = Date.now();
		execute(
			`INSERT INTO notifications (channel_id, member_id, kind, dedupe_key, actor_id, post_id, created_at, updated_at)
			 VALUES (${channel.index}, ${reader}, 'COMMENT', 'line-${postId}', ${author.id}, ${postId}, ${now}, ${now})`,
		);
		execute(`UPDATE members SET unread_notifications = 1 WHERE id = ${reader}`);
		await signInContext(page.context(), channel, reader);
		await test.step('the Block button: "Block {nickname}" on one line, within the card', async () => {
			await page.goto(`${path}/users/${author.id}`);
			const label = page.locator('[data-block-toggle] [data-block-label]');
			await expect(label).toHaveText(block(author.nickname));
			const [height, lineHeight] = await label.evaluate((element) => [
				element.getBoundingClientRect().height,
				parseFloat(getComputedStyle(element).lineHeight),
			]);
			expect.soft(height, `${height}px for a ${lineHeight}px line`).toBeLessThan(lineHeight * 1.5);
			const button = (await page.locator('[data-block-toggle]').boundingBox())!;
			const card = (await page.locator('.profile-header').boundingBox())!;
			expect.soft(button.x + button.width).toBeLessThanOrEqual(card.x + card.width);
		});
		await test.step("a notification's avatar and unread dot: centred on the sentence's first line", async () => {
			await page.goto(`${path}/mypage/notifications`);
			const offsets = await page
				.locator('.notification-text')
				.first()
				.evaluate((element) => {
					const text = [...element.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '')!;
					const range = document.createRange();
					range.selectNodeContents(text);
					const line = range.getClientRects()[0]!;
					const middle = (box: DOMRect) => box.top + box.height / 2;
					return ['.notification-avatar', '.unread-dot'].map((selector) =>
						Math.abs(middle(element.querySelector(selector)!.getBoundingClientRect()) - middle(line)),
					);
				});
			expect.soft(offsets[0], 'the avatar').toBeLessThanOrEqual(2);
			expect.soft(offsets[1], 'the unread dot').toBeLessThanOrEqual(2);
		});
	});
}
