/** The reader's pages on a phone (390 px wide): labels that fit, nothing wider than the screen. */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { signInAsDemoMember } from './sign-in-helpers';

test.use({ viewport: { width: 390, height: 844 } });

const COMMUNITIES = [
	{ path: '/starfall/global', boardId: 12, mediaBoardId: 14, videoBoardId: 15 },
	{ path: '/starfall/kr', boardId: 22, mediaBoardId: 24, videoBoardId: 25 },
	// starfall/jp offers no sign-in, so its guests are offered no Write.
	{ path: '/starfall/jp', boardId: 32, mediaBoardId: 34, videoBoardId: 35, noSignIn: true },
	{ path: '/starfall/tw', boardId: 52, mediaBoardId: 54, videoBoardId: 55 },
	{ path: '/pixelfarm/main', boardId: 42, mediaBoardId: 44, videoBoardId: 45 },
];

/** How many lines the element's text takes. */
function lines(locator: Locator): Promise<number> {
	return locator.evaluate((element) => {
		const range = document.createRange();
		range.selectNodeContents(element);
		return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
	});
}

/** Whether the page scrolls sideways. */
function scrollsSideways(page: Page): Promise<boolean> {
	return page.evaluate(() => {
		const root = document.scrollingElement ?? document.documentElement;
		return root.scrollWidth > root.clientWidth;
	});
}

/** The first post of a board that is not a notice. */
async function firstPost(page: Page, boardPath: string): Promise<string> {
	await page.goto(boardPath);
	const href = await page.locator('.post-row:not(.pinned) .post-title').first().getAttribute('href');
	if (!href) throw new Error(`${boardPath} lists no post`);
	return href;
}

test("the sidebar's Write button keeps its label on one line", async ({ page }) => {
	await signInAsDemoMember(page, '/starfall/kr', '/starfall/kr/boards/22');
	const write = page.locator('[data-member-card] .button');
	await expect(write).toHaveText('글쓰기');
	expect(await lines(write)).toBe(1);
});

// Checks that only look: one test, one browser context, each community's pages loaded once.
test("each community's board Write button keeps its label on one line, and its posts with images and videos do not scroll sideways", async ({
	page,
}) => {
	test.slow();
	for (const community of COMMUNITIES) {
		await test.step(`the board's Write button in ${community.path} keeps its label on one line`, async () => {
			await page.goto(`${community.path}/boards/${community.boardId}`);
			const write = page.locator('.board-header .button');
			if ('noSignIn' in community) {
				await expect(page.locator('.board-header')).toBeVisible();
				await expect(write, 'a Write button where nobody can sign in').toHaveCount(0);
				return;
			}
			await expect(write).toBeVisible();
			expect(await lines(write), 'the lines of the Write button').toBe(1);
		});

		await test.step(`posts with images and videos in ${community.path} do not scroll sideways`, async () => {
			for (const boardId of [community.mediaBoardId, community.videoBoardId]) {
				await page.goto(await firstPost(page, `${community.path}/boards/${boardId}`));
				await expect(page.locator('.post-body')).toBeVisible();
				expect(await scrollsSideways(page), `the first post of board ${boardId} scrolls sideways`).toBe(false);
			}
		});
	}
});
