/**
 * Notifications in Chromium (docs/reference/notifications.md), with the queue's consumer running
 * under `wrangler dev` as on Cloudflare: two members, A and B. A posts; B comments and mentions A;
 * A's bell shows 2; A opens it, follows the mention to the comment, and the bell goes down; B
 * watches the board and is told of A's next post there. A guest's page carries no bell and none of
 * its code. The bell's refresh runs on Playwright's clock. Each test makes members of its own in the global
 * community, on posts made for each run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { wcagViolations } from './axe';
import { expect, test } from './test';
import { boardOf, community, freshMember, memberIdOf, writeForm } from './write-helpers';
import { memberHeaders, postAs, signInContext } from './sessions';
import { execute } from './fixtures';
import { E2E_PORT } from '../test-server';
import { boxOf, DESKTOP, PHONE, scrollsSideways, viewportOf, within } from './phone-checks';
import { reviewShot } from './review-shot';

const GLOBAL = '/starfall/global';
function mark(label: string): string {
	return `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

const bell = (page: Page) => page.locator('[data-bell]');
const badge = (page: Page) => page.locator('[data-bell-count]');

/** Writes a post in the board through the write screen; answers its id. */
async function writePost(page: Page, boardId: number, title: string): Promise<number> {
	await page.goto(`${GLOBAL}/write?boardId=${boardId}`);
	const form = writeForm(page);
	await expect(form.board).toHaveValue(String(boardId));
	await form.title.fill(title);
	await form.body.click();
	await page.keyboard.type('Who else saw the sky whales tonight?');
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	// The guides board's template: its other sections are left empty, and the post goes anyway.
	if (boardId === boardOf(await community(GLOBAL), 'guides'))
		await page.locator('dialog.alert-dialog[open]').getByRole('button', { name: 'Publish anyway' }).click();
	await page.waitForURL(/\/posts\/\d+$/);
	return Number(/\/posts\/(\d+)$/.exec(page.url())?.[1]);
}

/**
 * Waits until the queue's consumer has stored (or removed) the member's notifications of `kind`
 * about the post: one query a try, where loading the list again until it showed cost a page load a try.
 */
async function untilStored(memberId: number, kind: string, postId: number, count: number): Promise<void> {
	const stored = () =>
		(
			execute(
				`SELECT count(*) AS n FROM notifications WHERE member_id = ${Number(memberId)} AND kind = '${kind}' AND post_id = ${Number(postId)}`,
			) as { n: number }[]
		)[0]?.n;
	await expect.poll(stored, { message: `${kind} notifications of member ${memberId} about post ${postId}`, timeout: 20_000 }).toBe(count);
}

/** Lets the bell ask again (its timer, on the page's clock) until the badge shows `text`: the queue's consumer writes a moment after the write. */
async function expectBadge(page: Page, text: string | null): Promise<void> {
	await expect(async () => {
		await page.clock.runFor(60_000);
		if (text === null) await expect(badge(page)).toBeHidden({ timeout: 1_000 });
		else await expect(badge(page)).toHaveText(text, { timeout: 1_000 });
	}).toPass({ timeout: 20_000 });
}

test('A posts, B mentions A in a comment, A follows the bell to the comment; B watches the board and hears of A’s next post', async ({ browser }) => {
	const channel = await community(GLOBAL);
	const general = boardOf(channel, 'guides');
	const a = freshMember('Whale');
	const b = freshMember('Comet');
	const nicknameA = a.nickname;
	const contextA = await browser.newContext({ viewport: PHONE });
	const contextB = await browser.newContext();
	const pageA = await contextA.newPage();
	const pageB = await contextB.newPage();
	await pageA.clock.install();
	await signInContext(contextA, channel, a.id);
	await pageA.goto(`${GLOBAL}/mypage/notifications`);
	// Nothing to mark yet: no Mark all read, and the empty list says where to go next.
	await expect(pageA.getByRole('button', { name: 'Mark all read' })).toHaveCount(0);
	await expect(pageA.getByRole('link', { name: 'Browse posts' })).toBeVisible();
	const title = mark('Sky whales');
	const postId = await writePost(pageA, general, title);

	await signInContext(contextB, channel, b.id);
	await pageB.goto(`${GLOBAL}/posts/${postId}`);
	const comments = pageB.locator('[data-comments]');
	await expect(comments).toHaveAttribute('data-comments-loader', 'armed');
	const box = pageB.locator('#comment-box-new');
	await box.click();
	const words = mark('Saw them too');
	await box.fill(`@${nicknameA} ${words}`);
	await comments.locator('[data-comment-form="new"]').getByRole('button', { name: 'Post', exact: true }).click();
	const written = comments.locator('li.comment', { hasText: words });
	await expect(written).toBeVisible();
	// The mention is a link to A's profile.
	await expect(written.locator('a.mention')).toHaveText(`@${nicknameA}`);
	await expect(written.locator('a.mention')).toHaveAttribute('href', new RegExp(`${GLOBAL}/users/\\d+$`));

	// A's bell: one notification of the comment, which is on A's post and mentions A.
	await expectBadge(pageA, '1');
	await expect(bell(pageA)).toHaveAttribute('aria-label', 'Notifications: 1 unread');
	await bell(pageA).click();
	await expect(pageA).toHaveURL(`${GLOBAL}/mypage/notifications`);
	const items = pageA.locator('[data-notification]').filter({ hasText: title });
	await expect(items).toHaveCount(1);
	const mention = items.filter({ hasText: `${b.nickname} mentioned you in a comment on your post` });
	await expect(mention).toHaveAttribute('data-unread', 'true');
	await expect(mention).toContainText(words);
	expect(await wcagViolations(pageA)).toEqual([]);
	await mention.getByRole('link').click();
	await expect(pageA).toHaveURL(new RegExp(`/posts/${postId}\\?commentId=\\d+#comment-\\d+$`));
	// The post page opens at the comment and marks it; nothing of it is left unread.
	const target = pageA.locator('li.comment:target');
	await expect(target).toContainText(words);
	await expectBadge(pageA, null);

	// B watches the board; A's next post there reaches B.
	await pageB.goto(`${GLOBAL}/boards/${general}`);
	const watch = pageB.locator('[data-board-watch]');
	await expect(watch).toHaveText('Watch');
	await expect(watch).toHaveAttribute('aria-pressed', 'false');
	// The button shows the new state at once; the reload waits for the server's answer.
	const saved = pageB.waitForResponse((response) => response.url().endsWith(`/watches/boards/${general}`) && response.request().method() === 'PUT');
	await watch.click();
	await expect(watch).toHaveAttribute('aria-pressed', 'true');
	expect((await saved).ok()).toBe(true);
	await pageB.reload();
	await expect(pageB.getByRole('button', { name: 'Watching', exact: true })).toHaveAttribute('aria-pressed', 'true');
	const next = mark('More whales');
	await untilStored(b.id, 'WATCHED_BOARD', await writePost(pageA, general, next), 1);
	await pageB.goto(`${GLOBAL}/mypage/notifications`);
	await expect(pageB.locator('[data-notification]').filter({ hasText: 'posted in a board you watch' }).filter({ hasText: next })).toBeVisible();
	// Stopping: the Watching tab lists the board; Stop watching takes it off.
	await pageB.goto(`${GLOBAL}/mypage/notifications?tab=watching`);
	const watched = pageB.locator('[data-watch-item]', { hasText: 'Guides' });
	await expect(watched).toBeVisible();
	await watched.getByRole('button', { name: 'Stop watching' }).click();
	await expect(watched).toHaveCount(0);
	await contextA.close();
	await contextB.close();
});

test('a hidden spam comment leaves its post author’s list and count; the hidden post’s author reads its title, the reason and whom to ask (390×844)', async ({
	browser,
	request,
	baseURL,
}) => {
	const channel = await community(GLOBAL);
	const board = boardOf(channel, 'guides');
	const author = freshMember('Lark');
	const spammer = freshMember('Gold');
	const contextA = await browser.newContext({ viewport: PHONE });
	const pageA = await contextA.newPage();
	await pageA.clock.install();
	await signInContext(contextA, channel, author.id);
	const title = mark('Fishing spots');
	const postId = await writePost(pageA, board, title);
	// The spammer's comment, through the API: the author is told, "… commented on your post".
	const spam = await request.post(`/v1/starfall/global/posts/${postId}/comments`, {
		headers: await memberHeaders(channel, spammer.id, baseURL!),
		data: { content: 'Cheap gold, ask me' },
	});
	expect(spam.status()).toBe(200);
	const commentId = ((await spam.json()) as { content: { comment: { commentId: number } } }).content.comment.commentId;
	const admin = await memberHeaders(channel, memberIdOf(channel, 0), baseURL!);
	const notice = (words: string) => pageA.locator('[data-notification]').filter({ hasText: words });
	await untilStored(author.id, 'COMMENT', postId, 1);
	await pageA.goto(`${GLOBAL}/mypage/notifications`);
	await expect(notice(`${spammer.nickname} commented on your post`)).toBeVisible();
	await expectBadge(pageA, '1');

	// The administrator hides the comment as spam: the row leaves the author's list and the bell.
	expect(await postAs(request, admin, `/admin/v1/starfall/global/comments/${commentId}/hide`, { reason: 'Spam' })).toBe(0);
	await untilStored(author.id, 'COMMENT', postId, 0);
	await pageA.goto(`${GLOBAL}/mypage/notifications`);
	await expect(notice('commented on your post')).toHaveCount(0);
	await expect(pageA.getByText('This post or comment is no longer available.')).toHaveCount(0);
	await expectBadge(pageA, null);

	// Then the post, with a reason: its author reads what, why, and whom to ask.
	expect(await postAs(request, admin, `/admin/v1/starfall/global/posts/${postId}/hide`, { reason: 'Links to a gold seller are not allowed.' })).toBe(
		0,
	);
	const hidden = notice('An administrator hid your post');
	await untilStored(author.id, 'HIDDEN', postId, 1);
	await pageA.goto(`${GLOBAL}/mypage/notifications`);
	await expect(hidden).toBeVisible();
	await expect(hidden).toContainText(title);
	await expect(hidden).toContainText('Reason: Links to a gold seller are not allowed.');
	await expect(hidden).toContainText('To ask for a review, contact support@starfall.example.');
	await expect(hidden.getByRole('link', { name: 'support@starfall.example' })).toHaveAttribute('href', 'mailto:support@starfall.example');
	await expect(hidden).not.toContainText('no longer available');
	expect(await scrollsSideways(pageA)).toBe(false);
	const link = await boxOf(hidden.getByRole('link', { name: 'support@starfall.example' }));
	expect(link.height).toBeGreaterThanOrEqual(24);
	expect(await wcagViolations(pageA)).toEqual([]);
	await reviewShot(hidden, 'test-results/moderation-notice-en-phone.png');
	await contextA.close();
});

/** A text of src/i18n/{language}.json. */
function texts(language: string): (key: string) => string {
	const messages = JSON.parse(readFileSync(path.join('src', 'i18n', `${language}.json`), 'utf8')) as Record<string, string>;
	return (key) => messages[key] ?? `(no text ${key})`;
}

// Watch says its state in words, in a light and a dark English community and in Korean (the longer label).
for (const [channelPath, language, look] of [
	[GLOBAL, 'en', 'light'],
	['/pixelfarm/main', 'en', 'dark'],
	['/starfall/kr', 'ko', 'light'],
] as const) {
	test(`Watch reads "Watching" once pressed, with aria-pressed and a toast saying what will arrive, and after a reload (${language}, ${look})`, async ({
		browser,
	}) => {
		const t = texts(language);
		const channel = await community(channelPath);
		const member = freshMember('Owl', channel.index);
		const context = await browser.newContext({ viewport: PHONE });
		const page = await context.newPage();
		// The toast's time runs on the page's clock: it stays until the test has read it.
		await page.clock.install();
		await signInContext(context, channel, member.id);
		const [readable] = execute(
			`SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.channel_id = ${channel.index} AND b.is_public = 1 AND p.is_private = 0
			 AND p.hidden_by_admin = 0 AND p.deleted_at IS NULL AND p.member_id <> ${member.id} ORDER BY p.id LIMIT 1`,
		) as { id: number }[];
		const places = [
			{ name: 'post', path: `${channelPath}/posts/${readable!.id}`, button: '[data-post-action="watch"]', area: '[data-post-action-bar]' },
			{ name: 'board', path: `${channelPath}/boards/${boardOf(channel, 'general')}`, button: '[data-board-watch]', area: '.board-header' },
		] as const;
		for (const place of places) {
			await page.goto(place.path);
			const watch = page.locator(place.button);
			await expect(watch).toHaveText(t(`watch.${place.name}`));
			await expect(watch).toHaveAttribute('aria-pressed', 'false');
			await watch.click();
			await expect(watch).toHaveText(t('watch.on'));
			await expect(watch).toHaveAttribute('aria-pressed', 'true');
			await expect(page.locator('[data-toast]')).toHaveText(t(`watch.toast.${place.name}.on`));
			await page.reload();
			await expect(watch).toHaveText(t('watch.on'));
			await expect(watch).toHaveAttribute('aria-pressed', 'true');
			// The longer label still fits: a tap target of 24 px or more, inside the screen, no sideways scroll.
			const box = await boxOf(watch);
			expect(box.height).toBeGreaterThanOrEqual(24);
			expect(box.width).toBeGreaterThanOrEqual(24);
			expect(within(box, viewportOf(page))).toBe(true);
			expect(await scrollsSideways(page)).toBe(false);
			const shot = `test-results/watch-${place.name}-${language}-${look}`;
			await expect(page.locator(place.area)).toBeVisible();
			await reviewShot(page.locator(place.area), `${shot}-phone.png`);
			await page.setViewportSize(DESKTOP);
			await expect(page.locator(place.area)).toBeVisible();
			await reviewShot(page.locator(place.area), `${shot}-desktop.png`);
			await page.setViewportSize(PHONE);
			await watch.click();
			await expect(watch).toHaveText(t(`watch.${place.name}`));
			await expect(watch).toHaveAttribute('aria-pressed', 'false');
			await expect(page.locator('[data-toast]')).toHaveText(t(`watch.toast.${place.name}.off`));
		}
		await context.close();
	});
}

test('mark all read clears the bell at once; settings turn a kind off', async ({ page }) => {
	const channel = await community(GLOBAL);
	await page.clock.install();
	const c = freshMember('Bell');
	await signInContext(page.context(), channel, c.id);
	await page.goto(`${GLOBAL}/mypage/settings`);
	const settings = page.locator('[data-notification-settings]');
	const likes = settings.getByRole('checkbox', { name: 'Likes on my posts' });
	// The boxes are enabled once the island has hydrated.
	await expect(likes).toBeEnabled();
	await expect(likes).toBeChecked();
	await likes.uncheck();
	await settings.getByRole('button', { name: 'Save' }).click();
	await expect(settings.getByRole('status')).toHaveText('Your notification settings are saved.');
	await page.reload();
	const again = page.locator('[data-notification-settings]').getByRole('checkbox', { name: 'Likes on my posts' });
	await expect(again).toBeEnabled();
	await expect(again).not.toBeChecked();
	await again.check();
	await page.locator('[data-notification-settings]').getByRole('button', { name: 'Save' }).click();
	await expect(page.locator('[data-notification-settings]').getByRole('status')).toHaveText('Your notification settings are saved.');
	expect(await wcagViolations(page)).toEqual([]);
	// Something to read: a notification of C's own, written as the consumer writes them.
	const [post] = execute(
		`SELECT id FROM posts WHERE channel_id = ${channel.index} AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 ORDER BY id LIMIT 1`,
	) as { id: number }[];
	const member = c.id;
	const now = Date.now();
	execute(
		`INSERT INTO notifications (channel_id, member_id, kind, dedupe_key, actor_id, post_id, created_at, updated_at)
		 VALUES (${channel.index}, ${member}, 'LIKE', 'like:e2e-${now}', ${memberIdOf(channel, 25)}, ${post!.id}, ${now}, ${now})`,
	);
	execute(`UPDATE members SET unread_notifications = unread_notifications + 1 WHERE id = ${member}`);
	await page.goto(`${GLOBAL}/mypage/notifications`);
	await expect(badge(page)).toHaveText('1');
	await expect(page.locator('[data-notification][data-unread]')).toHaveCount(1);
	await page.getByRole('button', { name: 'Mark all read' }).click();
	await expect(page.locator('[data-notification][data-unread]')).toHaveCount(0);
	await expect(page.getByRole('status').filter({ hasText: 'All notifications are marked read.' })).toBeVisible();
	// The bell follows the store at once, without asking the server.
	await expect(badge(page)).toBeHidden();
	await page.reload();
	await expect(page.locator('[data-notification][data-unread]')).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
});

test('a guest’s page has no bell and loads none of its code', async ({ page }) => {
	const scripts: string[] = [];
	page.on('request', (request) => {
		if (request.resourceType() === 'script') scripts.push(request.url());
	});
	const response = await page.goto(`${GLOBAL}/boards`);
	const html = (await response?.text()) ?? '';
	expect(html).not.toContain('data-bell');
	expect(html).not.toContain('notification');
	await expect(bell(page)).toHaveCount(0);
	await page.waitForLoadState('load');
	expect(scripts.filter((url) => /notification/i.test(url))).toEqual([]);
});

test('a member turns on email: the confirmation link, opened in the browser, confirms the address; a mention is then emailed', async ({
	page,
	request,
	baseURL,
}) => {
	const channel = await community(GLOBAL);
	const address = `member-${Date.now().toString(36)}@example.com`;
	const member = freshMember('Mail');
	await signInContext(page.context(), channel, member.id);
	await page.goto(`${GLOBAL}/mypage/settings`);
	const field = page.getByLabel('Email address');
	const send = page.getByRole('button', { name: 'Send confirmation link' });
	// The field and its button work once the island has hydrated.
	await expect(field).toBeEnabled();
	await field.fill(address);
	await send.click();
	await expect(page.getByText('We sent a confirmation link. Open it to start getting emails.')).toBeVisible();
	// The local mail capture (scripts/mail/server.mjs) holds what the Worker sent.
	const mail = `http://127.0.0.1:${E2E_PORT + 7}`;
	let link = '';
	await expect(async () => {
		const { messages } = (await (await request.get(`${mail}/messages?to=${encodeURIComponent(address)}`)).json()) as { messages: { text: string }[] };
		link = /https?:\/\/\S+\/email\/confirm\?token=\S+/.exec(messages[0]?.text ?? '')?.[0] ?? '';
		expect(link).not.toBe('');
	}).toPass({ timeout: 10_000 });
	// Opening the link changes nothing until the member presses Confirm (mail scanners open links too).
	await page.goto(link);
	await page.getByRole('button', { name: 'Confirm' }).click();
	await expect(page.locator('[data-email-result="done"]')).toHaveText(
		'Your email address is confirmed. Replies and mentions will be emailed to you.',
	);
	expect(await wcagViolations(page)).toEqual([]);
	await page.goto(`${GLOBAL}/mypage/settings`);
	await expect(page.getByText(address)).toBeVisible();
	// The same link again confirms nothing new and says so.
	await page.goto(link);
	await expect(page.getByRole('button', { name: 'Confirm' }).or(page.locator('[data-email-result]'))).toBeVisible();

	// What the page promised: another member mentions them, and the email arrives, its link on the
	// site's origin (SITE_ORIGIN, which the test server sets to the tests' baseURL, as `npm start` does).
	const [target] = execute(
		`SELECT id FROM posts WHERE channel_id = ${channel.index} AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 ORDER BY id LIMIT 1`,
	) as { id: number }[];
	const other = freshMember('Caller');
	const words = mark('Look here');
	const written = await request.post(`/v1${GLOBAL}/posts/${target!.id}/comments`, {
		headers: await memberHeaders(channel, other.id, baseURL!),
		data: { content: `@${member.nickname} ${words}` },
	});
	expect(written.status()).toBe(200);
	await expect(async () => {
		const { messages } = (await (await request.get(`${mail}/messages?to=${encodeURIComponent(address)}`)).json()) as {
			messages: { subject: string; text: string }[];
		};
		const mention = messages.find((message) => message.subject === `${other.nickname} mentioned you`);
		expect(mention?.text).toContain(words);
		expect(mention?.text).toContain(`${baseURL}${GLOBAL}/posts/${target!.id}?commentId=`);
	}).toPass({ timeout: 20_000 });
});

test('under the configuration `npm start` gives the Worker (localVars, SITE_ORIGIN included), a reply to a confirmed address is emailed with a link that opens the reply', async ({
	page,
	request,
	baseURL,
}) => {
	// The test server passes the Worker the variables `npm start` does (scripts/lib/server.mjs localVars), on its own origin.
	const channel = await community(GLOBAL);
	const address = `reply-${Date.now().toString(36)}@example.com`;
	const member = freshMember('Letter');
	// An address the member confirmed (the confirmation link itself is the test above).
	execute(`UPDATE members SET notification_email = '${address}', notification_email_confirmed_at = ${Date.now()} WHERE id = ${member.id}`);
	await signInContext(page.context(), channel, member.id);
	// What Settings promises is offered, not "unavailable".
	await page.goto(`${GLOBAL}/mypage/settings`);
	await expect(page.locator('[data-email-unavailable]')).toHaveCount(0);
	await expect(page.getByText(address)).toBeVisible();

	const [target] = execute(
		`SELECT id FROM posts WHERE channel_id = ${channel.index} AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 ORDER BY id LIMIT 1`,
	) as { id: number }[];
	const as = (memberId: number) => memberHeaders(channel, memberId, baseURL!);
	const mine = await request.post(`/v1${GLOBAL}/posts/${target!.id}/comments`, {
		headers: await as(member.id),
		data: { content: mark('My question') },
	});
	expect(mine.status()).toBe(200);
	const { comment } = ((await mine.json()) as { content: { comment: { commentId: number } } }).content;
	const other = freshMember('Answer');
	const words = mark('Here is how');
	const reply = await request.post(`/v1${GLOBAL}/posts/${target!.id}/comments`, {
		headers: await as(other.id),
		data: { content: words, parentId: comment.commentId },
	});
	expect(reply.status()).toBe(200);

	// The email lands in the local mail capture, as under `npm start` (there at the app's port + 3).
	const mail = `http://127.0.0.1:${E2E_PORT + 7}`;
	let link = '';
	await expect(async () => {
		const { messages } = (await (await request.get(`${mail}/messages?to=${encodeURIComponent(address)}`)).json()) as {
			messages: { subject: string; text: string }[];
		};
		const replied = messages.find((message) => message.subject === `${other.nickname} replied to your comment`);
		expect(replied?.text).toContain(words);
		link = new RegExp(`${baseURL}${GLOBAL}/posts/${target!.id}\\?commentId=\\d+`).exec(replied?.text ?? '')?.[0] ?? '';
		expect(link).not.toBe('');
	}).toPass({ timeout: 20_000 });
	// The link works: it opens the post at the reply.
	await page.goto(link);
	await expect(page.getByText(words)).toBeVisible();
});

test('a link that names an outcome the server did not sign shows a neutral page, never "confirmed" or "unsubscribed"', async ({ page }) => {
	const forged = `done.${Date.now() + 60_000}.${'A'.repeat(43)}`;
	for (const path of ['confirm', 'unsubscribe']) {
		for (const result of ['done', forged]) {
			await page.goto(`${GLOBAL}/email/${path}?result=${encodeURIComponent(result)}`);
			await expect(page.locator('[data-email-result]')).toHaveAttribute('data-email-result', 'neutral');
			await expect(page.locator('[data-email-result]')).toHaveText('See where your notification emails go in My Page → Settings.');
			await expect(page.getByText(/confirmed|unsubscribed/i)).toHaveCount(0);
		}
	}
});

test('the bell asks again when the tab comes back and every minute while it is visible, never in a background tab', async ({ page }) => {
	const channel = await community(GLOBAL);
	const member = freshMember('Quiet');
	await page.clock.install();
	await signInContext(page.context(), channel, member.id);
	const asked: string[] = [];
	page.on('request', (request) => {
		if (request.url().endsWith('/notifications/unread')) asked.push(request.url());
	});
	await page.goto(`${GLOBAL}/boards`);
	await expect.poll(() => asked.length).toBe(1);
	await page.clock.runFor(60_000);
	await expect.poll(() => asked.length).toBe(2);
	// The tab goes to the background: ten minutes pass without a request.
	const setVisibility = (state: 'hidden' | 'visible') =>
		page.evaluate((value) => {
			Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
			document.dispatchEvent(new Event('visibilitychange'));
		}, state);
	await setVisibility('hidden');
	await page.clock.runFor(600_000);
	expect(asked).toHaveLength(2);
	// Back in front: it asks at once, then every minute again.
	await setVisibility('visible');
	await expect.poll(() => asked.length).toBe(3);
	await page.clock.runFor(60_000);
	await expect.poll(() => asked.length).toBe(4);
});
