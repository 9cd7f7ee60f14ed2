/**
 * The phone as the first target, at 390×844 in each demo
 * community: nothing wider than the screen, My Page's tabs whole and within reach with Log out in
 * sight, the write page's text area in the first screen, the banner's wordmark whole, tap targets of
 * at least 24 px, and a focus ring that stands out in the light and the dark theme.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, signInMember, type Community } from './write-helpers';
import { signInContext } from './sessions';
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

/** The two communities whose focus ring is checked, each in its first theme. */
const FOCUS_THEMES: Record<string, 'LIGHT' | 'DARK'> = { '/starfall/global': 'LIGHT', '/pixelfarm/main': 'DARK' };

/**
 * One test per community walks its pages once each, first as a guest and then signed in, and runs every check on
 * the page it is about: a page load (and a new browser context) costs far more than a check, and these checks only
 * look. Each check is a step of its own, named by what it checks, so a failure says which one failed.
 */
for (const path of COMMUNITIES) {
	test(`a 390×844 phone in ${path}: the board, a post, search, the write page and My Page`, async ({ page, context }) => {
		test.setTimeout(150_000);
		const channel = await community(path);
		const board = `${path}/boards/${boardOf(channel, 'general')}`;
		const post = `${path}/posts/${postWithComments(channel)}`;
		const write = `${path}/write?boardId=${boardOf(channel, 'general')}`;
		const focusTheme = FOCUS_THEMES[path];

		// A guest's board, post and search.
		await page.goto(board);
		await test.step('the banner keeps its wordmark whole on a phone', () => bannerWhole(page));
		await test.step("the header's search type shows its whole label", () => searchTypeWhole(page));
		if (focusTheme) await test.step(`the focus ring stands out (3:1) in the ${focusTheme} theme`, () => focusRingStandsOut(page, focusTheme));
		await page.goto(post);
		await test.step('the banner steps aside on a post', () => expect(page.locator('[data-banner]'), 'the banner on a post').toBeHidden());
		await page.goto(`${path}/search?q=${encodeURIComponent('Papercraft')}`);
		await test.step('the search box takes the whole first row while the reader types', () => searchBoxWhole(page));

		// Signed in (a minted session: the sign-in itself is sign-in.spec.ts's).
		await signInContext(context, channel, memberIdOf(channel, MEMBER));
		for (const target of [board, post]) {
			await page.goto(target);
			await test.step(`${target} does not scroll sideways`, async () => expect(await scrollsSideways(page), target).toBe(false));
			await test.step(`tap targets on ${target} are at least 24×24 px`, () => targetsAtLeast24(page, target));
		}
		await test.step("the post's reply and comment menu are 44 px where there is room", () => commentControlsRoomy(page));
		await page.goto(write);
		await expect(page.locator('[data-rich-editor="ready"]')).toBeVisible();
		await test.step(`${write} does not scroll sideways`, async () => expect(await scrollsSideways(page), write).toBe(false));
		await test.step("the write page's text area starts in the first screen, under one row of tools and the selects side by side", () =>
			writePageFirstScreen(page));
		await test.step("Cancel, Save draft and Post stay on one line at the screen's foot over a long text, the tools under the header", () =>
			writeActionsAtFoot(page));
		for (const target of [`${path}/mypage?tab=comments`, `${path}/mypage/settings`]) {
			await page.goto(target);
			await test.step(`${target} does not scroll sideways`, async () => expect(await scrollsSideways(page), target).toBe(false));
		}
		const myPage = `${path}/mypage`;
		await page.goto(myPage);
		await test.step(`${myPage} does not scroll sideways`, async () => expect(await scrollsSideways(page), myPage).toBe(false));
		await test.step(`tap targets on ${myPage} are at least 24×24 px`, () => targetsAtLeast24(page, myPage));
		// Last, since it ends the session.
		await test.step("My Page's tabs and menu show whole words, each within reach, and Log out is in the first screen", () =>
			myPageTabsAndLogout(page, myPage));
	});
}

/** On a board: the whole banner image (its wordmark in the middle) inside the screen's width, not cut to "TARFALL ODYSSE". */
async function bannerWhole(page: Page): Promise<void> {
	const banner = page.locator('[data-banner] img');
	if ((await banner.count()) === 0) return;
	await expect(banner, 'the banner').toBeVisible();
	const box = await banner.boundingBox();
	expect(box!.x, 'the banner from the left edge').toBeGreaterThanOrEqual(0);
	expect(box!.x + box!.width, 'the banner to the right edge').toBeLessThanOrEqual(PHONE.width);
	expect(box!.height, "the banner's height").toBeGreaterThan(40);
}

async function searchTypeWhole(page: Page): Promise<void> {
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
	expect(box!.height, "the search type's height").toBeGreaterThanOrEqual(24);
}

async function searchBoxWhole(page: Page): Promise<void> {
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
	expect(box!.x, 'the search box from the left edge').toBeLessThanOrEqual(12);
	expect(box!.x + box!.width, 'the search box to the right edge').toBeGreaterThanOrEqual(PHONE.width - 12);
	expect(await onTopOfBrand(), 'the search box over the icon').toBe('search');
	expect((await input.boundingBox())!.width, "the query's width").toBeGreaterThanOrEqual(140);
	await expect(page.locator('.search-clear'), 'the clear button').toBeInViewport();
	expect(await scrollsSideways(page), 'the search page scrolls sideways').toBe(false);
	// Leaving it gives the row back: the icon is within reach again.
	await input.evaluate((element) => element.blur());
	await expect.poll(onTopOfBrand, { message: 'the icon back after the box is left' }).toBe('brand');
	expect((await page.locator('.top-bar-search').boundingBox())!.width, 'the search box after it is left').toBeLessThan(PHONE.width - 100);
}

async function targetsAtLeast24(page: Page, target: string): Promise<void> {
	expect(await targetSizeViolations(page), `axe target-size on ${target}`).toEqual([]);
	expect(await smallTargets(page), `targets under 24 px on ${target}`).toEqual([]);
}

/** The post's own controls named in the finding: reply and the comment menu, 44 px where there is room. */
async function commentControlsRoomy(page: Page): Promise<void> {
	const reply = await page.locator('.comment-action[data-action="reply"]').first().boundingBox();
	expect(reply!.width, "reply's width").toBeGreaterThanOrEqual(44);
	expect(reply!.height, "reply's height").toBeGreaterThanOrEqual(32);
	const menu = await page.locator('.comment-menu-button').first().boundingBox();
	expect(menu!.width, "the comment menu's width").toBeGreaterThanOrEqual(44);
	expect(menu!.height, "the comment menu's height").toBeGreaterThanOrEqual(44);
}

async function writePageFirstScreen(page: Page): Promise<void> {
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	// The banner steps aside on the write page.
	await expect(page.locator('[data-banner]'), 'the banner on the write page').toBeHidden();
	const content = await page.locator('.editor-content').boundingBox();
	// The text area's top, and room for two lines of text, within the first 844 px.
	expect(content, 'the editor content').not.toBeNull();
	expect(content!.y + 56, `the text area starts at ${content!.y}`).toBeLessThanOrEqual(PHONE.height);
	// The toolbar: one row (every button on the same line), scrolled sideways, inside the screen.
	const tops = await page
		.locator('.editor-tool')
		.evaluateAll((buttons) => [...new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().top)))]);
	expect(tops, "the tools' rows").toHaveLength(1);
	const toolbar = await page.locator('.editor-toolbar').boundingBox();
	expect(toolbar!.x + toolbar!.width, 'the toolbar to the right edge').toBeLessThanOrEqual(PHONE.width);
	// The last tool is reached with the arrow keys (End), which scrolls it into view.
	await page.locator('.editor-tool').first().focus();
	await page.keyboard.press('End');
	const last = page.locator('.editor-tool').last();
	await expect(last, 'the last tool after End').toBeFocused();
	const lastBox = await last.boundingBox();
	expect(lastBox!.x + lastBox!.width, 'the last tool to the right edge').toBeLessThanOrEqual(PHONE.width);
	// The board and category selects sit side by side.
	const selects = await page
		.locator('.write-row')
		.first()
		.locator('select, [data-no-category]')
		.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
	expect(selects, 'the board and category selects').toHaveLength(2);
	expect(selects[0], 'the board and category selects side by side').toBe(selects[1]);
}

/**
 * A text longer than the screen, typed at its end: the bar of Cancel, Save draft and the submit stays at the
 * screen's foot on one line, the line being typed above it, and the tools stay under the sticky header.
 */
async function writeActionsAtFoot(page: Page): Promise<void> {
	await page.locator('.editor-content').click();
	for (let line = 0; line < 24; line++) {
		await page.keyboard.insertText(`Line ${line + 1} of a text longer than the screen.`);
		await page.keyboard.press('Enter');
	}
	expect(await scrollsSideways(page), 'the write page with a long text').toBe(false);
	const bar = page.locator('.write-actions');
	const buttons = await bar.getByRole('button').evaluateAll((elements) =>
		elements.map((element) => {
			const box = element.getBoundingClientRect();
			return {
				text: element.textContent,
				top: Math.round(box.top),
				bottom: box.bottom,
				right: box.right,
				clipped: element.scrollWidth > element.clientWidth,
			};
		}),
	);
	expect(buttons.map((button) => button.text)).toHaveLength(3);
	expect(new Set(buttons.map((button) => button.top)).size, `one line: ${JSON.stringify(buttons)}`).toBe(1);
	for (const button of buttons) {
		expect(button.bottom, `${button.text} within the screen's height`).toBeLessThanOrEqual(PHONE.height);
		expect(button.right, `${button.text} within the screen's width`).toBeLessThanOrEqual(PHONE.width);
		expect(button.clipped, `${button.text} whole`).toBe(false);
	}
	const barTop = (await bar.boundingBox())!.y;
	expect(barTop, "the bar at the screen's foot").toBeGreaterThan(PHONE.height - 80);
	const caret = await page.evaluate(() => {
		const rects = window.getSelection()!.getRangeAt(0).getClientRects();
		const rect = rects[0] ?? (window.getSelection()!.anchorNode as Element).getBoundingClientRect();
		return { top: rect.top, bottom: rect.bottom };
	});
	expect(caret.bottom, 'the line being typed above the bar').toBeLessThanOrEqual(barTop);
	const header = (await page.locator('.top-bar').boundingBox())!;
	const toolbar = (await page.locator('.editor-toolbar').boundingBox())!;
	expect(Math.round(toolbar.y), 'the tools right under the header').toBe(Math.round(header.y + header.height));
	expect(caret.top, 'the line being typed below the tools').toBeGreaterThanOrEqual(toolbar.y + toolbar.height);
}

async function myPageTabsAndLogout(page: Page, myPage: string): Promise<void> {
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
	await expect(logout, 'Log out').toBeEnabled();
	const box = await logout.boundingBox();
	expect(box && box.y + box.height <= PHONE.height, 'Log out in the first screen').toBe(true);
	// It works from there as from Settings.
	await logout.click();
	await page.waitForURL((url) => !url.pathname.includes('/mypage'));
	await page.goto(myPage);
	await expect(page.locator('[data-mypage-logout]'), 'Log out after logging out').toHaveCount(0);
}

/** The focus ring's colour against what is around it, on a board in the community's first theme. */
async function focusRingStandsOut(page: Page, theme: 'LIGHT' | 'DARK'): Promise<void> {
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
		// Above the bar of the actions, which stays at the screen's foot with Post in it.
		const bar = (await page.locator('.write-actions').boundingBox())!;
		expect(bar.y + bar.height, "the actions' bar within the first screen").toBeLessThanOrEqual(DESKTOP.height);
		await expect(page.locator('.write-actions button[type="submit"]')).toBeInViewport();
		expect(area.y + 8 * line).toBeLessThanOrEqual(bar.y);
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
