/**
 * Comments in Chromium: writing, replying (a reply to a reply joins the thread with "@nickname "),
 * editing one at a time, deleting with and without replies, more comments on demand, a link to a
 * comment, a guest's login-required modal, an ended session that keeps the text, a banned member's
 * dialog, hostile text shown as text, the JavaScript budget before interaction, long comments
 * within the screen in each language, and an administrator's role badge. Each test comments as its own demo member on
 * its own demo post (rate limits count per member; counts per post).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Page } from '@playwright/test';
import { axe } from './axe';
import { reviewShot } from './review-shot';
import { expect, test } from './test';
import { execute } from './fixtures';
import { community, memberIdOf, signInFreshMember, signInMember, type Community } from './write-helpers';
import { signInContext } from './sessions';
import { HOSTILE_SCHEMES, OTHER_HOSTS } from '../fixtures/xss-corpus';

const GLOBAL = '/starfall/global';

function mark(label: string): string {
	return `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** A visible demo post of the channel's fan-art board that no other test of this file uses. */
function postOf(channel: Community, slot: number): number {
	const [row] = execute(
		`SELECT id FROM posts WHERE channel_id = ${channel.index} AND board_id = ${channel.index * 10 + 4} AND deleted_at IS NULL AND hidden_by_admin = 0
		 AND is_private = 0 AND is_notice = 0 ORDER BY id LIMIT 1 OFFSET ${slot}`,
	) as { id: number }[];
	if (!row) throw new Error(`No post ${slot} in ${channel.path}`);
	return row.id;
}

function texts(language: string): (key: string) => string {
	const messages = JSON.parse(readFileSync(path.join('src', 'i18n', `${language}.json`), 'utf8')) as Record<string, string>;
	return (key) => messages[key] ?? key;
}

const section = (page: Page) => page.locator('[data-comments]');
const count = (page: Page) => section(page).locator('[data-comment-count]');
const newBox = (page: Page) => page.locator('#comment-box-new');
const item = (page: Page, text: string) =>
	section(page)
		.locator('li.comment')
		.filter({ has: page.locator(':scope > .comment-body > .comment-text', { hasText: text }) });
const toast = (page: Page) => page.locator('[data-toast]');

async function countOf(page: Page): Promise<number> {
	return Number((await count(page).textContent())?.replace(/\D/g, ''));
}

async function writeComment(page: Page, text: string): Promise<void> {
	await armed(page);
	await newBox(page).click();
	await newBox(page).fill(text);
	await section(page).locator('[data-comment-form="new"]').getByRole('button', { name: 'Post', exact: true }).click();
	await expect(toast(page)).toHaveText('The comment has been posted.');
	await expect(item(page, text)).toBeVisible();
}

/** Waits for the loader script: a press before it runs does nothing, as for a reader whose page is still loading. */
async function armed(page: Page): Promise<void> {
	await expect(section(page)).toHaveAttribute('data-comments-loader', 'armed');
}

async function openMenu(page: Page, text: string) {
	await armed(page);
	const comment = item(page, text);
	await comment.locator(':scope > .comment-body .comment-menu-button').click();
	return comment.locator(':scope > .comment-body [role="menu"]');
}

test('a member comments, replies, replies to a reply, and the count follows', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 1);
	await signInMember(page, channel, 30, `${GLOBAL}/posts/${postId}`);
	const before = await countOf(page);
	// The box shows its length against the limit before the island and after it.
	await expect(section(page).locator('#comment-box-new-length')).toHaveText('0 / 1,000');
	const first = mark('Lovely colours');
	await writeComment(page, first);
	await expect(section(page).locator('#comment-box-new-length')).toHaveText('0 / 1,000');
	await expect(count(page)).toHaveText(String(before + 1));
	await expect(newBox(page)).toHaveValue('');

	await item(page, first).getByRole('button', { name: 'Reply', exact: true }).first().click();
	const replyBox = section(page).getByRole('textbox', { name: `Reply to ${channel.nicknames[30]}` });
	await expect(replyBox).toBeFocused();
	const reply = mark('Thank you');
	await replyBox.fill(reply);
	await section(page).locator('[data-comment-form^="reply-"]').getByRole('button', { name: 'Post', exact: true }).click();
	await expect(item(page, first).locator('.replies').getByText(reply)).toBeVisible();
	await expect(count(page)).toHaveText(String(before + 2));

	// A reply to a reply: the same thread, starting with @nickname.
	await item(page, reply).getByRole('button', { name: 'Reply', exact: true }).click();
	await expect(replyBox).toBeFocused();
	await expect(replyBox).toHaveValue(`@${channel.nicknames[30]} `);
	const answer = mark('Agreed');
	await replyBox.pressSequentially(answer);
	await section(page).locator('[data-comment-form^="reply-"]').getByRole('button', { name: 'Post', exact: true }).click();
	await expect(item(page, first).locator('.replies > li')).toHaveCount(2);
	await expect(item(page, first).locator('.replies > li').nth(1)).toContainText(`@${channel.nicknames[30]} ${answer}`);
	await expect(count(page)).toHaveText(String(before + 3));

	// The page as the server renders it shows the same thread.
	await page.reload();
	await expect(count(page)).toHaveText(String(before + 3));
	await expect(item(page, first).locator('.replies > li')).toHaveCount(2);
});

test('empty and too long comments say why, in the box', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 2);
	await signInMember(page, channel, 31, `${GLOBAL}/posts/${postId}`);
	const form = section(page).locator('[data-comment-form="new"]');
	await newBox(page).click();
	await form.getByRole('button', { name: 'Post', exact: true }).click();
	await expect(form.getByRole('alert')).toHaveText('Please enter a comment.');
	await expect(newBox(page)).toHaveAttribute('aria-invalid', 'true');
	await newBox(page).fill('x'.repeat(1001));
	await expect(section(page).locator('#comment-box-new-length')).toHaveText('1,001 / 1,000');
	await form.getByRole('button', { name: 'Post', exact: true }).click();
	await expect(form.getByRole('alert')).toHaveText('The comment can be up to 1,000 characters long.');
});

test('one comment is edited at a time, and no reply can be written meanwhile', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 3);
	await signInMember(page, channel, 32, `${GLOBAL}/posts/${postId}`);
	const one = mark('First take');
	const two = mark('Second take');
	await writeComment(page, one);
	await writeComment(page, two);

	await (await openMenu(page, one)).getByRole('menuitem', { name: 'Edit' }).click();
	const editBox = section(page).getByRole('textbox', { name: 'Edit your comment' });
	await expect(editBox).toBeFocused();
	await expect(editBox).toHaveValue(one);
	const note = page.locator('#comments-editing-note');
	await expect(note).toContainText('While a comment is being edited');

	// Another edit does not open, and Reply says why it is unavailable.
	const otherEdit = (await openMenu(page, two)).getByRole('menuitem', { name: 'Edit' });
	await expect(otherEdit).toHaveAttribute('aria-disabled', 'true');
	await expect(otherEdit).toHaveAttribute('aria-describedby', 'comments-editing-note');
	await otherEdit.dispatchEvent('click');
	await expect(section(page).getByRole('textbox', { name: 'Edit your comment' })).toHaveCount(1);
	await page.keyboard.press('Escape');
	const reply = item(page, two).getByRole('button', { name: 'Reply', exact: true });
	await expect(reply).toHaveAttribute('aria-disabled', 'true');
	await reply.dispatchEvent('click');
	await expect(section(page).locator('[data-comment-form^="reply-"]')).toHaveCount(0);

	const edited = `${one}\nsecond line`;
	await editBox.fill(edited);
	await section(page).getByRole('button', { name: 'Save', exact: true }).click();
	await expect(toast(page)).toHaveText('The comment has been edited.');
	const comment = item(page, one);
	// Edited within the 5-minute grace period: no "edited" mark (edit-history.spec.ts has the mark).
	await expect(comment.locator(':scope > .comment-body .edited')).toHaveCount(0);
	await expect(comment.locator(':scope > .comment-body .comment-text')).toHaveText(edited);
	await expect(note).toHaveCount(0);
	await expect(reply).not.toHaveAttribute('aria-disabled', 'true');
	await page.reload();
	await expect(item(page, one).locator(':scope > .comment-body .comment-text')).toHaveText(edited);
	await expect(item(page, one).locator(':scope > .comment-body .edited')).toHaveCount(0);
});

test('deleting: after a confirm, a comment with replies keeps its place, one without goes', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 4);
	await signInMember(page, channel, 33, `${GLOBAL}/posts/${postId}`);
	const parent = mark('Parent');
	const alone = mark('Alone');
	await writeComment(page, parent);
	await item(page, parent).getByRole('button', { name: 'Reply', exact: true }).first().click();
	const child = mark('Child');
	await section(page).locator('[data-comment-form^="reply-"] textarea').fill(child);
	await section(page).locator('[data-comment-form^="reply-"]').getByRole('button', { name: 'Post', exact: true }).click();
	await expect(item(page, child)).toBeVisible();
	await writeComment(page, alone);
	const before = await countOf(page);

	// Cancel keeps it, and focus returns to the menu button.
	const menuButton = item(page, alone).locator(':scope > .comment-body .comment-menu-button');
	await (await openMenu(page, alone)).getByRole('menuitem', { name: 'Delete' }).click();
	const confirm = page.getByRole('dialog', { name: 'Please confirm' });
	await expect(confirm).toContainText('Delete this comment?');
	await page.keyboard.press('Escape');
	await expect(confirm).toBeHidden();
	await expect(menuButton).toBeFocused();
	await expect(item(page, alone)).toBeVisible();

	// Keyboard only: open the menu, move to Delete, confirm.
	await menuButton.press('Enter');
	await expect(item(page, alone).locator(':scope > .comment-body [role="menuitem"]').first()).toBeFocused();
	await page.keyboard.press('End');
	await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(confirm).toBeVisible();
	await confirm.getByRole('button', { name: 'Delete' }).press('Enter');
	await expect(toast(page)).toHaveText('The comment has been deleted.');
	await expect(item(page, alone)).toHaveCount(0);
	await expect(count(page)).toHaveText(String(before - 1));

	await (await openMenu(page, parent)).getByRole('menuitem', { name: 'Delete' }).click();
	await confirm.getByRole('button', { name: 'Delete' }).click();
	await expect(count(page)).toHaveText(String(before - 2));
	const tombstone = section(page)
		.locator('ol.comments > li.comment')
		.filter({ has: page.getByText(child) });
	await expect(tombstone.locator(':scope > .comment-body')).toHaveText('This comment has been deleted.');
	await expect(tombstone.locator('.replies')).toContainText(child);
	await page.reload();
	await expect(tombstone.locator(':scope > .comment-body')).toHaveText('This comment has been deleted.');

	// Its last reply gone, the deleted comment goes too.
	await (await openMenu(page, child)).getByRole('menuitem', { name: 'Delete' }).click();
	await confirm.getByRole('button', { name: 'Delete' }).click();
	await expect(section(page).getByText(child)).toHaveCount(0);
	await expect(tombstone).toHaveCount(0);
});

test('more comments load in place; a link to a comment opens at it and highlights it', async ({ page, context }) => {
	// Signing in, two pages of comments and a reload of a long page: more than one minute when the machine is busy.
	test.setTimeout(120_000);
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 5);
	const author = memberIdOf(channel, 34);
	const bulk = mark('Bulk');
	// 130 more comments: 26 threads of a comment and four replies.
	execute(
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 25)
		 INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at) SELECT 1, ${postId}, NULL, ${author}, '${bulk} comment ' || i, 1700000000000 + i FROM n`,
	);
	execute(
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 3)
		 INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at)
		 SELECT 1, ${postId}, c.id, ${author}, 'Reply ' || n.i, 1700000100000 FROM comments c, n WHERE c.post_id = ${postId} AND c.content LIKE '${bulk} comment %'`,
	);
	execute(
		`UPDATE posts SET comment_count = (SELECT count(*) FROM comments WHERE post_id = ${postId} AND deleted_at IS NULL AND hidden_by_admin = 0) WHERE id = ${postId}`,
	);
	const total = Number((execute(`SELECT comment_count AS n FROM posts WHERE id = ${postId}`) as { n: number }[])[0]?.n);
	// What a guest sees: every comment but the deleted ones, a deleted one kept while a reply of it is not deleted.
	const shown = Number(
		(
			execute(
				`SELECT count(*) AS n FROM comments c WHERE c.post_id = ${postId} AND (c.deleted_at IS NULL
			 OR (c.parent_id IS NULL AND EXISTS (SELECT 1 FROM comments r WHERE r.parent_id = c.id AND r.deleted_at IS NULL)))`,
			) as { n: number }[]
		)[0]?.n,
	);
	expect(total).toBeGreaterThan(100);

	// A member's pages and reads are answered fresh: the rows above were written behind the edge cache's back.
	await signInMember(page, channel, 34, `${GLOBAL}/posts/${postId}`);
	const items = section(page).locator('li.comment');
	await expect(items).toHaveCount(100);
	const more = section(page).getByRole('link', { name: 'Show more comments' });
	await expect(more).toHaveAttribute('href', new RegExp(`/posts/${postId}\\?commentsAfter=\\d+#comments$`));
	await armed(page);
	// Without JavaScript the link is the next page: it starts after the last item shown, whatever the thread.
	const firstIds = await items.evaluateAll((nodes) => nodes.map((node) => node.id));
	const nextPage = await (await page.request.get((await more.getAttribute('href')) ?? '')).text();
	const nextIds = [...nextPage.matchAll(/<li[^>]* id="(comment-\d+)"/g)].map((match) => match[1]);
	expect(nextIds.length).toBeGreaterThan(0);
	expect(nextIds.filter((id) => firstIds.includes(id ?? ''))).toEqual([]);
	await more.click();
	await expect(items).toHaveCount(Math.min(shown, 200));
	while (shown > (await items.count())) {
		const before = await items.count();
		await more.press('Enter');
		await expect(items).not.toHaveCount(before);
	}
	await expect(items).toHaveCount(shown);
	await expect(more).toHaveCount(0);
	await expect(page).toHaveURL(`${GLOBAL}/posts/${postId}`);
	await expect(count(page)).toHaveText(String(total));

	// The link of the last thread's comment, copied from its menu.
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await (await openMenu(page, `${bulk} comment 25`)).getByRole('menuitem', { name: 'Copy link' }).click();
	await expect(toast(page)).toHaveText('URL has been copied.');
	const link = await page.evaluate(() => navigator.clipboard.readText());
	const commentId = Number(
		(execute(`SELECT id FROM comments WHERE post_id = ${postId} AND content = '${bulk} comment 25'`) as { id: number }[])[0]?.id,
	);
	expect(link).toBe(new URL(`${GLOBAL}/posts/${postId}?commentId=${commentId}#comment-${commentId}`, page.url()).href);

	await page.goto(link);
	const target = page.locator(`#comment-${commentId}`);
	await expect(target).toBeInViewport();
	await expect(target.locator(':scope > .comment-body')).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
	expect(await target.evaluate((element) => element.matches(':target'))).toBe(true);
	await expect(section(page).getByRole('link', { name: 'View all comments' })).toHaveAttribute('href', `${GLOBAL}/posts/${postId}#comments`);
	// It still highlights once the island has taken the section over.
	await newBox(page).focus();
	await expect(section(page)).toHaveAttribute('data-mounted', '');
	await expect(page.locator(`#comment-${commentId}`)).toHaveClass(/highlighted/);
});

test("a member reports another's comment once, a second report is told so, and their own comment has no Report", async ({ page, context }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 10);
	const theirs = mark('A comment to report');
	const [row] = execute(
		`INSERT INTO comments (channel_id, post_id, member_id, content, created_at) VALUES (${channel.index}, ${postId}, ${memberIdOf(channel, 31)}, '${theirs}', ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	execute(`UPDATE posts SET comment_count = comment_count + 1 WHERE id = ${postId}`);
	// A member's page is answered fresh, so the comment inserted behind the edge cache shows.
	await signInMember(page, channel, 26, `${GLOBAL}/posts/${postId}`);
	const mine = mark('My own comment');
	await writeComment(page, mine);
	await expect((await openMenu(page, mine)).getByRole('menuitem', { name: 'Report' })).toHaveCount(0);
	await page.keyboard.press('Escape');

	// The same post in a second tab, opened before the report.
	const earlier = await context.newPage();
	await earlier.goto(`${GLOBAL}/posts/${postId}`);

	const dialog = page.getByRole('dialog', { name: 'Report this comment' });
	await (await openMenu(page, theirs)).getByRole('menuitem', { name: 'Report' }).click();
	await expect(dialog).toBeVisible();
	await dialog.getByRole('radio', { name: 'Spoilers' }).check();
	await dialog.getByRole('button', { name: 'Report', exact: true }).click();
	await expect(toast(page)).toHaveText('It has been reported.');
	await expect(dialog).toBeHidden();
	const reports = () =>
		execute(`SELECT reason_code FROM reports WHERE target_type = 'COMMENT' AND target_id = ${row?.id}`) as { reason_code: string }[];
	expect(reports()).toEqual([{ reason_code: 'SPOILER' }]);

	// Reported: the menu says so and offers no second report (tests/e2e/replies.spec.ts for a later visit).
	await expect((await openMenu(page, theirs)).getByRole('menuitem', { name: 'Reported' })).toHaveAttribute('aria-disabled', 'true');
	await page.keyboard.press('Escape');

	// The tab opened before still offers Report: the API says it was already made, and the menu follows.
	await (await openMenu(earlier, theirs)).getByRole('menuitem', { name: 'Report' }).click();
	const earlierDialog = earlier.getByRole('dialog', { name: 'Report this comment' });
	await earlierDialog.getByRole('radio', { name: 'Spam, advertising or scams' }).check();
	await earlierDialog.getByRole('button', { name: 'Report', exact: true }).click();
	const alert = earlier.getByRole('dialog', { name: 'Notice' });
	await expect(alert).toContainText('This comment has already been reported.');
	await alert.getByRole('button', { name: 'OK' }).click();
	await expect(alert).toBeHidden();
	await expect((await openMenu(earlier, theirs)).getByRole('menuitem', { name: 'Reported' })).toHaveAttribute('aria-disabled', 'true');
	expect(reports()).toHaveLength(1);
});

test('a guest is asked to log in on focusing the box, on Post and on Reply, and no island loads for it', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 6);
	const scripts: string[] = [];
	page.on('request', (request) => {
		if (request.resourceType() === 'script') scripts.push(request.url());
	});
	await page.goto(`${GLOBAL}/posts/${postId}`);
	// A reader's first scroll loads the live thread's script (docs/reference/live-threads.md), not an island.
	await page.mouse.wheel(0, 10);
	await page.waitForLoadState('networkidle');
	const loaded = scripts.length;
	const modal = page.locator('[data-login-required-dialog]');
	await newBox(page).focus();
	await expect(modal).toBeVisible();
	await expect(modal).toContainText('Please log in to continue.');
	await modal.getByRole('button', { name: 'Cancel' }).click();
	await expect(modal).toBeHidden();
	// Focus comes back to the box without asking again.
	await expect(newBox(page)).toBeFocused();
	await expect(modal).toBeHidden();
	await section(page).getByRole('button', { name: 'Post', exact: true }).click();
	await expect(modal).toBeVisible();
	await modal.getByRole('button', { name: 'Cancel' }).click();
	await section(page).getByRole('button', { name: 'Reply', exact: true }).first().click();
	await expect(modal).toBeVisible();
	expect(scripts.length).toBe(loaded);
	await modal.getByRole('button', { name: 'Log in' }).click();
	await expect(page).toHaveURL(`${GLOBAL}/login?redirectUrl=${encodeURIComponent(`${GLOBAL}/posts/${postId}`)}`);
});

test('a session that ends mid-comment: the forced login comes back with the text kept', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 7);
	const postPath = `${GLOBAL}/posts/${postId}`;
	await signInMember(page, channel, 35, postPath);
	const text = mark('Written while logged out');
	await newBox(page).click();
	await newBox(page).fill(text);
	// The session ends on the server: logged out from elsewhere in the same browser (its cookie goes too).
	const loggedOut = await page.request.post(`/v1${GLOBAL}/auth/logout`, { headers: { origin: new URL(page.url()).origin } });
	expect(loggedOut.ok(), 'the logout').toBe(true);
	await section(page).getByRole('button', { name: 'Post', exact: true }).click();
	const alert = page.locator('[data-route-error-dialog]');
	await expect(alert).toContainText('Please log in to continue.');
	await alert.getByRole('button', { name: 'Log in' }).click();
	await expect(page).toHaveURL(new RegExp(`/login\\?redirectUrl=${encodeURIComponent(postPath)}`));
	await page.locator(`[data-login-form] button[value="${channel.providers[35 % channel.providers.length]}"]`).click();
	await page.getByRole('button', { name: new RegExp(`^Sign in as ${channel.nicknames[35]}`) }).click();
	await page.waitForURL(new RegExp(`${postPath}$`));
	await expect(newBox(page)).toHaveValue(text);
	await section(page).getByRole('button', { name: 'Post', exact: true }).click();
	await expect(toast(page)).toHaveText('The comment has been posted.');
	await expect(item(page, text)).toBeVisible();
});

test('a member banned after opening the page gets the ban dialog on commenting', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 8);
	// A member of the test's own: a banned demo member would be another test's refused writer.
	const member = await signInFreshMember(page, channel, 'BannedLater', `${GLOBAL}/posts/${postId}`);
	execute(`INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, ${member}, 'PERMANENT', NULL, ${Date.now()})`);
	try {
		await newBox(page).click();
		await newBox(page).fill(mark('Before the ban'));
		await section(page).getByRole('button', { name: 'Post', exact: true }).click();
		const dialog = page.locator('[data-route-error-dialog]');
		await expect(dialog).toBeVisible();
		await expect(dialog).toContainText('Your access to this community has been permanently restricted.');
	} finally {
		execute(`UPDATE bans SET lifted_at = ${Date.now()} WHERE member_id = ${member} AND lifted_at IS NULL`);
	}
});

test('hostile text posted through the box renders as text, with only safe https links', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 9);
	await signInMember(page, channel, 9, `${GLOBAL}/posts/${postId}`);
	let dialogs = 0;
	page.on('dialog', (dialog) => {
		dialogs += 1;
		void dialog.dismiss();
	});
	// As much of the corpus as one comment holds (a NUL cannot be typed; the over-long address is the limit's test).
	const lines = [
		mark('XSS'),
		'<script>alert(1)</script><img src=x onerror=alert(2)>',
		'"><svg onload=alert(3)> </p><a href="javascript:alert(4)">x</a>',
	];
	for (const [, url] of [...HOSTILE_SCHEMES, ...OTHER_HOSTS]) {
		if (!url.includes('\u0000') && [...lines, url].join('\n').length <= 1000) lines.push(url);
	}
	const hostile = lines.join('\n');
	const check = async () => {
		const text = item(page, 'XSS').locator(':scope > .comment-body .comment-text');
		expect(await text.evaluate((element) => element.textContent)).toBe(hostile.trim());
		await expect(text.locator('script, img, svg, b, p')).toHaveCount(0);
		const links = await text
			.locator('a')
			.evaluateAll((found) =>
				found.map((link) => ({ href: link.getAttribute('href') ?? '', rel: link.getAttribute('rel'), target: link.getAttribute('target') })),
			);
		expect(links.length).toBeGreaterThan(0);
		for (const link of links) {
			expect(link.href).toMatch(/^https:\/\/[a-z0-9.-]+\//);
			expect(link).toMatchObject({ rel: 'nofollow ugc noopener', target: '_blank' });
		}
	};
	await writeComment(page, hostile.split('\n')[0] ?? '');
	await item(page, 'XSS').locator(':scope > .comment-body .comment-text').waitFor();
	await (await openMenu(page, 'XSS')).getByRole('menuitem', { name: 'Edit' }).click();
	await section(page).getByRole('textbox', { name: 'Edit your comment' }).fill(hostile);
	await section(page).getByRole('button', { name: 'Save', exact: true }).click();
	await expect(toast(page)).toHaveText('The comment has been edited.');
	await check();
	await page.reload();
	await check();
	expect(dialogs).toBe(0);
});

test('the post page loads at most 15 KB of JavaScript before interaction, and the island only on it', async ({ page }) => {
	const channel = await community(GLOBAL);
	const postId = postOf(channel, 1);
	// Signed in before the page's one load, so that every script counted is this load's.
	await signInContext(page.context(), channel, memberIdOf(channel, 10));
	const reads: Promise<{ url: string; bytes: number }>[] = [];
	page.on('response', (response) => {
		if (response.request().resourceType() !== 'script') return;
		reads.push(
			response
				.body()
				.then((body) => ({ url: response.url(), bytes: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length })),
		);
	});
	await page.goto(`${GLOBAL}/posts/${postId}`);
	await page.waitForLoadState('networkidle');
	const scripts = await Promise.all(reads);
	const before = scripts.reduce((sum, script) => sum + script.bytes, 0);
	// Inline scripts count; the structured data (application/ld+json) is data no browser runs.
	const inline = await page.evaluate(() =>
		[...document.querySelectorAll('script:not([src]):not([type="application/ld+json"])')].map((script) => script.textContent ?? '').join('\n'),
	);
	const total = before + brotliCompressSync(inline).length;
	test.info().annotations.push({ type: 'js-bytes-brotli', description: `member post page before interaction: ${total}` });
	expect(total).toBeLessThanOrEqual(15 * 1024);
	expect(scripts.some((script) => /CommentsIsland|mount/.test(script.url))).toBe(false);
	const count = reads.length;
	await newBox(page).focus();
	await expect(section(page)).toHaveAttribute('data-mounted', '');
	// What typed before the island arrived is kept, and focus stays in the box.
	await expect(newBox(page)).toBeFocused();
	expect(reads.length).toBeGreaterThan(count);
	const after = (await Promise.all(reads.slice(count))).reduce((sum, script) => sum + script.bytes, 0);
	test.info().annotations.push({ type: 'js-bytes-brotli', description: `comments island on interaction: ${after}` });
});

/**
 * Long words and addresses in a comment and an open reply box, at desktop width and then, on the same
 * page made narrower, at phone width (the four Starfall communities; phone-journeys.spec.ts posts a
 * comment on a phone in each): one page load and one comment for both widths. The photographs of the
 * comments are for people to review (`REVIEW_SHOTS=1`).
 */
for (const [channelPath, phone] of [
	[GLOBAL, true],
	['/starfall/kr', true],
	['/starfall/jp', true],
	['/starfall/tw', true],
	['/pixelfarm/main', false],
] as const) {
	test(`long comments of ${channelPath} stay within the screen at desktop${phone ? ' and phone' : ''} width`, async ({ page }) => {
		const channel = await community(channelPath);
		const t = texts(channel.language);
		const [row] = execute(
			`SELECT c.post_id AS id FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.channel_id = ${channel.index} AND c.parent_id IS NOT NULL
			 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0 AND p.board_id <> ${channel.index * 10 + 7} GROUP BY c.post_id ORDER BY count(*) DESC, c.post_id LIMIT 1`,
		) as { id: number }[];
		const postPath = `${channelPath}/posts/${row?.id}`;
		await signInMember(page, channel, 5, postPath);
		const long = `${'https://example.com/'.padEnd(140, 'x')} ${'Ａ'.repeat(30)}${'w'.repeat(80)}`;
		await newBox(page).click();
		await newBox(page).fill(long);
		await section(page).locator('[data-comment-form="new"] button[type="submit"]').click();
		await expect(toast(page)).toHaveText(t('comment.message.posted'));
		await section(page)
			.getByRole('button', { name: t('post.reply'), exact: true })
			.first()
			.click();
		const replyBox = section(page).locator('[data-comment-form^="reply-"] textarea');
		await expect(replyBox).toBeFocused();
		const menu = section(page).locator('li.comment').first().locator('.comment-menu-button').first();
		for (const width of phone ? (['desktop', 'phone'] as const) : (['desktop'] as const)) {
			if (width === 'phone') {
				await page.keyboard.press('Escape');
				await page.setViewportSize({ width: 390, height: 844 });
				await expect(replyBox, 'the reply box at phone width').toBeVisible();
			}
			// No sideways scrolling with long words and addresses.
			expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scroll at ${width} width`).toBe(true);
			await menu.click();
			await reviewShot(section(page), path.join('test-results', `comments-${channel.slug}-${width}.png`));
		}
	});
}

test("an administrator's comment carries the role badge from the island and after a reload, a member's none (dark theme, phone width)", async ({
	page,
}) => {
	const channel = await community('/pixelfarm/main');
	// A fan-art post with a member's comment on it, that no other test of this file comments on.
	const [row] = execute(
		`SELECT p.id FROM posts p WHERE p.channel_id = ${channel.index} AND p.board_id = ${channel.index * 10 + 4} AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0
		 AND EXISTS (SELECT 1 FROM comments c JOIN members m ON m.id = c.member_id WHERE c.post_id = p.id AND c.deleted_at IS NULL AND c.hidden_by_admin = 0 AND m.role = 'MEMBER' AND m.withdrawn_at IS NULL)
		 ORDER BY p.id DESC LIMIT 1`,
	) as { id: number }[];
	const postPath = `${channel.path}/posts/${row?.id}`;
	await page.setViewportSize({ width: 390, height: 844 });
	await signInMember(page, channel, 0, postPath);
	const text = mark('Lovely work, thank you');
	await writeComment(page, text);
	const badge = () => item(page, text).locator(':scope > .comment-body > .comment-head [data-role-badge]');
	// The island renders the new comment with the badge, a word beside the name.
	await expect(badge()).toHaveText('Admin');
	const name = item(page, text).locator(':scope > .comment-body > .comment-head .comment-author');
	await expect(name).toHaveText(channel.nicknames[0] ?? '');
	const [nameBox, badgeBox] = [await name.boundingBox(), await badge().boundingBox()];
	expect(
		badgeBox &&
			nameBox &&
			badgeBox.height <= 24 &&
			badgeBox.x + badgeBox.width <= 390 &&
			Math.abs(badgeBox.y + badgeBox.height / 2 - (nameBox.y + nameBox.height / 2)) < 6,
	).toBe(true);
	// Readable in the dark theme (WCAG AA contrast), and no sideways scrolling at 390 px.
	const contrast = await axe(page).include('[data-role-badge]').withRules(['color-contrast']).analyze();
	expect(contrast.violations).toEqual([]);
	expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
	// The server renders it too, and the island reads it back when it takes the list over.
	await page.reload();
	await expect(badge()).toHaveText('Admin');
	await armed(page);
	await newBox(page).click();
	await expect(badge()).toHaveText('Admin');
	// A member's comment has none.
	const memberHeads = section(page).locator('.comment-head:not([data-author-admin])');
	expect(await memberHeads.count()).toBeGreaterThan(0);
	await expect(memberHeads.locator('[data-role-badge]')).toHaveCount(0);
});
