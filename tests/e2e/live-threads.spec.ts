/**
 * Live threads on a phone (390×844), in English and Korean (docs/reference/live-threads.md): two
 * pages on one post, a guest's and a member's; the member's comment shows "1 new comment — Show" on
 * the guest's page without a reload, and Show puts it into the comments. Where the browser has no
 * WebSocket, the page polls the comments' count instead, at once and then every 30 seconds of the page's clock
 * (page.clock): nothing here waits on wall-clock time.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { texts } from './texts';
import { boardOf, community, freshMember, memberIdOf, type Community } from './write-helpers';
import { signInContext } from './sessions';

// Each test makes its rows through wrangler's local D1 (a process per statement), which takes
// seconds on a busy machine: an upper bound, not a timing.
test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 390, height: 844 } });

/** A new visible post in the community's general board by its demo member 5. */
function freshPost(channel: Community, title: string): number {
	const body = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Lanterns over the harbour.' }] }] });
	const [row] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, 5)}, '${title}', '${body}', 'Lanterns', ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	if (!row) throw new Error('No post was made');
	return row.id;
}

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

for (const [path, language] of [
	['/starfall/global', 'en'],
	['/starfall/kr', 'ko'],
] as const) {
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

		const writer = await browser.newContext({ viewport: { width: 390, height: 844 } });
		try {
			const member = freshMember('Live', channel.index);
			await signInContext(writer, channel, member.id);
			const writerPage = await writer.newPage();
			await writerPage.goto(`${path}/posts/${postId}`);
			const text = `A lantern just lit ${suffix}`;
			await comment(writerPage, text);
			// The writer's own page shows no banner for their own comment.
			await expect(writerPage.locator('[data-live-banner] button')).toBeHidden();

			await expect(show).toBeVisible();
			await expect(show).toHaveText(`${t('live.newComments.one')} — ${t('live.show')}`);
			// The banner is within the phone's screen and a comfortable tap target.
			const box = (await show.boundingBox())!;
			expect(box.x).toBeGreaterThanOrEqual(0);
			expect(box.x + box.width).toBeLessThanOrEqual(390);
			expect(box.y + box.height).toBeLessThanOrEqual(844);
			expect(box.height).toBeGreaterThanOrEqual(44);
			expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
			await page.screenshot({ path: test.info().outputPath(`live-banner-${language}.png`) });

			await show.click();
			await expect(page.locator('[data-comments] .comment-text', { hasText: text })).toBeVisible();
			await expect(show).toBeHidden();
			// The heading's count follows, and the page was never reloaded.
			await expect(page.locator('#comments-heading')).toContainText('1');
		} finally {
			await writer.close();
		}
	});
}

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

	const writer = await browser.newContext({ viewport: { width: 390, height: 844 } });
	try {
		const member = freshMember('Poll', channel.index);
		await signInContext(writer, channel, member.id);
		const writerPage = await writer.newPage();
		await writerPage.goto(`${path}/posts/${postId}`);
		await comment(writerPage, `Polled lantern ${suffix}`);
	} finally {
		await writer.close();
	}
	const show = banner.getByRole('button');
	await expect(show).toBeHidden();
	// The poll's 30 seconds, on the page's clock.
	await page.clock.runFor(30_000);
	await expect.poll(() => polls.length).toBe(2);
	await expect(show).toHaveText(`${t('live.newComments.one')} — ${t('live.show')}`);
	await show.click();
	await expect(page.locator('[data-comments] .comment-text', { hasText: `Polled lantern ${suffix}` })).toBeVisible();
});
