/**
 * An administrator hides a post from its page and shows it again: the confirm dialog
 * with a reason, the readers' view of each effect, and the audit log's entry.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, freshMember, memberIdOf, signInMember } from './write-helpers';
import { memberHeaders, postAs, signInContext } from './sessions';
import { reviewShot } from './review-shot';
import { boxOf, PHONE, scrollsSideways, viewportOf, within } from './phone-checks';
import { wcagViolations } from './axe';

const GLOBAL = '/starfall/global';

test('an administrator hides a post from its page, readers see it hidden, and it comes back', async ({ page, browser }) => {
	const channel = await community(GLOBAL);
	const [post] = execute(
		`SELECT id, title FROM posts WHERE channel_id = 1 AND board_id = 13 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL ORDER BY id DESC LIMIT 1 OFFSET 2`,
	) as { id: number; title: string }[];
	await signInMember(page, channel, 0, `${GLOBAL}/posts/${post!.id}`);
	await page.getByRole('button', { name: 'Hide' }).click();
	const dialog = page.getByRole('dialog', { name: 'Hide this post from readers?' });
	await expect(dialog).toBeVisible();
	await dialog.getByLabel('Reason (kept in the moderation log)').fill('Spoilers in the title');
	await dialog.getByRole('button', { name: 'Hide' }).press('Enter');
	await expect(page.locator('.restricted-notice')).toHaveText('Hidden by the administrator: only administrators can see this post.');
	await expect(page.getByRole('button', { name: 'Show again' })).toBeVisible();

	const guest = await browser.newPage();
	await guest.goto(`${GLOBAL}/posts/${post!.id}`);
	await expect(guest.locator('[data-post-state="HIDDEN_BY_ADMIN"]')).toBeVisible();
	await expect(guest.getByText(post!.title)).toHaveCount(0);
	await guest.goto(`${GLOBAL}/search?q=${encodeURIComponent(Array.from(post!.title).slice(0, 8).join(''))}&searchType=TITLE`);
	await expect(guest.locator(`[data-post-id="${post!.id}"]`)).toHaveCount(0);

	// Cancel changes nothing; Escape closes the dialog too.
	await page.getByRole('button', { name: 'Show again' }).click();
	await page.keyboard.press('Escape');
	await expect(page.getByRole('dialog')).toBeHidden();
	await expect(page.locator('.restricted-notice')).toBeVisible();
	await page.getByRole('button', { name: 'Show again' }).click();
	await page.getByRole('dialog', { name: 'Show this post to readers again?' }).getByRole('button', { name: 'Show again' }).click();
	await expect(page.locator('.restricted-notice')).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Hide' })).toBeVisible();

	const log = execute(`SELECT action, reason FROM moderation_log WHERE target_type = 'POST' AND target_id = ${post!.id} ORDER BY id`) as {
		action: string;
		reason: string;
	}[];
	expect(log).toEqual([
		{ action: 'HIDE_POST', reason: 'Spoilers in the title' },
		{ action: 'UNHIDE_POST', reason: '' },
	]);
	await guest.close();
});

test('a member sees no moderation control', async ({ page }) => {
	const channel = await community(GLOBAL);
	const [post] = execute(
		`SELECT id FROM posts WHERE channel_id = 1 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL ORDER BY id DESC LIMIT 1`,
	) as { id: number }[];
	await signInMember(page, channel, 5, `${GLOBAL}/posts/${post!.id}`);
	await expect(page.locator('[data-moderate-post]')).toHaveCount(0);
});

test("an administrator deletes a member's post but is offered no Edit, and cannot open its editor", async ({ page }) => {
	const channel = await community(GLOBAL);
	const [post] = execute(
		`SELECT id FROM posts WHERE channel_id = 1 AND board_id = 12 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL AND member_id <> 1001 ORDER BY id DESC LIMIT 1 OFFSET 5`,
	) as { id: number }[];
	await signInMember(page, channel, 0, `${GLOBAL}/posts/${post!.id}`);
	const actions = page.locator('[data-post-actions]');
	await expect(actions.getByRole('button', { name: 'Hide' })).toBeVisible();
	await expect(actions.getByRole('button', { name: 'Delete' })).toBeVisible();
	await expect(actions.getByRole('link', { name: 'Edit' })).toHaveCount(0);
	const editor = await page.goto(`${GLOBAL}/posts/${post!.id}/edit`);
	expect(editor?.status()).toBe(403);
	await expect(page.locator('[data-write-form]')).toHaveCount(0);
});

test('readers are told a post was hidden after reports from members, and so is the administrator', async ({ page, browser, request, baseURL }) => {
	const channel = await community(GLOBAL);
	const [post] = execute(
		`SELECT id FROM posts WHERE channel_id = 1 AND board_id = 13 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL AND is_notice = 0
		 AND member_id BETWEEN 1004 AND 1029 AND member_id <> 1016 AND id NOT IN (SELECT target_id FROM reports WHERE target_type = 'POST') ORDER BY id DESC LIMIT 1 OFFSET 6`,
	) as { id: number }[];
	const postId = post!.id;
	const send = (on: Page, url: string, body: unknown) =>
		on.evaluate(
			async ([to, payload]) => {
				const answer = await fetch(to as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
				return ((await answer.json()) as { header: { resultCode: number } }).header.resultCode;
			},
			[url, body] as const,
		);
	execute('UPDATE channels SET auto_hide_reports = 1 WHERE id = 1');
	try {
		// A member of long standing reports it: at a threshold of one, the community hides it at once.
		const member = await memberHeaders(channel, memberIdOf(channel, 15), baseURL!);
		expect(await postAs(request, member, `/v1/starfall/global/reports`, { targetType: 'POST', targetId: postId, reason: 'SPAM', detail: '' })).toBe(
			0,
		);
		const guest = await browser.newPage(baseURL ? { baseURL } : {});
		await guest.goto(`${GLOBAL}/posts/${postId}`);
		await expect(guest.locator('[data-auto-hidden]')).toContainText('The post has been hidden after reports from members.');
		await expect(guest.getByText('hidden by the administrator')).toHaveCount(0);
		await guest.close();
		await signInMember(page, channel, 0, `${GLOBAL}/posts/${postId}`);
		await expect(page.locator('.restricted-notice')).toHaveText(
			'Hidden after reports from members: only administrators can see this post until a moderator reviews it.',
		);
		expect(await send(page, `/admin/v1/starfall/global/posts/${postId}/unhide`, { reason: '' })).toBe(0);
	} finally {
		execute('UPDATE channels SET auto_hide_reports = NULL WHERE id = 1');
	}
});

test('a member banned while reading is told why, until when and whom to ask, keeps reading, and is never asked to log in (390×844)', async ({
	browser,
	request,
	baseURL,
}) => {
	const channel = await community(GLOBAL);
	const member = freshMember('Banned');
	const [post] = execute(
		`SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.channel_id = 1 AND b.is_public = 1 AND p.is_private = 0 AND p.hidden_by_admin = 0
		 AND p.deleted_at IS NULL AND p.comment_count > 0 ORDER BY p.id DESC LIMIT 1`,
	) as { id: number }[];
	const context = await browser.newContext({ viewport: PHONE });
	const page = await context.newPage();
	await signInContext(context, channel, member.id);
	await page.goto(`${GLOBAL}/posts/${post!.id}`);
	await expect(page.locator('li.comment').first()).toBeVisible();

	// An administrator bans the member, with a reason, while their page is open.
	const endsAt = Date.UTC(2027, 0, 15, 9, 30);
	const banned = await postAs(
		request,
		await memberHeaders(channel, memberIdOf(channel, 0), baseURL!),
		`/admin/v1/starfall/global/members/${member.id}/ban`,
		{
			kind: 'TEMPORARY',
			endsAt,
			reason: 'Insults in three threads',
		},
	);
	expect(banned).toBe(0);
	try {
		// Writing explains the ban (no log-in prompt): until when, that reading goes on, whom to ask.
		const box = page.locator('#comment-box-new');
		await box.click();
		await box.fill('Am I still here?');
		await page.locator('[data-comment-form="new"]').getByRole('button', { name: 'Post', exact: true }).click();
		const dialog = page.getByRole('dialog', { name: 'Access restricted' });
		await expect(dialog).toContainText('Your access to this community is restricted until 2027.01.15 09:30.');
		await expect(dialog).toContainText('You can still read posts and comments here.');
		await expect(dialog.getByRole('link', { name: 'support@starfall.example' })).toBeVisible();
		await expect(page.getByText('Please log in to continue.')).toHaveCount(0);
		expect(within(await boxOf(dialog), viewportOf(page))).toBe(true);
		await reviewShot(dialog, 'test-results/ban-dialog-en-phone.png');
		await dialog.getByRole('button', { name: 'OK' }).click();

		// The page again, and every page after: the notice, with the reason; the post and its comments still read.
		const notice = page.getByRole('region', { name: 'Access restricted' });
		await expect(notice).toContainText('Your access to this community is restricted until 2027.01.15 09:30 (UTC).');
		await expect(notice).toContainText('Reason: Insults in three threads');
		await expect(notice).toContainText('You can still read posts and comments here.');
		await expect(notice).toContainText('To ask for a review, contact support@starfall.example.');
		await expect(page.getByRole('dialog')).toHaveCount(0);
		await expect(page.locator('li.comment').first()).toBeVisible();
		// The comment box says why it is closed, and asks no log-in.
		await expect(box).toHaveAttribute('placeholder', 'Your access is restricted: you can read the comments, but not write one.');
		await box.click();
		await expect(page.getByRole('dialog')).toHaveCount(0);
		await expect(page.getByText('Log in to write a comment.')).toHaveCount(0);
		await page.goto(`${GLOBAL}/boards/${boardOf(channel, 'general')}`);
		await expect(notice).toBeVisible();
		// A ban given through a day (the admin dialog's form) reads as that day, as the admin lists show it.
		execute(`UPDATE bans SET ends_at = ${Date.UTC(2027, 0, 16)} WHERE member_id = ${member.id} AND lifted_at IS NULL`);
		await page.reload();
		await expect(notice).toContainText('Your access to this community is restricted through 2027.01.15 (UTC), that day included.');
		await expect(page.getByRole('dialog')).toHaveCount(0);
		expect(await scrollsSideways(page)).toBe(false);
		expect(await wcagViolations(page)).toEqual([]);
		await reviewShot(notice, 'test-results/ban-notice-en-phone.png');
	} finally {
		execute(`UPDATE bans SET lifted_at = ${Date.now()} WHERE member_id = ${member.id} AND lifted_at IS NULL`);
		await context.close();
	}
});
