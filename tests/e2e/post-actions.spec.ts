/**
 * The post's action bar in Chromium: Like (optimistic, rolled back on failure, kept on later
 * visits, on My Page), Share (the canonical URL, Copy and its toast), Report (reasons, the detail's
 * rules, the already-reported answer), a guest's login-required modal, no Report on one's own post,
 * and screenshots of the bar and its dialogs in the four languages. Each test likes and reports a
 * post of its own, made for it, as a demo member no other spec signs in as.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, signInFreshMember, signInMember, type Community } from './write-helpers';
import { reviewShot } from './review-shot';

const GLOBAL = '/starfall/global';

// Each test makes its post and reads its rows through wrangler's local D1 (a process per
// statement), which takes seconds on a busy machine: an upper bound, not a timing.
test.describe.configure({ timeout: 120_000 });

/** A new visible post in the community's general board by the member at `authorIndex`, with no likes. */
async function freshPost(
	channel: Community,
	authorIndex: number,
	title = `Action bar ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`,
): Promise<{ postId: number; title: string; path: string }> {
	const body = JSON.stringify({
		type: 'doc',
		blocks: [{ type: 'paragraph', children: [{ text: 'The sky whales gather at dusk above the northern isles.' }] }],
	});
	const [row] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, authorIndex)}, '${title.replace(/'/g, "''")}', '${body}', 'The sky whales', ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	if (!row) throw new Error('No post was made');
	return { postId: row.id, title, path: `${channel.path}/posts/${row.id}` };
}

function likeState(postId: number): { likeCount: number; likes: number } {
	const [row] = execute(
		`SELECT like_count AS likeCount, (SELECT count(*) FROM post_likes WHERE post_id = ${postId}) AS likes FROM posts WHERE id = ${postId}`,
	) as { likeCount: number; likes: number }[];
	return row ?? { likeCount: -1, likes: -1 };
}

function reportsOf(postId: number): { reason_code: string; reason_text: string }[] {
	return execute(`SELECT reason_code, reason_text FROM reports WHERE target_type = 'POST' AND target_id = ${postId}`) as {
		reason_code: string;
		reason_text: string;
	}[];
}

const likeButton = (page: Page) => page.locator('[data-post-action="like"]');
const likeCounts = (page: Page) => page.locator('[data-like-count]');

test('a member likes and unlikes a post: the count follows, stays on reload, and My Page lists the liked post', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 2);
	await signInMember(page, channel, 30, post.path);
	const like = likeButton(page);
	await expect(like).toHaveAttribute('aria-pressed', 'false');
	await expect(likeCounts(page)).toHaveText(['0', '0']);

	const liked = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().endsWith(`/posts/${post.postId}/like`));
	await like.click();
	await expect(like).toHaveAttribute('aria-pressed', 'true');
	// The bar's count and the one beside the views, both.
	await expect(likeCounts(page)).toHaveText(['1', '1']);
	expect((await liked).ok()).toBe(true);
	expect(likeState(post.postId)).toEqual({ likeCount: 1, likes: 1 });

	await page.reload();
	await expect(like).toHaveAttribute('aria-pressed', 'true');
	await expect(likeCounts(page)).toHaveText(['1', '1']);
	await page.goto(`${GLOBAL}/mypage?tab=likes`);
	await expect(page.getByRole('link', { name: post.title })).toBeVisible();

	await page.goto(post.path);
	const unliked = page.waitForResponse(
		(response) => response.request().method() === 'DELETE' && response.url().endsWith(`/posts/${post.postId}/like`),
	);
	await like.click();
	await expect(like).toHaveAttribute('aria-pressed', 'false');
	await expect(likeCounts(page)).toHaveText(['0', '0']);
	expect((await unliked).ok()).toBe(true);
	await page.reload();
	await expect(like).toHaveAttribute('aria-pressed', 'false');
	await expect(likeCounts(page)).toHaveText(['0', '0']);
	expect(likeState(post.postId)).toEqual({ likeCount: 0, likes: 0 });
	await page.goto(`${GLOBAL}/mypage?tab=likes`);
	await expect(page.getByRole('link', { name: post.title })).toHaveCount(0);
});

test('a quick double click ends where the member left it, with one request at a time', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 2);
	await signInMember(page, channel, 31, post.path);
	const methods: string[] = [];
	page.on('request', (request) => void (request.url().endsWith(`/posts/${post.postId}/like`) && methods.push(request.method())));
	await likeButton(page).dblclick();
	await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
	await expect(likeCounts(page)).toHaveText(['0', '0']);
	// The first click's like is sent at once; the second click's unlike follows its answer, never beside it.
	await expect.poll(() => methods).toEqual(['PUT', 'DELETE']);
	await expect.poll(() => likeState(post.postId)).toEqual({ likeCount: 0, likes: 0 });
});

test('a like that fails is shown at once, then put back with the generic alert', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 2);
	await signInMember(page, channel, 32, post.path);
	let release: () => void = () => undefined;
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route(`**/v1/starfall/global/posts/${post.postId}/like`, async (route) => {
		await held;
		await route.fulfill({
			status: 500,
			contentType: 'application/json',
			body: JSON.stringify({ header: { isSuccessful: false, resultCode: -5001500, resultMessage: 'There is currently an issue with the service.' } }),
		});
	});
	await likeButton(page).click();
	// Optimistic: the like shows while the request is under way.
	await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
	await expect(likeCounts(page)).toHaveText(['1', '1']);
	release();
	const alert = page.getByRole('dialog', { name: 'Notice' });
	await expect(alert).toContainText('There is currently an issue with the service, and your request cannot be processed. Please try again later.');
	await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
	await expect(likeCounts(page)).toHaveText(['0', '0']);
	await alert.getByRole('button', { name: 'OK' }).click();
	await expect(alert).toBeHidden();
	await expect(likeButton(page)).toBeFocused();
	expect(likeState(post.postId)).toEqual({ likeCount: 0, likes: 0 });
});

test('a like after the session ended opens the forced-login alert; one met by a ban opens the ban dialog', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 2);
	// A member of the test's own: a banned demo member would be another test's refused writer.
	const memberId = await signInFreshMember(page, channel, 'BannedLiker', post.path);
	execute(`INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, ${memberId}, 'PERMANENT', NULL, ${Date.now()})`);
	try {
		await likeButton(page).click();
		const ban = page.getByRole('dialog', { name: 'Access restricted' });
		await expect(ban).toContainText('Your access to this community has been permanently restricted.');
		await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
		await expect(page.getByRole('dialog', { name: 'Notice' })).toBeHidden();
	} finally {
		execute(`DELETE FROM bans WHERE member_id = ${memberId}`);
	}

	await page.goto(post.path);
	execute(`DELETE FROM sessions WHERE member_id = ${memberId}`);
	await likeButton(page).click();
	const login = page.getByRole('dialog', { name: 'Please log in to continue.' });
	await expect(login).toBeVisible();
	await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
	await expect(likeCounts(page)).toHaveText(['0', '0']);
	await login.getByRole('button', { name: 'Log in' }).click();
	await expect(page).toHaveURL(`${GLOBAL}/login?redirectUrl=${encodeURIComponent(post.path)}`);
	expect(likeState(post.postId)).toEqual({ likeCount: 0, likes: 0 });
});

test('a member reports a post once: Report then reads Reported, disabled, on later visits too; a page opened before is told it was already reported', async ({
	page,
	context,
}) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 3);
	await signInMember(page, channel, 33, post.path);
	// The same post in a second tab, opened before the report.
	const earlier = await context.newPage();
	await earlier.goto(post.path);
	const report = page.locator('[data-post-action="report"]');
	const dialog = page.getByRole('dialog', { name: 'Report this post' });

	// Keyboard: Escape closes it and focus goes back to Report; it opens empty again.
	await report.click();
	await expect(dialog).toBeVisible();
	await expect(dialog.getByRole('radio')).toHaveCount(7);
	await dialog.getByLabel('Details').fill('Half a thought');
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();
	await expect(report).toBeFocused();
	await report.click();
	await expect(dialog.getByLabel('Details')).toHaveValue('');

	await dialog.getByRole('radio', { name: 'Spam, advertising or scams' }).check();
	await dialog.getByLabel('Details').fill('A link to a fake giveaway.');
	await dialog.getByRole('button', { name: 'Report', exact: true }).click();
	await expect(page.locator('[data-toast]')).toHaveText('It has been reported.');
	await expect(dialog).toBeHidden();
	expect(reportsOf(post.postId)).toEqual([{ reason_code: 'SPAM', reason_text: 'A link to a fake giveaway.' }]);
	// Remembered: at once, and on a later visit.
	await expect(report).toHaveText('Reported');
	await expect(report).toBeDisabled();
	// aria-disabled, not disabled: the closed dialog gives focus back to it, so a keyboard user keeps their place.
	await expect(report).toBeFocused();
	await page.reload();
	await expect(report).toHaveText('Reported');
	await expect(report).toBeDisabled();

	// The tab opened before still offers Report: the API says it was already made, and the button follows.
	const earlierReport = earlier.locator('[data-post-action="report"]');
	await expect(earlierReport).toBeEnabled();
	await earlierReport.click();
	const earlierDialog = earlier.getByRole('dialog', { name: 'Report this post' });
	await earlierDialog.getByRole('radio', { name: 'Spoilers' }).check();
	await earlierDialog.getByRole('button', { name: 'Report', exact: true }).click();
	const alert = earlier.getByRole('dialog', { name: 'Notice' });
	await expect(alert).toContainText('This post has already been reported.');
	await expect(earlierDialog).toBeHidden();
	await alert.getByRole('button', { name: 'OK' }).click();
	await expect(alert).toBeHidden();
	await expect(earlierReport).toHaveText('Reported');
	await expect(earlierReport).toBeDisabled();
	// One row per member and post, whatever is sent again.
	expect(reportsOf(post.postId)).toHaveLength(1);
});

test('the report dialog asks for a reason, a detail for Other, and at most 500 characters', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 3);
	await signInMember(page, channel, 34, post.path);
	const sent: string[] = [];
	page.on('request', (request) => request.url().endsWith('/reports') && sent.push(request.method()));
	await page.locator('[data-post-action="report"]').click();
	const dialog = page.getByRole('dialog', { name: 'Report this post' });
	const submit = dialog.getByRole('button', { name: 'Report', exact: true });
	const detail = dialog.getByLabel('Details');

	await submit.click();
	await expect(dialog.getByText('Choose a reason.')).toBeVisible();
	await dialog.getByRole('radio', { name: 'Other' }).check();
	await expect(dialog.getByText('Choose a reason.')).toBeHidden();
	await submit.click();
	await expect(dialog.getByText('Please describe the problem.')).toBeVisible();
	await expect(detail).toHaveAttribute('aria-invalid', 'true');
	await expect(detail).toBeFocused();
	await detail.fill('   ');
	await submit.click();
	await expect(dialog.getByText('Please describe the problem.')).toBeVisible();

	// Counted as a person counts: an emoji is one character.
	await detail.fill('🐋'.repeat(501));
	await expect(dialog.locator('[data-report-count]')).toHaveText('501/500');
	await submit.click();
	await expect(dialog.getByText('The details can be up to 500 characters long.')).toBeVisible();
	await detail.fill('🐋'.repeat(500));
	await expect(dialog.locator('[data-report-count]')).toHaveText('500/500');
	await expect(dialog.getByText('The details can be up to 500 characters long.')).toBeHidden();
	expect(sent).toEqual([]);
	expect(reportsOf(post.postId)).toEqual([]);

	await detail.fill('The title spells out the raid boss ending.');
	await submit.click();
	await expect(page.locator('[data-toast]')).toHaveText('It has been reported.');
	expect(reportsOf(post.postId)).toEqual([{ reason_code: 'OTHER', reason_text: 'The title spells out the raid boss ending.' }]);
});

test('a failed report keeps the dialog and what was typed under the alert', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 3);
	await signInFreshMember(page, channel, 'Reporter', post.path);
	await page.route('**/v1/starfall/global/reports', (route) => route.abort('connectionfailed'));
	await page.locator('[data-post-action="report"]').click();
	const dialog = page.getByRole('dialog', { name: 'Report this post' });
	await dialog.getByRole('radio', { name: 'Harassment or hate speech' }).check();
	await dialog.getByLabel('Details').fill('Insults in every reply.');
	await dialog.getByRole('button', { name: 'Report', exact: true }).click();
	const alert = page.getByRole('dialog', { name: 'Notice' });
	await expect(alert).toContainText('Failed to report.');
	await alert.getByRole('button', { name: 'OK' }).click();
	await expect(dialog).toBeVisible();
	await expect(dialog.getByLabel('Details')).toHaveValue('Insults in every reply.');
	expect(reportsOf(post.postId)).toEqual([]);
});

test('share shows the canonical URL and copies it with the toast of docs/reference/product-rules.md#global-ui, for a guest too', async ({
	page,
	context,
	baseURL,
}) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 2);
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await page.clock.install();
	await page.goto(`${post.path}?from=list`);
	const share = page.locator('[data-post-action="share"]');
	await share.click();
	const dialog = page.getByRole('dialog', { name: 'Share this post' });
	const url = `${baseURL}${post.path}`;
	// The canonical URL: the post's path on this origin, without the query the page was opened with.
	await expect(dialog.getByLabel('Post URL')).toHaveValue(url);
	await expect(dialog.getByLabel('Post URL')).toHaveAttribute('readonly', '');
	const systemShare = await page.evaluate(() => typeof navigator.share === 'function');
	await expect(dialog.getByRole('button', { name: 'Share…' })).toBeVisible({ visible: systemShare });
	// The page's timers stand still from here: the toast's time is the test's to move.
	await page.clock.pauseAt(Date.now() + 60_000);
	await dialog.getByRole('button', { name: 'Copy' }).click();
	const toast = page.locator('[data-toast]');
	await expect(toast).toHaveText('URL has been copied.');
	await expect(toast).toBeVisible();
	await expect(dialog).toBeHidden();
	await expect(share).toBeFocused();
	expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
	// Shown 1.5 s, then it fades out and is removed.
	await page.clock.runFor(1400);
	await expect(toast).not.toHaveClass(/leaving/);
	await page.clock.runFor(100);
	await expect(toast).toHaveClass(/leaving/);
	// Hidden once its 0.3 s fade has run.
	await page.clock.runFor(300);
	await expect(toast).toBeHidden();
});

test('a guest who likes or reports is asked to log in first, and nothing is sent', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 2);
	const sent: string[] = [];
	page.on('request', (request) => /\/(like|reports)$/.test(request.url()) && sent.push(request.url()));
	await page.goto(post.path);
	const modal = page.getByRole('dialog', { name: 'Please log in to continue.' });
	await page.locator('[data-guest-like]').click();
	await expect(modal).toBeVisible();
	await modal.getByRole('button', { name: 'Cancel' }).click();
	await expect(modal).toBeHidden();
	await expect(page).toHaveURL(new RegExp(`${post.path}$`));

	await page.locator('[data-guest-report]').click();
	await expect(modal).toBeVisible();
	await modal.getByRole('button', { name: 'Log in' }).click();
	await expect(page).toHaveURL(`${GLOBAL}/login?redirectUrl=${encodeURIComponent(post.path)}`);
	expect(sent).toEqual([]);
	// The report dialog and the alert ship closed in the guest's page (a member's page is made from it), and stay closed.
	await page.goto(post.path);
	await expect(page.locator('[data-report-dialog][open], [data-action-alert][open]')).toHaveCount(0);
});

test('the author sees no Report on their own post; a guest of a community without sign-in sees the count only', async ({
	page,
	browser,
	baseURL,
}) => {
	const channel = await community(GLOBAL);
	const post = await freshPost(channel, 36);
	await signInMember(page, channel, 36, post.path);
	await expect(page.locator('[data-post-actions]').getByRole('button', { name: 'Delete' })).toBeVisible();
	await expect(likeButton(page)).toBeVisible();
	await expect(page.locator('[data-post-action="share"]')).toBeVisible();
	await expect(page.locator('[data-post-action="report"], [data-guest-report]')).toHaveCount(0);

	const japan = await community('/starfall/jp');
	const japanese = await freshPost(japan, 2);
	const guest = await browser.newPage(baseURL ? { baseURL } : {});
	await guest.goto(japanese.path);
	await expect(guest.locator('.post-action.like.static [data-like-count]')).toHaveText('0');
	await expect(guest.locator('[data-post-action="like"], [data-guest-like], [data-post-action="report"], [data-guest-report]')).toHaveCount(0);
	await expect(guest.locator('[data-post-action="share"]')).toBeVisible();
	await guest.close();
});

for (const channelPath of ['/starfall/global', '/starfall/jp', '/starfall/kr', '/starfall/tw', '/pixelfarm/main']) {
	test(`screenshots of the action bar and its dialogs in ${channelPath}, desktop and phone`, async ({ page }) => {
		// Sign-in, two sizes and three screens each: longer than one behaviour.
		test.setTimeout(180_000);
		const channel = await community(channelPath);
		const post = await freshPost(channel, 2);
		// One load of the post: the phone's turn is the same page made narrower (the bar and its
		// dialogs are laid out by CSS alone; phone-layout.spec.ts loads the post page on a phone).
		await signInMember(page, channel, 20, post.path);
		const name = channelPath.slice(1).replace('/', '-');
		const shots = path.join('test-results', 'post-actions');
		for (const [device, size] of [
			['desktop', { width: 1280, height: 900 }],
			['phone', { width: 390, height: 844 }],
		] as const) {
			await page.setViewportSize(size);
			const liked = page.waitForResponse((response) => response.url().endsWith('/like'));
			await likeButton(page).click();
			await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
			expect((await liked).ok()).toBe(true);
			await page.locator('[data-post-action-bar]').evaluate((bar) => bar.scrollIntoView({ block: 'center' }));
			await reviewShot(page, path.join(shots, `${name}-${device}-bar.png`));
			await page.locator('[data-post-action="share"]').click();
			await expect(page.locator('[data-share-dialog]')).toBeVisible();
			await reviewShot(page, path.join(shots, `${name}-${device}-share.png`));
			await page.keyboard.press('Escape');
			await page.locator('[data-post-action="report"]').click();
			const dialog = page.locator('[data-report-dialog]');
			await expect(dialog).toBeVisible();
			await dialog.locator('input[value="OTHER"]').check();
			await dialog.locator('[data-report-submit]').click();
			await expect(dialog.locator('[data-report-detail-error]')).toBeVisible();
			await reviewShot(page, path.join(shots, `${name}-${device}-report.png`));
			await page.keyboard.press('Escape');
			const unliked = page.waitForResponse((response) => response.url().endsWith('/like'));
			await likeButton(page).click();
			expect((await unliked).ok()).toBe(true);
		}
	});
}
