/**
 * The phone as the first target, at 390×844 in each demo
 * community: nothing wider than the screen, My Page's tabs whole and within reach with Log out in
 * sight, the write page's text area in the first screen, the banner's wordmark whole, tap targets of
 * at least 24 px, and a focus ring that stands out in the light and the dark theme.
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, signInMember, type Community } from './write-helpers';
import { DESKTOP, PHONE, scrollsSideways, smallTargets, targetSizeViolations } from './phone-checks';

test.use({ viewport: PHONE });

const COMMUNITIES = ['/starfall/global', '/starfall/kr', '/starfall/jp', '/starfall/tw', '/pixelfarm/main'];
/** The demo member these tests sign in as: the seed's seventh, whom no other test bans or renames. */
const MEMBER = 6;

/** The community's public post with the most comments (replies among them). */
function postWithComments(channel: Community): number {
	const [row] = execute(
		`SELECT c.post_id AS postId FROM comments c JOIN posts p ON p.id = c.post_id
		 WHERE c.channel_id = ${channel.index} AND c.deleted_at IS NULL AND p.deleted_at IS NULL AND p.is_private = 0 AND p.hidden_by_admin = 0
		 GROUP BY c.post_id ORDER BY count(*) DESC LIMIT 1`,
	) as { postId: number }[];
	if (!row) throw new Error(`${channel.path} has no post with comments`);
	return row.postId;
}

/** How many lines the element's text takes. */
function lines(locator: Locator): Promise<number> {
	return locator.evaluate((element) => {
		const range = document.createRange();
		range.selectNodeContents(element);
		return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
	});
}

for (const path of COMMUNITIES) {
	test.describe(`a 390×844 phone in ${path}`, () => {
		test('the board, a post, the write page and My Page do not scroll sideways', async ({ page }) => {
			const channel = await community(path);
			const board = `${path}/boards/${boardOf(channel, 'general')}`;
			await signInMember(page, channel, MEMBER, board);
			for (const target of [
				board,
				`${path}/posts/${postWithComments(channel)}`,
				`${path}/write?boardId=${boardOf(channel, 'general')}`,
				`${path}/mypage`,
				`${path}/mypage?tab=comments`,
				`${path}/mypage/settings`,
			]) {
				await page.goto(target);
				if (target.includes('/write')) await expect(page.locator('[data-rich-editor="ready"]')).toBeVisible();
				expect(await scrollsSideways(page), target).toBe(false);
			}
		});

		test("My Page's tabs and menu show whole words, each within reach, and Log out is in the first screen", async ({ page }) => {
			const channel = await community(path);
			await signInMember(page, channel, MEMBER, `${path}/mypage`);
			const width = PHONE.width;
			for (const item of await page.locator('.mypage-tabs a, .mypage-menu a').all()) {
				const text = await item.textContent();
				await expect(item, `${text}`).toBeVisible();
				// One line: no pill breaks inside a word ("Pos / ts").
				expect(await lines(item), `${text} on one line`).toBe(1);
				// Every item whole on the screen: none clipped ("Se") or beyond its edge.
				const box = await item.boundingBox();
				expect(box && box.x >= 0 && box.x + box.width <= width, `${text} within the screen: ${JSON.stringify(box)}`).toBe(true);
				const clipped = await item.evaluate((element) => element.scrollWidth > element.clientWidth);
				expect(clipped, `${text} not cut`).toBe(false);
			}
			const logout = page.locator('[data-mypage-logout] button');
			await expect(logout).toBeEnabled();
			const box = await logout.boundingBox();
			expect(box && box.y + box.height <= PHONE.height, 'Log out in the first screen').toBe(true);
			// It works from there as from Settings.
			await logout.click();
			await page.waitForURL((url) => !url.pathname.includes('/mypage'));
			await page.goto(`${path}/mypage`);
			await expect(page.locator('[data-mypage-logout]')).toHaveCount(0);
		});

		test("the write page's text area starts in the first screen, under one row of tools and the selects side by side", async ({ page }) => {
			const channel = await community(path);
			const write = `${path}/write?boardId=${boardOf(channel, 'general')}`;
			await signInMember(page, channel, MEMBER, `${path}/boards/${boardOf(channel, 'general')}`);
			await page.goto(write);
			await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
			// The banner steps aside on the write page.
			await expect(page.locator('[data-banner]')).toBeHidden();
			const content = await page.locator('.editor-content').boundingBox();
			// The text area's top, and room for two lines of text, within the first 844 px.
			expect(content, 'the editor content').not.toBeNull();
			expect(content!.y + 56, `the text area starts at ${content!.y}`).toBeLessThanOrEqual(PHONE.height);
			// The toolbar: one row (every button on the same line), scrolled sideways, inside the screen.
			const tops = await page
				.locator('.editor-tool')
				.evaluateAll((buttons) => [...new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().top)))]);
			expect(tops).toHaveLength(1);
			const toolbar = await page.locator('.editor-toolbar').boundingBox();
			expect(toolbar!.x + toolbar!.width).toBeLessThanOrEqual(PHONE.width);
			// The last tool is reached with the arrow keys (End), which scrolls it into view.
			await page.locator('.editor-tool').first().focus();
			await page.keyboard.press('End');
			const last = page.locator('.editor-tool').last();
			await expect(last).toBeFocused();
			const lastBox = await last.boundingBox();
			expect(lastBox!.x + lastBox!.width).toBeLessThanOrEqual(PHONE.width);
			// The board and category selects sit side by side.
			const selects = await page
				.locator('.write-row')
				.first()
				.locator('select, [data-no-category]')
				.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
			expect(selects).toHaveLength(2);
			expect(selects[0]).toBe(selects[1]);
		});

		test('the banner keeps its wordmark whole on a phone and steps aside on a post and on My Page', async ({ page }) => {
			const channel = await community(path);
			await page.goto(`${path}/boards/${boardOf(channel, 'general')}`);
			const banner = page.locator('[data-banner] img');
			if ((await banner.count()) === 0) return;
			await expect(banner).toBeVisible();
			// The whole image (its wordmark in the middle) inside the screen's width, not cut to "TARFALL ODYSSE".
			const box = await banner.boundingBox();
			expect(box!.x).toBeGreaterThanOrEqual(0);
			expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
			expect(box!.height).toBeGreaterThan(40);
			await page.goto(`${path}/posts/${postWithComments(channel)}`);
			await expect(page.locator('[data-banner]')).toBeHidden();
		});

		test('tap targets on the board, a post with comments and My Page are at least 24×24 px', async ({ page }) => {
			const channel = await community(path);
			const board = `${path}/boards/${boardOf(channel, 'general')}`;
			await signInMember(page, channel, MEMBER, board);
			for (const target of [board, `${path}/posts/${postWithComments(channel)}`, `${path}/mypage`]) {
				await page.goto(target);
				expect(await targetSizeViolations(page), `axe target-size on ${target}`).toEqual([]);
				expect(await smallTargets(page), `targets under 24 px on ${target}`).toEqual([]);
			}
			// The post's own controls named in the issue: reply and the comment menu, 44 px where there is room.
			await page.goto(`${path}/posts/${postWithComments(channel)}`);
			const reply = await page.locator('.comment-action[data-action="reply"]').first().boundingBox();
			expect(reply!.width).toBeGreaterThanOrEqual(44);
			expect(reply!.height).toBeGreaterThanOrEqual(32);
			const menu = await page.locator('.comment-menu-button').first().boundingBox();
			expect(menu!.width).toBeGreaterThanOrEqual(44);
			expect(menu!.height).toBeGreaterThanOrEqual(44);
		});

		test("the header's search type shows its whole label", async ({ page }) => {
			const channel = await community(path);
			await page.goto(`${path}/boards/${boardOf(channel, 'general')}`);
			const select = page.locator('#search-type');
			const fits = await select.evaluate((element) => {
				const style = getComputedStyle(element);
				const context = document.createElement('canvas').getContext('2d')!;
				context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
				const label = element.querySelector('option:checked')?.textContent ?? '';
				// The label plus the arrow (about 16 px) fits inside the select's own width.
				return { text: context.measureText(label).width, width: element.clientWidth };
			});
			expect(fits.width, `"${fits.text}" px of label in a ${fits.width} px select`).toBeGreaterThanOrEqual(fits.text + 16);
			const box = await select.boundingBox();
			expect(box!.height).toBeGreaterThanOrEqual(24);
		});

		test('the search box takes the whole first row while the reader types, so the query stays readable', async ({ page }) => {
			await page.goto(`${path}/search?q=${encodeURIComponent('Papercraft')}`);
			const input = page.locator('#search-q');
			// The first touch wakes the search island, which keeps the focus in the box.
			await input.click();
			await expect(page.locator('[data-search-ready]')).toHaveCount(1);
			await expect(input).toBeFocused();
			// The box spans the row (12 px from each edge), over the community's icon, and the query has room
			// for about 20 characters.
			const onTopOfBrand = () =>
				page.locator('.brand').evaluate((brand) => {
					const { x, y, width, height } = brand.getBoundingClientRect();
					const top = document.elementFromPoint(x + width / 2, y + height / 2);
					return top?.closest('.top-bar-search') ? 'search' : top?.closest('.brand') ? 'brand' : String(top?.className);
				});
			const box = await page.locator('.top-bar-search').boundingBox();
			expect(box!.x).toBeLessThanOrEqual(12);
			expect(box!.x + box!.width).toBeGreaterThanOrEqual(PHONE.width - 12);
			expect(await onTopOfBrand()).toBe('search');
			expect((await input.boundingBox())!.width).toBeGreaterThanOrEqual(140);
			await expect(page.locator('.search-clear')).toBeInViewport();
			expect(await scrollsSideways(page)).toBe(false);
			// Leaving it gives the row back: the icon is within reach again.
			await input.evaluate((element) => element.blur());
			await expect.poll(onTopOfBrand).toBe('brand');
			expect((await page.locator('.top-bar-search').boundingBox())!.width).toBeLessThan(PHONE.width - 100);
		});
	});
}

/** The focus ring's colour against what is around it, in the first theme and the dark one. */
for (const [path, theme] of [
	['/starfall/global', 'LIGHT'],
	['/pixelfarm/main', 'DARK'],
] as const) {
	test(`the focus ring stands out (3:1) in ${path}'s ${theme} theme`, async ({ page }) => {
		const channel = await community(path);
		await page.goto(`${path}/boards/${boardOf(channel, 'general')}`);
		await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
		// The keyboard's focus, on a post's title in the list, a card button, the header's menu, a footer link.
		await page.keyboard.press('Tab');
		for (const selector of ['.post-row .post-title', '.board-header .button', '.menu-list a', '.site-footer .policy a', '.skip-link']) {
			const element = page.locator(selector).first();
			await element.focus();
			const ring = await element.evaluate((target) => {
				/** [r, g, b, a] of a computed colour: rgb(), rgba() or color(srgb …). */
				const parse = (value: string): number[] => {
					const srgb = /color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)/.exec(value);
					if (srgb) return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255, srgb[4] === undefined ? 1 : Number(srgb[4])];
					const rgb = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(value);
					if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
					throw new Error(`Unread colour ${value}`);
				};
				/** The opaque colour behind an element: its backgrounds composited up to the page. */
				const behind = (start: Element | null): number[] => {
					const layers: number[][] = [];
					for (let node = start; node; node = node.parentElement) {
						const colour = parse(getComputedStyle(node).backgroundColor);
						if (colour[3]! > 0) layers.push(colour);
						if (colour[3] === 1) break;
					}
					let result = [255, 255, 255];
					for (const [r, g, b, a] of layers.reverse())
						result = [r! * a! + result[0]! * (1 - a!), g! * a! + result[1]! * (1 - a!), b! * a! + result[2]! * (1 - a!)];
					return result;
				};
				const luminance = ([r, g, b]: number[]) =>
					[r!, g!, b!]
						.map((value) => {
							const c = value / 255;
							return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
						})
						.reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
				const contrast = (a: number[], b: number[]) => {
					const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
					return (high + 0.05) / (low + 0.05);
				};
				const style = getComputedStyle(target);
				const colour = parse(style.outlineColor);
				return {
					focusVisible: target.matches(':focus-visible'),
					style: style.outlineStyle,
					width: parseFloat(style.outlineWidth),
					// The ring is drawn just outside the element (offset ≥ 0): against what is behind the element.
					outside: contrast(colour, behind(target.parentElement)),
					inside: contrast(colour, behind(target)),
					offset: parseFloat(style.outlineOffset),
				};
			});
			expect(ring.focusVisible, selector).toBe(true);
			expect(ring.style, `${selector}: a solid ring`).toBe('solid');
			expect(ring.width, selector).toBeGreaterThanOrEqual(2);
			expect(ring.outside, `${selector}: ring against its surroundings`).toBeGreaterThanOrEqual(3);
			if (ring.offset <= 0) expect(ring.inside, `${selector}: ring against the element`).toBeGreaterThanOrEqual(3);
		}
	});
}

test.describe('a 1440×900 desktop', () => {
	test.use({ viewport: DESKTOP });

	test('the banner shows at its own size, centred, its middle whole, and the page does not scroll sideways', async ({ page }) => {
		await page.goto('/starfall/kr/boards/22');
		const box = await page.locator('[data-banner] img').boundingBox();
		expect(box!.height).toBe(320);
		// Centred: its middle 1,200 px (the wordmark's band) inside the window.
		const middle = await page.evaluate(() => document.documentElement.clientWidth / 2);
		expect(Math.abs(box!.x + box!.width / 2 - middle)).toBeLessThanOrEqual(1);
		expect(await scrollsSideways(page)).toBe(false);
		// On a post the desktop keeps the banner.
		await page.goto('/starfall/kr/posts/313');
		await expect(page.locator('[data-banner]')).toBeVisible();
	});

	test('the write page, a post and the admin area start in the first screen: their banner is a 120 px band', async ({ page }) => {
		const channel = await community('/starfall/global');
		await signInMember(page, channel, 0, `/starfall/global/write?boardId=${boardOf(channel, 'general')}`);
		const band = async () => (await page.locator('[data-banner]').boundingBox())!;
		// The box is the band's own, whatever the image: 120 px tall across the window, the whole image centred in it.
		expect(await band()).toEqual({ x: 0, y: expect.any(Number), width: DESKTOP.width, height: 120 });
		const image = (await page.locator('[data-banner] img').boundingBox())!;
		expect(image.height).toBe(120);
		expect(image.width).toBe(720);
		// The editor: its toolbar and at least eight lines of its writing area on the first screen.
		const editor = page.locator('[data-rich-editor="ready"] [contenteditable="true"]');
		await expect(editor).toBeVisible();
		const area = (await editor.boundingBox())!;
		const line = await editor.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
		expect(area.y + 8 * line).toBeLessThanOrEqual(DESKTOP.height);
		expect(await scrollsSideways(page)).toBe(false);

		// A post: its title, byline and the first lines of its text.
		const [post] = execute(
			`SELECT id FROM posts WHERE channel_id = 1 AND board_id = ${boardOf(channel, 'general')} AND channel_seq IS NOT NULL AND deleted_at IS NULL AND hidden_by_admin = 0 ORDER BY id DESC LIMIT 1`,
		) as { id: number }[];
		await page.goto(`/starfall/global/posts/${post!.id}`);
		expect((await band()).height).toBe(120);
		const title = (await page.locator('h1.post-title').boundingBox())!;
		const body = (await page.locator('.post-body').boundingBox())!;
		const bodyLine = await page.locator('.post-body').evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
		expect(title.y).toBeLessThanOrEqual(300);
		expect(body.y + 6 * bodyLine).toBeLessThanOrEqual(DESKTOP.height);

		// The admin area: its tabs and its first section start in the upper half.
		await page.goto('/starfall/global/admin');
		expect((await band()).height).toBe(120);
		const section = (await page.locator('.admin-section').first().boundingBox())!;
		expect(section.y).toBeLessThanOrEqual(DESKTOP.height / 2);

		// A board list keeps the full band.
		await page.goto(`/starfall/global/boards/${boardOf(channel, 'general')}`);
		expect((await band()).height).toBe(320);
	});

	test("My Page's menu and tabs sit on one line each, with Log out beside the name", async ({ page }) => {
		const channel = await community('/starfall/kr');
		await signInMember(page, channel, MEMBER, '/starfall/kr/mypage');
		for (const row of ['.mypage-tabs a', '.mypage-menu a']) {
			const tops = await page.locator(row).evaluateAll((items) => [...new Set(items.map((item) => Math.round(item.getBoundingClientRect().top)))]);
			expect(tops, row).toHaveLength(1);
		}
		await expect(page.locator('[data-mypage-logout] button')).toHaveText('로그아웃');
	});
});
