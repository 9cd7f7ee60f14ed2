/**
 * Replies and the post's own controls in Chromium: a reply says whom it
 * answers, in the reply box ("Replying to @nickname", with its own cancel) and in the thread ("In
 * reply to @nickname", a link to that comment), rendered by the server too, for a guest without
 * JavaScript; the comment just posted is scrolled into view below the sticky header, focused and
 * marked for a moment (still marked, not animated, with reduced motion); the author's Edit and
 * Delete sit by the title, above the comments, at 390×844 and 1440×900; a comment's Report reads
 * "Reported" once made, and on later visits. Members 30 to 33 of the demo's global community, on
 * posts made for each test.
 */
import type { Locator, Page } from '@playwright/test';
import { wcagViolations } from './axe';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, signInMember, type Community } from './write-helpers';
import { reviewShot } from './review-shot';

const GLOBAL = '/starfall/global';
const PHONE = { width: 390, height: 844 };

function mark(label: string): string {
	return `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** A new post of the general board by member `authorIndex`, with a top-level comment by `commenterIndex`. */
function postWithComment(
	channel: Community,
	authorIndex: number,
	commenterIndex: number,
	paragraphs = 1,
): { postId: number; path: string; commentId: number; text: string } {
	const body = JSON.stringify({
		type: 'doc',
		blocks: Array.from({ length: paragraphs }, () => ({
			type: 'paragraph',
			children: [{ text: 'The sky whales gather at dusk above the northern isles.' }],
		})),
	});
	const [post] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at, comment_count)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, authorIndex)}, '${mark('Replies')}', '${body}', 'The sky whales', ${Date.now()}, 1) RETURNING id`,
	) as { id: number }[];
	const text = mark('Where do they go in winter?');
	const [comment] = execute(
		`INSERT INTO comments (channel_id, post_id, member_id, content, created_at) VALUES (${channel.index}, ${post!.id}, ${memberIdOf(channel, commenterIndex)}, '${text}', ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	return { postId: post!.id, path: `${channel.path}/posts/${post!.id}`, commentId: comment!.id, text };
}

const section = (page: Page) => page.locator('[data-comments]');
const item = (page: Page, text: string) =>
	section(page)
		.locator('li.comment')
		.filter({ has: page.locator(':scope > .comment-body > .comment-text', { hasText: text }) });
const replyForm = (page: Page) => section(page).locator('[data-comment-form^="reply-"]');

async function armed(page: Page): Promise<void> {
	await expect(section(page)).toHaveAttribute('data-comments-loader', 'armed');
}

/** The sticky header's bottom edge, in the viewport. */
async function headerBottom(page: Page): Promise<number> {
	return page
		.locator('header')
		.first()
		.evaluate((header) => header.getBoundingClientRect().bottom);
}

/** The comment just posted: focused, in view below the sticky header, and marked. */
async function expectJustPosted(page: Page, comment: Locator): Promise<void> {
	await expect(comment).toBeFocused();
	await expect(comment).toHaveClass(/\bjust-posted\b/);
	await expect(comment).toBeInViewport();
	await expect.poll(async () => (await comment.evaluate((li) => li.getBoundingClientRect().top)) >= (await headerBottom(page)) - 1).toBe(true);
}

test('a reply says whom it answers, in the reply box and in the thread, and the page says it without JavaScript', async ({
	page,
	browser,
	baseURL,
}) => {
	const channel = await community(GLOBAL);
	const post = postWithComment(channel, 30, 31);
	const [asked, answerer] = [channel.nicknames[31]!, channel.nicknames[32]!];
	await page.setViewportSize(PHONE);
	await signInMember(page, channel, 32, post.path);
	await armed(page);

	// The box says what it answers, and its own cancel closes it, giving the focus back to Reply.
	const replyButton = item(page, post.text).getByRole('button', { name: 'Reply', exact: true });
	await replyButton.click();
	const context = replyForm(page).locator('.comment-reply-context');
	await expect(context).toContainText(`Replying to @${asked}`);
	await expect(context.getByRole('link')).toHaveAttribute('href', `#comment-${post.commentId}`);
	await context.getByRole('button', { name: 'Cancel reply' }).click();
	await expect(replyForm(page)).toHaveCount(0);
	await expect(replyButton).toBeFocused();

	// By keyboard: Reply opens it again, the text is posted, and the new reply says whom it answers.
	await replyButton.press('Enter');
	const box = section(page).getByRole('textbox', { name: `Reply to ${asked}` });
	await expect(box).toBeFocused();
	const reply = mark('South, past the reef');
	await box.fill(reply);
	await replyForm(page).getByRole('button', { name: 'Post', exact: true }).click();
	const posted = item(page, reply);
	await expect(posted.locator('.comment-reply-to')).toHaveText(`In reply to @${asked}`);
	await expect(posted.locator('.comment-reply-to')).toHaveAttribute('href', `#comment-${post.commentId}`);
	await expect(page.locator('[data-toast]')).toHaveText('The comment has been posted.');
	await expectJustPosted(page, posted);

	// A reply to that reply: the box and the thread name its author and link to it, not to the thread's comment.
	const replyId = Number(await posted.getAttribute('data-comment-id'));
	await posted.getByRole('button', { name: 'Reply', exact: true }).click();
	await expect(replyForm(page).locator('.comment-reply-context')).toContainText(`Replying to @${answerer}`);
	await expect(replyForm(page).locator('.comment-reply-context a')).toHaveAttribute('href', `#comment-${replyId}`);
	// The thread, its contexts and the open reply box meet WCAG 2.2 AA at 390 px (target sizes too). The order's
	// tabs above the thread are scrolled under the sticky header here; best-comments.spec checks them in view.
	expect(await wcagViolations(page, '[data-comments]', '.comments-order')).toEqual([]);
	const second = mark('Thanks!');
	const secondBox = section(page).getByRole('textbox', { name: `Reply to ${answerer}` });
	await expect(secondBox).toBeFocused();
	await expect(secondBox).toHaveValue(`@${answerer} `);
	await secondBox.pressSequentially(second);
	await replyForm(page).getByRole('button', { name: 'Post', exact: true }).click();
	const secondItem = item(page, second);
	await expect(secondItem.locator('.comment-reply-to')).toHaveText(`In reply to @${answerer}`);
	await expect(secondItem.locator('.comment-reply-to')).toHaveAttribute('href', `#comment-${replyId}`);
	await expectJustPosted(page, secondItem);
	await reviewShot(page, 'test-results/replies/reply-posted-390.png');
	expect(execute(`SELECT parent_id AS parentId, reply_to_id AS replyToId FROM comments WHERE post_id = ${post.postId} ORDER BY id`)).toEqual([
		{ parentId: null, replyToId: null },
		{ parentId: post.commentId, replyToId: null },
		{ parentId: post.commentId, replyToId: replyId },
	]);
	// Following the context goes to the comment answered, below the sticky header.
	await secondItem.locator('.comment-reply-to').click();
	await expect(page).toHaveURL(new RegExp(`#comment-${replyId}$`));
	await expect.poll(async () => (await posted.evaluate((li) => li.getBoundingClientRect().top)) >= (await headerBottom(page)) - 1).toBe(true);

	// A guest's page, as the server renders it, without JavaScript, says the same.
	const guest = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE, ...(baseURL ? { baseURL } : {}) });
	const guestPage = await guest.newPage();
	// Its first load: the member's page was made from the guest's stored one, which their comments left behind.
	await guestPage.goto(post.path);
	await expect(item(guestPage, reply).locator('.comment-reply-to')).toHaveText(`In reply to @${asked}`);
	await expect(item(guestPage, second).locator('.comment-reply-to')).toHaveText(`In reply to @${answerer}`);
	await expect(item(guestPage, second).locator('.comment-reply-to')).toHaveAttribute('href', `#comment-${replyId}`);
	await expect(item(guestPage, second).locator('.comment-reply-to')).toBeVisible();
	expect(await guestPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
	await guest.close();
});

test.describe('before the comments island has loaded', () => {
	test.use({ viewport: PHONE, hasTouch: true });

	test('Reply opens its box at once and keeps every key typed while the island loads, and posts exactly that', async ({ page }) => {
		const channel = await community(GLOBAL);
		const post = postWithComment(channel, 31, 30);
		// The island's module is held until the text has been typed: the island cannot take over sooner, however fast the machine.
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		let asked: () => void = () => undefined;
		const requested = new Promise<void>((resolve) => (asked = resolve));
		await page.route(/\/_astro\/mount\.[\w-]+\.js$/, async (route) => {
			asked();
			await held;
			await route.continue();
		});
		await signInMember(page, channel, 33, post.path);
		await armed(page);
		await item(page, post.text).getByRole('button', { name: 'Reply', exact: true }).tap();
		await page.keyboard.type('Ultra preset');
		await requested;
		await expect(section(page)).not.toHaveAttribute('data-mounted');
		const early = section(page).getByRole('textbox', { name: `Reply to ${channel.nicknames[30]!}` });
		await expect(early).toHaveValue('Ultra preset');
		release();
		await expect(section(page)).toHaveAttribute('data-mounted', '');
		// The island's box holds exactly what was typed, keeps the focus and the caret at its end.
		const box = replyForm(page).locator('textarea');
		await expect(box).toHaveValue('Ultra preset');
		await expect(box).toBeFocused();
		await expect(replyForm(page)).toHaveCount(1);
		await expect(replyForm(page).locator('.comment-reply-context')).toContainText(`Replying to @${channel.nicknames[30]!}`);
		await page.keyboard.type('!');
		await expect(box).toHaveValue('Ultra preset!');
		await page.keyboard.press('Backspace');
		await replyForm(page).getByRole('button', { name: 'Post', exact: true }).tap();
		await expect(page.locator('[data-toast]')).toHaveText('The comment has been posted.');
		expect(execute(`SELECT content, parent_id AS parentId FROM comments WHERE post_id = ${post.postId} AND parent_id IS NOT NULL`)).toEqual([
			{ content: 'Ultra preset', parentId: post.commentId },
		]);
	});

	test("a reply to a reply starts with its author's name before the island too", async ({ page }) => {
		const channel = await community(GLOBAL);
		const post = postWithComment(channel, 31, 30);
		const [reply] = execute(
			`INSERT INTO comments (channel_id, post_id, member_id, parent_id, content, created_at) VALUES (${channel.index}, ${post.postId}, ${memberIdOf(channel, 32)}, ${post.commentId}, '${mark('Me too')}', ${Date.now()}) RETURNING id, content`,
		) as { id: number; content: string }[];
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		await page.route(/\/_astro\/mount\.[\w-]+\.js$/, async (route) => {
			await held;
			await route.continue();
		});
		await signInMember(page, channel, 33, post.path);
		await armed(page);
		await item(page, reply!.content).getByRole('button', { name: 'Reply', exact: true }).tap();
		await page.keyboard.type('same');
		const answerer = channel.nicknames[32]!;
		await expect(section(page).getByRole('textbox', { name: `Reply to ${answerer}` })).toHaveValue(`@${answerer} same`);
		release();
		await expect(section(page)).toHaveAttribute('data-mounted', '');
		await expect(replyForm(page).locator('textarea')).toHaveValue(`@${answerer} same`);
		await expect(replyForm(page).locator('.comment-reply-context a')).toHaveAttribute('href', `#comment-${reply!.id}`);
		await expect(replyForm(page)).toHaveAttribute('data-comment-form', `reply-${post.commentId}`);
	});
});

test('Reply and the comment menu are 44 px targets on a phone, and the list is no taller for it', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = postWithComment(channel, 31, 30);
	await page.setViewportSize(PHONE);
	await signInMember(page, channel, 33, post.path);
	await armed(page);
	const comment = item(page, post.text);
	const measure = async () => {
		const reply = (await comment.getByRole('button', { name: 'Reply', exact: true }).boundingBox())!;
		const menu = (await comment.locator('[data-action="menu"]').boundingBox())!;
		const row = (await comment.locator('.comment-actions').boundingBox())!;
		return { reply, menu, row };
	};
	for (const stage of ['page', 'island']) {
		if (stage === 'island') {
			await page.locator('#comment-box-new').click();
			await expect(section(page)).toHaveAttribute('data-mounted', '');
		}
		const { reply, menu, row } = await measure();
		for (const target of [reply, menu]) {
			expect(target.width, stage).toBeGreaterThanOrEqual(44);
			expect(target.height, stage).toBeGreaterThanOrEqual(44);
		}
		// The row of Reply keeps the 24 px it had: the target reaches into the space around it.
		expect(row.height, stage).toBeLessThanOrEqual(25);
	}
	await comment.screenshot({ path: 'test-results/replies/targets-390.png' });
});

test('the comment just posted is marked for a moment, and marked still where motion is reduced', async ({ page }) => {
	const channel = await community(GLOBAL);
	// A long post: the comments start far below the first screen.
	const post = postWithComment(channel, 31, 30, 30);
	await page.setViewportSize(PHONE);
	await signInMember(page, channel, 32, post.path);
	await armed(page);
	const box = page.locator('#comment-box-new');
	await box.click();
	const text = mark('First time seeing them');
	await box.fill(text);
	await section(page).locator('[data-comment-form="new"]').getByRole('button', { name: 'Post', exact: true }).click();
	const posted = item(page, text);
	await expectJustPosted(page, posted);
	// An animation fades the mark out.
	expect(await posted.locator(':scope > .comment-body').evaluate((body) => getComputedStyle(body).animationName)).toBe('comment-posted');

	await page.emulateMedia({ reducedMotion: 'reduce' });
	await item(page, post.text).getByRole('button', { name: 'Reply', exact: true }).click();
	const reply = mark('Same here');
	await section(page)
		.getByRole('textbox', { name: /^Reply to / })
		.fill(reply);
	await replyForm(page).getByRole('button', { name: 'Post', exact: true }).click();
	const still = item(page, reply);
	await expectJustPosted(page, still);
	const style = await still
		.locator(':scope > .comment-body')
		.evaluate((body) => ({ animation: getComputedStyle(body).animationName, shadow: getComputedStyle(body).boxShadow }));
	expect(style.animation).toBe('none');
	expect(style.shadow).toContain('inset');
	// Only the comment just posted is marked.
	await expect(section(page).locator('li.just-posted')).toHaveCount(1);
});

for (const viewport of [PHONE, { width: 1440, height: 900 }]) {
	test(`the author's Edit and Delete sit by the title, above the comments, at ${viewport.width}×${viewport.height}`, async ({ page }) => {
		const channel = await community(GLOBAL);
		const post = postWithComment(channel, 30, 31);
		await page.setViewportSize(viewport);
		await signInMember(page, channel, 30, post.path);
		const actions = page.locator('[data-post-actions]');
		const edit = actions.getByRole('link', { name: 'Edit' });
		const remove = actions.getByRole('button', { name: 'Delete' });
		await expect(edit).toBeVisible();
		await expect(remove).toBeEnabled();
		// In the post's header, above the title's bottom and the body, not after the comments.
		await expect(page.locator('.post-header [data-post-actions]')).toHaveCount(1);
		expect(await wcagViolations(page, '.post-header')).toEqual([]);
		const box = async (locator: Locator) => (await locator.boundingBox())!;
		const [editBox, removeBox, title, comments] = [
			await box(edit),
			await box(remove),
			await box(page.locator('.post-title')),
			await box(section(page)),
		];
		expect(editBox.y + editBox.height).toBeLessThanOrEqual(title.y + title.height);
		expect(removeBox.y).toBeLessThan(comments.y);
		// In the first screen, at least 24 px tall (WCAG 2.2's target size), and nothing overflows sideways.
		for (const target of [editBox, removeBox]) {
			expect(target.height).toBeGreaterThanOrEqual(24);
			expect(target.width).toBeGreaterThanOrEqual(24);
			expect(target.y + target.height).toBeLessThanOrEqual(viewport.height);
			expect(target.x + target.width).toBeLessThanOrEqual(viewport.width);
		}
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
		await reviewShot(page, `test-results/replies/post-header-${viewport.width}.png`);
		// Keyboard: Delete opens its confirm, and Escape leaves the post as it was.
		await remove.focus();
		await page.keyboard.press('Enter');
		const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
		await expect(confirm.getByRole('button', { name: 'Delete' })).toBeVisible();
		await page.keyboard.press('Escape');
		await expect(confirm).toBeHidden();
		await edit.click();
		await expect(page).toHaveURL(new RegExp(`/posts/${post.postId}/edit$`));
	});
}

test("a comment's Report reads Reported once made, and on later visits", async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = postWithComment(channel, 30, 32);
	await page.setViewportSize(PHONE);
	await signInMember(page, channel, 33, post.path);
	await armed(page);
	const comment = item(page, post.text);
	const menuButton = comment.locator(':scope > .comment-body .comment-menu-button');
	await menuButton.click();
	await comment.getByRole('menuitem', { name: 'Report' }).click();
	const dialog = page.getByRole('dialog', { name: 'Report this comment' });
	await dialog.getByRole('radio', { name: 'Spam, advertising or scams' }).check();
	await dialog.getByRole('button', { name: 'Report', exact: true }).click();
	await expect(page.locator('[data-toast]')).toHaveText('It has been reported.');
	await expect(dialog).toBeHidden();
	expect(execute(`SELECT count(*) AS n FROM reports WHERE target_type = 'COMMENT' AND target_id = ${post.commentId}`)).toEqual([{ n: 1 }]);

	const reported = async () => {
		await menuButton.click();
		const entry = comment.getByRole('menuitem', { name: 'Reported' });
		await expect(entry).toBeVisible();
		await expect(entry).toHaveAttribute('aria-disabled', 'true');
		await expect(comment.getByRole('menuitem', { name: 'Report', exact: true })).toHaveCount(0);
		// Choosing it (it keeps the focus, aria-disabled) does nothing: no dialog, no request.
		await entry.focus();
		await page.keyboard.press('Enter');
		await expect(dialog).toBeHidden();
		await page.keyboard.press('Escape');
	};
	await reported();
	// A later visit: the page marks it (the member's own page, read with the comments).
	await page.reload();
	await armed(page);
	await expect(comment).toHaveAttribute('data-reported', '');
	await reported();
	expect(execute(`SELECT count(*) AS n FROM reports WHERE target_type = 'COMMENT' AND target_id = ${post.commentId}`)).toEqual([{ n: 1 }]);
});

test('a reply to a reply deleted while the box is open still joins its thread', async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = postWithComment(channel, 30, 31);
	const text = mark('Past the reef, I think');
	const [reply] = execute(
		`INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at) VALUES (${channel.index}, ${post.postId}, ${post.commentId}, ${memberIdOf(channel, 33)}, '${text}', ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	execute(`UPDATE posts SET comment_count = 2 WHERE id = ${post.postId}`);
	await signInMember(page, channel, 32, post.path);
	await armed(page);
	await item(page, text).getByRole('button', { name: 'Reply', exact: true }).click();
	await expect(replyForm(page).locator('.comment-reply-context')).toContainText(`Replying to @${channel.nicknames[33]}`);
	execute(`UPDATE comments SET deleted_at = ${Date.now()} WHERE id = ${reply!.id}`);
	const answer = mark('Agreed');
	await section(page)
		.getByRole('textbox', { name: /^Reply to / })
		.pressSequentially(answer);
	await replyForm(page).getByRole('button', { name: 'Post', exact: true }).click();
	await expect(page.locator('[data-toast]')).toHaveText('The comment has been posted.');
	await expect(item(page, answer).locator('.comment-reply-to')).toHaveText(`In reply to @${channel.nicknames[31]}`);
	expect(
		execute(
			`SELECT parent_id AS parentId, reply_to_id AS replyToId FROM comments WHERE post_id = ${post.postId} AND deleted_at IS NULL AND parent_id IS NOT NULL`,
		),
	).toEqual([{ parentId: post.commentId, replyToId: null }]);
});
