/**
 * Nothing moves while a page loads on a phone: at 390×844, in every demo community, each kind of
 * page (a board, a media board, All Posts, a post with comments, search, a profile, the not-found
 * page, the login page; My Page, its notifications and settings, the write page and a post as a
 * member) is loaded and the layout shifts the browser reports for it (the Layout Instability API's
 * `layout-shift` entries, observed from the document's start, those after an input left out as CLS
 * leaves them) must sum to 0. What Lighthouse's CLS counts, read in the tests' own browser.
 *
 * The network is slowed to a phone's, so the page's HTML arrives in parts, as it does on a phone: a
 * page the browser would paint half-read (the sidebar first, then the main column above it pushing
 * it down: docs/reference/phone-layout.md, "Nothing moves while a page loads") is caught every time, not now
 * and then. No shift at all is allowed, not a small sum: none of these pages has a reason to move.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, type Community } from './write-helpers';
import { signInContext } from './sessions';
import { DESKTOP, PHONE } from './phone-checks';

test.use({ viewport: PHONE });

const COMMUNITIES = ['/starfall/global', '/starfall/kr', '/starfall/jp', '/starfall/tw', '/pixelfarm/main'];
/** The demo member these tests sign in as: the seed's seventh, whom no other test bans or renames (as phone-layout.spec.ts). */
const MEMBER = 6;

/** Records every layout shift of each document from its start, before anything is painted. */
async function observeShifts(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const seen: { value: number; hadRecentInput: boolean; sources: string[] }[] = [];
		const take = (entries: PerformanceEntryList) => {
			for (const entry of entries as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node | null }[] })[]) {
				seen.push({
					value: entry.value,
					hadRecentInput: entry.hadRecentInput,
					sources: entry.sources.map((source) => {
						const node = source.node;
						return node instanceof Element
							? `${node.tagName.toLowerCase()}${node.className && typeof node.className === 'string' ? `.${node.className.trim().split(/\s+/).join('.')}` : ''}`
							: String(node?.nodeName);
					}),
				});
			}
		};
		const observer = new PerformanceObserver((list) => take(list.getEntries()));
		observer.observe({ type: 'layout-shift', buffered: true });
		// Entries the observer holds but has not handed over yet are taken when the test reads.
		Object.defineProperty(window, '__layoutShifts', { value: () => (take(observer.takeRecords()), seen) });
	});
}

/**
 * A phone's network (3.2 Mbit/s, 40 ms): a page's HTML arrives in parts, and the browser may paint
 * between them. Without it the local server answers so fast that a half-read page is painted only now and then.
 */
async function slowNetwork(page: Page): Promise<void> {
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: 400 * 1024, uploadThroughput: 200 * 1024 });
}

/** Loads `path` and waits until it is still: loaded, the network quiet, the images in view decoded. */
async function loadStill(page: Page, path: string, ready?: string): Promise<void> {
	await page.goto(path);
	await page.waitForLoadState('networkidle');
	if (ready) await expect(page.locator(ready)).toBeVisible();
	await page.evaluate(() =>
		Promise.all(
			[...document.images]
				.filter((image) => image.loading !== 'lazy' || image.getBoundingClientRect().top < innerHeight)
				.map((image) => image.decode().catch(() => undefined)),
		),
	);
	// Two frames, so that a shift from what just decoded is reported.
	await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The page's layout shifts so far, without those after an input: their sum is what CLS adds up. */
async function shiftsOf(page: Page): Promise<{ value: number; sources: string[] }[]> {
	const all = await page.evaluate(() =>
		(window as unknown as { __layoutShifts: () => { value: number; hadRecentInput: boolean; sources: string[] }[] }).__layoutShifts(),
	);
	return all.filter((shift) => !shift.hadRecentInput).map(({ value, sources }) => ({ value, sources }));
}

/** The community's public post with the most comments. */
function postWithComments(channel: Community): { postId: number; title: string } {
	const [row] = execute(
		`SELECT c.post_id AS postId, p.title AS title FROM comments c JOIN posts p ON p.id = c.post_id
		 WHERE c.channel_id = ${channel.index} AND c.deleted_at IS NULL AND p.deleted_at IS NULL AND p.is_private = 0 AND p.hidden_by_admin = 0
		 GROUP BY c.post_id ORDER BY count(*) DESC LIMIT 1`,
	) as { postId: number; title: string }[];
	if (!row) throw new Error(`${channel.path} has no post with comments`);
	return row;
}

for (const path of COMMUNITIES) {
	test(`no page of ${path} moves while it loads on a 390×844 phone (CLS 0)`, async ({ page }) => {
		const channel = await community(path);
		const post = postWithComments(channel);
		const word = post.title.trim().split(/\s+/)[0]!.slice(0, 10);
		const guestPages = [
			`${path}/boards/${boardOf(channel, 'general')}`,
			`${path}/boards/${boardOf(channel, 'fanart')}`,
			`${path}/boards`,
			`${path}/posts/${post.postId}`,
			`${path}/search?q=${encodeURIComponent(word)}`,
			`${path}/users/${memberIdOf(channel, 2)}`,
			`${path}/no-such-page`,
			`${path}/login`,
		];
		const memberPages: [string, string?][] = [
			[`${path}/mypage`],
			[`${path}/mypage/notifications`],
			[`${path}/mypage/settings`],
			[`${path}/write?boardId=${boardOf(channel, 'general')}`, '[data-rich-editor="ready"]'],
			[`${path}/posts/${post.postId}`],
		];
		await observeShifts(page);
		await slowNetwork(page);
		const shifted: Record<string, { value: number; sources: string[] }[]> = {};
		const visit = async (target: string, ready?: string) => {
			await loadStill(page, target, ready);
			const shifts = await shiftsOf(page);
			if (shifts.length > 0) shifted[target] = shifts;
		};
		for (const target of guestPages) await visit(target);
		// A minted session, then straight to the member's first page: no load of a page the test does not look at.
		await signInContext(page.context(), channel, memberIdOf(channel, MEMBER));
		for (const [target, ready] of memberPages) await visit(target, ready);
		expect(shifted, 'layout shifts (value, the elements that moved) by page').toEqual({});
	});
}

test("an operator's banner of another shape than 1920×320 takes the band's reserved box: nothing moves when it arrives", async ({ page }) => {
	const channel = await community('/starfall/global');
	// The community's banner as an operator might upload it: 1920×480, not the 6:1 the band is made for.
	await page.route('**/demo/starfall-banner-global.svg', (route) =>
		route.fulfill({
			contentType: 'image/svg+xml',
			body: '<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="480" viewBox="0 0 1920 480"><rect width="1920" height="480" fill="#1d2466"/></svg>',
		}),
	);
	await observeShifts(page);
	await slowNetwork(page);
	const board = `${channel.path}/boards/${boardOf(channel, 'general')}`;
	await loadStill(page, board);
	const banner = page.locator('[data-banner] img');
	expect(await banner.evaluate((image: HTMLImageElement) => image.naturalHeight)).toBe(480);
	expect(await shiftsOf(page)).toEqual([]);
	// The band keeps the 6:1 box its width and height promise (390 × 65 on this phone), the image cut to it.
	expect(await banner.boundingBox()).toEqual({ x: 0, y: expect.any(Number), width: PHONE.width, height: PHONE.width / 6 });
});

test.describe('a 1440×900 desktop', () => {
	test.use({ viewport: DESKTOP });

	test("the compact banner of the write page, a post and the admin area is a reserved 120 px box: an operator's banner of another shape moves nothing", async ({
		page,
	}) => {
		const channel = await community('/starfall/global');
		await page.route('**/demo/starfall-banner-global.svg', (route) =>
			route.fulfill({
				contentType: 'image/svg+xml',
				body: '<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="480" viewBox="0 0 1920 480"><rect width="1920" height="480" fill="#1d2466"/></svg>',
			}),
		);
		const post = postWithComments(channel);
		await observeShifts(page);
		await slowNetwork(page);
		await signInContext(page.context(), channel, memberIdOf(channel, 0));
		const shifted: Record<string, { value: number; sources: string[] }[]> = {};
		for (const [target, ready] of [
			[`${channel.path}/write?boardId=${boardOf(channel, 'general')}`, '[data-rich-editor="ready"]'],
			[`${channel.path}/posts/${post.postId}`],
			[`${channel.path}/admin?tab=log`],
		] as [string, string?][]) {
			await loadStill(page, target, ready);
			const shifts = await shiftsOf(page);
			if (shifts.length > 0) shifted[target] = shifts;
			expect((await page.locator('[data-banner]').boundingBox())?.height, target).toBe(120);
		}
		expect(shifted, 'layout shifts (value, the elements that moved) by page').toEqual({});
	});
});
