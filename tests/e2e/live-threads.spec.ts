/**
 * Live threads on a phone (390×844), in English and Korean (docs/reference/live-threads.md): two
 * pages on one post, a guest's and a member's; the member's comment shows "1 new comment — Show" on
 * the guest's page without a reload, and Show puts it into the comments. Where the browser has no
 * WebSocket, the page polls the comments' count instead, at once and then every 30 seconds of the page's clock
 * (page.clock): nothing here waits on wall-clock time.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test';
import { texts } from './texts';
import { community, freshMember, freshPost, memberIdOf, type Community } from './write-helpers';
import { signInContext } from './sessions';
import { execute } from './fixtures';

import { reviewShot } from './review-shot';

// Each test makes its rows through wrangler's local D1 (a process per statement), which takes
// seconds on a busy machine: an upper bound, not a timing.
test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 390, height: 844 } });

/** Opens the post as a reader and scrolls (the live thread loads at the first interaction). */
async function openAsReader(page: Page, path: string, postId: number): Promise<void> {
	await page.goto(`${path}/posts/${postId}`);
	await page.locator('[data-comments]').scrollIntoViewIfNeeded();
	await page.mouse.wheel(0, 200);
}

/** Writes a comment through the member's page, as a member would. */
async function comment(page: Page, text: string): Promise<void> {
	await page.locator('#comment-box-new').fill(text);
	await page.locator('[data-comments] [data-action="post"]').first().click();
	await expect(page.locator('[data-comments] .comment-text', { hasText: text })).toBeVisible();
}

/** A member made for the test writes `text` on the post from a browser of their own; `check` looks at their page after. */
async function commentElsewhere(
	browser: Browser,
	channel: Community,
	postId: number,
	text: string,
	check: (writerPage: Page) => Promise<void> = async () => undefined,
): Promise<void> {
	const writer = await browser.newContext({ viewport: { width: 390, height: 844 } });
	try {
		await signInContext(writer, channel, freshMember('Live', channel.index).id);
		const writerPage = await writer.newPage();
		await writerPage.goto(`${channel.path}/posts/${postId}`);
		await comment(writerPage, text);
		await check(writerPage);
	} finally {
		await writer.close();
	}
}

/** `count` top-level comments on `postId` by demo members, oldest first (`likes` each, for the Best order), in one statement; their ids. */
function addComments(channel: Community, postId: number, count: number, likes: (i: string) => string = () => '0'): number[] {
	const rows = execute(
		`INSERT INTO comments (channel_id, post_id, member_id, content, created_at, like_count)
		 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
		 SELECT ${channel.index}, ${postId}, ${memberIdOf(channel, 6)}, 'Lantern number ' || i, ${Date.now() - 3_600_000} + i, ${likes('i')} FROM n RETURNING id`,
	) as { id: number }[];
	execute(`UPDATE posts SET comment_count = comment_count + ${count} WHERE id = ${postId}`);
	return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** A member made for the test replies to comment `to` on the post from a browser of their own. */
async function replyElsewhere(browser: Browser, channel: Community, postId: number, to: number, text: string, query = ''): Promise<void> {
	const writer = await browser.newContext({ viewport: { width: 390, height: 844 } });
	try {
		await signInContext(writer, channel, freshMember('Replier', channel.index).id);
		const writerPage = await writer.newPage();
		await writerPage.goto(`${channel.path}/posts/${postId}${query}`);
		await writerPage.locator(`[data-action="reply"][data-comment-id="${to}"]`).click();
		await writerPage.locator(`#comment-box-reply-${to}`).fill(text);
		await writerPage.locator(`[data-comment-form="reply-${to}"] [data-action="post"]`).click();
		await expect(writerPage.locator('[data-comments] .comment-text', { hasText: text })).toBeVisible();
	} finally {
		await writer.close();
	}
}

for (const [path, language] of [
	['/starfall/global', 'en'],
	['/starfall/kr', 'ko'],
] as const) {
	test(`${language}: a reply under an earlier thread and a new comment, while more pages follow: Show puts the reply under its comment`, async ({
		page,
		browser,
	}) => {
		const t = texts(language);
		const channel = await community(path);
		const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
		const postId = freshPost(channel, `Many lanterns ${suffix}`);
		// 120 comments: the page shows the first 100, "Show more comments" the rest.
		const made = addComments(channel, postId, 120);
		const parent = made[1]!;
		await openAsReader(page, path, postId);
		const banner = page.locator('[data-live-banner]');
		await expect(banner).toHaveAttribute('data-live', 'open');
		const show = banner.getByRole('button');

		const reply = `A reply under the second lantern ${suffix}`;
		await replyElsewhere(browser, channel, postId, parent, reply);
		await expect(show).toHaveText(`${t('live.newComments.one')} — ${t('live.show')}`);
		await show.click();
		// Under its comment, in its thread, once; the thread after it still follows it.
		const thread = page.locator(`li#comment-${parent}`);
		await expect(thread.locator('.comment-text', { hasText: reply })).toBeVisible();
		await expect(page.locator('[data-comments] .comment-text', { hasText: reply })).toHaveCount(1);
		const order = await page.locator('[data-comments] li.comment').evaluateAll((items) => items.map((item) => item.id));
		const at = order.findIndex((id) => id === `comment-${parent}`);
		expect(order[at + 1]).toMatch(/^comment-\d+$/);
		expect(order.indexOf(`comment-${made[2]}`)).toBeGreaterThan(at + 1);
		await expect(show).toBeHidden();
		// The rest of the comments still come with "Show more comments", each once.
		await page.locator('[data-comments] [data-action="more"]').click();
		await expect(page.locator(`li#comment-${made[119]}`)).toBeVisible();
		await expect(page.locator('[data-comments] li.comment')).toHaveCount(121);
		await reviewShot(page, test.info().outputPath(`live-reply-${language}.png`));
	});

	test(`${language}: a comment written on one page shows the banner on the other, and Show puts it in the comments`, async ({ page, browser }) => {
		const t = texts(language);
		const channel = await community(path);
		const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
		const postId = freshPost(channel, `Live lanterns ${suffix}`);
		await openAsReader(page, path, postId);
		const banner = page.locator('[data-live-banner]');
		await expect(banner).toHaveAttribute('data-live', 'open');
		const show = banner.getByRole('button');
		await expect(show).toBeHidden();

		const text = `A lantern just lit ${suffix}`;
		// The writer's own page shows no banner for their own comment.
		await commentElsewhere(browser, channel, postId, text, (writerPage) => expect(writerPage.locator('[data-live-banner] button')).toBeHidden());

		await expect(show).toBeVisible();
		await expect(show).toHaveText(`${t('live.newComments.one')} — ${t('live.show')}`);
		// The banner is within the phone's screen and a comfortable tap target.
		const box = (await show.boundingBox())!;
		expect(box.x).toBeGreaterThanOrEqual(0);
		expect(box.x + box.width).toBeLessThanOrEqual(390);
		expect(box.y + box.height).toBeLessThanOrEqual(844);
		expect(box.height).toBeGreaterThanOrEqual(44);
		expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
		await reviewShot(page, test.info().outputPath(`live-banner-${language}.png`));

		await show.click();
		await expect(page.locator('[data-comments] .comment-text', { hasText: text })).toBeVisible();
		await expect(show).toBeHidden();
		// The heading's count follows, and the page was never reloaded.
		await expect(page.locator('#comments-heading')).toContainText('1');
	});
}

test('en: in the Best order, a reply under a thread of the first page shows under it, and a new comment at the end once the end is shown', async ({
	page,
	browser,
}) => {
	const t = texts('en');
	const path = '/starfall/global';
	const channel = await community(path);
	const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
	const postId = freshPost(channel, `Best lanterns ${suffix}`);
	// 25 threads, the oldest most liked: the Best order's first page of 20 is the oldest 20.
	const made = addComments(channel, postId, 25, (i) => `100 - ${i}`);
	const best = '?commentsSort=best';
	await page.goto(`${path}/posts/${postId}${best}`);
	await page.locator('[data-comments]').scrollIntoViewIfNeeded();
	await page.mouse.wheel(0, 200);
	const banner = page.locator('[data-live-banner]');
	await expect(banner).toHaveAttribute('data-live', 'open');
	const show = banner.getByRole('button');

	const reply = `A reply in the Best order ${suffix}`;
	await replyElsewhere(browser, channel, postId, made[4]!, reply, best);
	await expect(show).toHaveText(`${t('live.newComments.one')} — ${t('live.show')}`);
	await show.click();
	await expect(page.locator(`li#comment-${made[4]} .comment-text`, { hasText: reply })).toBeVisible();
	await expect(page.locator('[data-comments] .comment-text', { hasText: reply })).toHaveCount(1);
	// The page still reads on with "Show more comments"; then a new comment comes last (no likes yet: the order puts it there).
	await page.locator('[data-comments] [data-action="more"]').click();
	await expect(page.locator(`li#comment-${made[24]}`)).toBeVisible();
	const text = `A new lantern in the Best order ${suffix}`;
	await commentElsewhere(browser, channel, postId, text);
	await show.click();
	await expect(page.locator('[data-comments] li.comment').last()).toContainText(text);
	await expect(page.locator('[data-comments] .comment-text', { hasText: text })).toHaveCount(1);
	await expect(page.locator('[data-comments] li.comment:not(.reply)')).toHaveCount(26);
});

test('en: without WebSocket the page polls the count every 30 seconds, and shows the banner from it', async ({ page, browser }) => {
	const t = texts('en');
	const path = '/starfall/global';
	const channel = await community(path);
	const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
	const postId = freshPost(channel, `Polled lanterns ${suffix}`);
	await page.addInitScript(() => {
		// A browser (or a network) without WebSocket.
		Reflect.deleteProperty(window, 'WebSocket');
	});
	await page.clock.install();
	const polls: string[] = [];
	page.on('request', (request) => {
		if (new URL(request.url()).pathname.endsWith(`/posts/${postId}/comments`)) polls.push(request.url());
	});
	await openAsReader(page, path, postId);
	const banner = page.locator('[data-live-banner]');
	await expect(banner).toHaveAttribute('data-live', 'polling');
	// Once at the start (a cached page may be older than its comments), then every 30 seconds.
	await expect.poll(() => polls.length).toBe(1);

	await commentElsewhere(browser, channel, postId, `Polled lantern ${suffix}`);
	const show = banner.getByRole('button');
	await expect(show).toBeHidden();
	// The poll's 30 seconds, on the page's clock.
	await page.clock.runFor(30_000);
	await expect.poll(() => polls.length).toBe(2);
	await expect(show).toHaveText(`${t('live.newComments.one')} — ${t('live.show')}`);
	await show.click();
	await expect(page.locator('[data-comments] .comment-text', { hasText: `Polled lantern ${suffix}` })).toBeVisible();
});
