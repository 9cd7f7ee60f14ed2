/**
 * The admin area in Chromium: who gets it, each action of the reports queue (hide,
 * dismiss, ban the writer), closed reports, bans (ban, history, lift, finding a member), the audit
 * log, the automatic hide at a number of reports undone from the queue, and an administrator's
 * Hide / Show again of a comment on the post page, with what readers see of each.
 */
import path from 'node:path';
import { wcagViolations } from './axe';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute, nicknameOf } from './fixtures';
import { community, signInMember } from './write-helpers';
import { DESKTOP, PHONE } from './phone-checks';
import { reviewShot } from './review-shot';

const GLOBAL = '/starfall/global';
const FARM = '/pixelfarm/main';
const toast = (page: Page) => page.locator('[data-toast]');
const shots = path.join('test-results', 'admin-area');

/** A visible post of channel 1 on `boardId` that no other test acts on (the `offset`-th newest). */
function visiblePost(channelId: number, boardId: number, offset: number): { id: number; title: string; member_id: number } {
	const [row] = execute(
		`SELECT id, title, member_id FROM posts WHERE channel_id = ${channelId} AND board_id = ${boardId} AND channel_seq IS NOT NULL AND hidden_by_admin = 0
		 AND deleted_at IS NULL AND member_id NOT IN (SELECT member_id FROM bans) AND member_id % 1000 BETWEEN 4 AND 29
		 AND id NOT IN (SELECT target_id FROM reports WHERE target_type = 'POST') ORDER BY id DESC LIMIT 1 OFFSET ${offset}`,
	) as { id: number; title: string; member_id: number }[];
	if (!row) throw new Error(`No post on board ${boardId}`);
	return row;
}

/** Reports of a target by the given members, as a member's report stores them. */
function report(type: 'POST' | 'COMMENT', targetId: number, channelId: number, reports: [number, string, string][]): void {
	for (const [reporter, reason, text] of reports) {
		execute(
			`INSERT OR IGNORE INTO reports (channel_id, target_type, target_id, reporter_id, reason_code, reason_text, created_at)
			 VALUES (${channelId}, '${type}', ${targetId}, ${reporter}, '${reason}', '${text.replace(/'/g, "''")}', CAST(unixepoch('subsec') * 1000 AS INTEGER))`,
		);
	}
}

test('the admin area is for the community’s administrators: everyone else gets not found', async ({ page, request }) => {
	expect((await request.get(`${GLOBAL}/admin`)).status()).toBe(404);
	const channel = await community(GLOBAL);
	await signInMember(page, channel, 6, `${GLOBAL}/mypage`);
	await expect(page.getByRole('link', { name: 'Moderation' })).toHaveCount(0);
	const answer = await page.goto(`${GLOBAL}/admin`);
	expect(answer?.status()).toBe(404);
	expect(answer?.headers()['cache-control']).toBe('private, no-store');
	await expect(page.getByRole('heading', { name: 'Page not found.' })).toBeVisible();
});

test('reports queue: hide a post, dismiss reports, ban a comment’s writer; history, bans and the log follow', async ({ page, browser, baseURL }) => {
	// Sign-in, then five screens with a dialog each: longer than one behaviour.
	test.setTimeout(120_000);
	const channel = await community(GLOBAL);
	const hidden = visiblePost(1, 15, 4);
	const dismissed = visiblePost(1, 15, 5);
	const [comment] = execute(
		`SELECT c.id, c.member_id, c.content FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.channel_id = 1 AND c.deleted_at IS NULL AND c.hidden_by_admin = 0
		 AND p.channel_seq IS NOT NULL AND c.member_id NOT IN (SELECT member_id FROM bans) AND c.member_id BETWEEN 1004 AND 1029
		 AND c.id NOT IN (SELECT target_id FROM reports WHERE target_type = 'COMMENT') ORDER BY c.id DESC LIMIT 1 OFFSET 7`,
	) as { id: number; member_id: number; content: string }[];
	// Texts of this run alone, so that a repeated run finds its own entries.
	const run = `${test.info().repeatEachIndex}.${test.info().retry}`;
	const phishing = `Asks for passwords (${run}).`;
	report('POST', hidden.id, 1, [
		[1031, 'SPAM', 'A link to a fake giveaway.'],
		[1032, 'SPAM', ''],
		[1033, 'OTHER', phishing],
	]);
	report('POST', dismissed.id, 1, [[1034, 'SPOILER', '']]);
	report('COMMENT', comment!.id, 1, [[1035, 'ABUSE', 'Insults another member.']]);
	const writer = nicknameOf(comment!.member_id);

	await signInMember(page, channel, 0, `${GLOBAL}/mypage`);
	await page.getByRole('link', { name: 'Moderation' }).click();
	await expect(page).toHaveURL(new RegExp(`${GLOBAL}/admin$`));
	await expect(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
	const group = (type: string, id: number) => page.locator(`[data-target="${type}-${id}"]`);
	await expect(group('POST', hidden.id)).toContainText('Reports: 3');
	await expect(group('POST', hidden.id)).toContainText(hidden.title);
	await expect(group('POST', hidden.id)).toContainText('Spam, advertising or scams');
	await expect(group('POST', hidden.id)).toContainText(phishing);
	await expect(group('POST', hidden.id).getByRole('link', { name: nicknameOf(1033) })).toBeVisible();
	await page.getByRole('button', { name: 'Most reported' }).click();
	await expect(page).toHaveURL(/order=most/);
	await expect(page.getByRole('button', { name: 'Most reported' })).toHaveAttribute('aria-pressed', 'true');
	await reviewShot(page, path.join(shots, 'queue-desktop.png'), { fullPage: true });
	expect(await wcagViolations(page)).toEqual([]);

	// Hide, with a reason: the group leaves the queue, and readers no longer see the post.
	await group('POST', hidden.id).getByRole('button', { name: 'Hide' }).click();
	const hideDialog = page.getByRole('dialog', { name: 'Hide this post from readers? Its open reports are closed.' });
	await expect(hideDialog).toBeVisible();
	await hideDialog.getByLabel('Reason (kept in the moderation log)').fill('Phishing');
	await reviewShot(page, path.join(shots, 'hide-dialog.png'));
	await hideDialog.getByRole('button', { name: 'Hide' }).click();
	await expect(toast(page)).toHaveText('Hidden from readers.');
	await expect(group('POST', hidden.id)).toHaveCount(0);
	const guest = await browser.newPage(baseURL ? { baseURL } : {});
	await guest.goto(`${GLOBAL}/posts/${hidden.id}`);
	await expect(guest.locator('[data-post-state="HIDDEN_BY_ADMIN"]')).toBeVisible();
	await expect(guest.getByText(hidden.title)).toHaveCount(0);
	await guest.close();

	// Dismiss, by keyboard only: Escape first cancels and changes nothing.
	const dismiss = group('POST', dismissed.id).getByRole('button', { name: 'Dismiss' });
	// The controls are disabled until the island has hydrated, and a disabled button takes no focus.
	await expect(dismiss).toBeEnabled();
	await dismiss.focus();
	await expect(dismiss).toBeFocused();
	await page.keyboard.press('Enter');
	const dismissDialog = page.getByRole('dialog', { name: 'Dismiss these reports and leave it as it is?' });
	await expect(dismissDialog).toBeVisible();
	await page.keyboard.press('Escape');
	await expect(dismissDialog).toBeHidden();
	await expect(dismiss).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(dismissDialog.getByLabel('Reason (kept in the moderation log)')).toBeFocused();
	await page.keyboard.type('Not a spoiler');
	await page.keyboard.press('Tab');
	await page.keyboard.press('Tab');
	await expect(dismissDialog.getByRole('button', { name: 'Dismiss' })).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(toast(page)).toHaveText('The reports have been dismissed.');
	await expect(group('POST', dismissed.id)).toHaveCount(0);
	expect(execute(`SELECT hidden_by_admin AS hidden FROM posts WHERE id = ${dismissed.id}`)).toEqual([{ hidden: 0 }]);

	// Ban the comment's writer until a day: a day that has begun is refused in the dialog.
	await group('COMMENT', comment!.id).getByRole('button', { name: 'Ban writer' }).click();
	const banDialog = page.getByRole('dialog', { name: `Ban ${writer}` });
	await expect(banDialog).toBeVisible();
	await expect(banDialog.getByRole('radio', { name: 'Until a date' })).toBeChecked();
	const until = banDialog.getByLabel('Last day of the ban');
	const chosen = await until.inputValue();
	await until.fill('2020.01.01');
	await banDialog.getByRole('button', { name: 'Ban' }).click();
	await expect(banDialog.getByText('Enter a day from tomorrow on, written as 2026.12.05.')).toBeVisible();
	await expect(until).toHaveAttribute('aria-invalid', 'true');
	await until.fill(chosen);
	await banDialog.getByLabel('Reason (kept in the moderation log)').fill('Repeated insults');
	await reviewShot(page, path.join(shots, 'ban-dialog.png'));
	expect(await wcagViolations(page)).toEqual([]);
	await banDialog.getByRole('button', { name: 'Ban' }).click();
	await expect(toast(page)).toHaveText(`${writer} has been banned.`);
	expect(execute(`SELECT kind, reason FROM bans WHERE member_id = ${comment!.member_id} AND lifted_at IS NULL`)).toEqual([
		{ kind: 'TEMPORARY', reason: 'Repeated insults' },
	]);

	// Closed reports: hidden and dismissed, by whom.
	await page.getByRole('link', { name: 'Closed reports' }).click();
	await expect(page).toHaveURL(/tab=history/);
	const admin = nicknameOf(1001);
	await expect(page.locator('.admin-item').filter({ hasText: phishing })).toContainText(`Hidden`);
	await expect(page.locator('.admin-item').filter({ hasText: phishing })).toContainText(`by ${admin}`);
	await expect(page.locator('.admin-item').filter({ hasText: `“${dismissed.title}”` })).toContainText('Dismissed');
	await expect(
		page
			.locator('.admin-item')
			.filter({ hasText: phishing })
			.getByRole('link', { name: `“${hidden.title}”` }),
	).toHaveAttribute('href', `${GLOBAL}/posts/${hidden.id}`);

	// Bans: the member is listed; the history dialog; lifting the ban.
	await page.getByRole('link', { name: 'Bans' }).click();
	const banned = page.locator(`[data-banned-member="${comment!.member_id}"]`);
	await expect(banned).toContainText('Repeated insults');
	await expect(banned).toContainText(`Through ${chosen}`);
	await banned.getByRole('button', { name: 'Ban history' }).click();
	const history = page.getByRole('dialog', { name: `Ban history of ${writer}` });
	await expect(history).toContainText('In force');
	await history.getByRole('button', { name: 'Close' }).click();
	await expect(history).toBeHidden();
	await banned.getByRole('button', { name: 'Lift ban' }).click();
	await page
		.getByRole('dialog', { name: `Lift the ban of ${writer}?` })
		.getByRole('button', { name: 'Lift ban' })
		.click();
	await expect(toast(page)).toHaveText('The ban has been lifted.');
	await expect(banned).toHaveCount(0);

	// Finding a member: an administrator cannot be banned; another member can.
	const find = page.getByLabel('Find a member');
	await find.fill(admin.toUpperCase());
	await page.getByRole('button', { name: 'Find', exact: true }).click();
	await expect(page.locator('.admin-found')).toContainText('Administrators cannot be banned.');
	await find.fill('nobody by this name');
	await page.keyboard.press('Enter');
	await expect(page.getByText('No member of this community has this nickname.')).toBeVisible();
	await find.fill(writer);
	await page.keyboard.press('Enter');
	await expect(page.locator(`[data-found-member="${comment!.member_id}"]`).getByRole('button', { name: 'Ban', exact: true })).toBeVisible();
	await reviewShot(page, path.join(shots, 'bans-desktop.png'), { fullPage: true });
	// The unban's toast has gone (axe would measure its contrast mid-fade).
	await expect(toast(page)).toBeHidden();
	expect(await wcagViolations(page)).toEqual([]);

	// The audit log: every action, who and why; entries are not editable.
	await page.getByRole('link', { name: 'Audit log' }).click();
	// The newest first: the lifted ban is at the top, but for what other tests' administrators did since.
	await expect(page.locator('tbody tr[data-log-action="UNBAN"]').filter({ hasText: writer }).first()).toBeVisible();
	const theirs = await page
		.locator('tbody tr')
		.evaluateAll((rows, name) => rows.filter((row) => row.textContent?.includes(name)).map((row) => row.getAttribute('data-log-action')), writer);
	expect(theirs.indexOf('UNBAN')).toBeLessThan(theirs.indexOf('BAN'));
	const entry = (action: string, text: string) => page.locator(`tr[data-log-action="${action}"]`).filter({ hasText: text }).first();
	// Targets by title and nickname, not by id, each linked.
	await expect(entry('HIDE_POST', `Hid post “${hidden.title}”`)).toContainText('Phishing');
	await expect(entry('HIDE_POST', `Hid post “${hidden.title}”`)).toContainText(admin);
	await expect(entry('HIDE_POST', `Hid post “${hidden.title}”`).getByRole('link', { name: `Hid post “${hidden.title}”` })).toHaveAttribute(
		'href',
		`${GLOBAL}/posts/${hidden.id}`,
	);
	await expect(entry('DISMISS_REPORTS', `“${dismissed.title}”`)).toContainText('Not a spoiler');
	await expect(entry('BAN', `Banned member ${nicknameOf(comment!.member_id)}`)).toContainText('Repeated insults');
	await expect(page.locator('tbody')).not.toContainText(`#${hidden.id}`);
	// Read-only: nothing to type or press but each entry's Show text.
	await expect(page.locator('tbody input, tbody textarea, tbody button:not(.admin-text-toggle)')).toHaveCount(0);
	await reviewShot(page, path.join(shots, 'log-desktop.png'), { fullPage: true });
	expect(await wcagViolations(page)).toEqual([]);

	// On a phone the queue reads without sideways scrolling.
	await page.setViewportSize({ width: 390, height: 844 });
	await page.goto(`${GLOBAL}/admin`);
	expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
	await reviewShot(page, path.join(shots, 'queue-phone.png'), { fullPage: true });
});

test('automatic hide at the community’s number of reports, shown again from the queue; comments hidden from the post page', async ({
	page,
	browser,
	baseURL,
}) => {
	test.setTimeout(120_000);
	const farm = await community(FARM);
	const [target] = execute(
		`SELECT c.id, c.post_id, c.content FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.channel_id = 4 AND c.deleted_at IS NULL AND c.hidden_by_admin = 0
		 AND c.parent_id IS NULL AND p.channel_seq IS NOT NULL AND c.member_id NOT IN (4001, 4013, 4014) AND c.member_id NOT IN (SELECT member_id FROM bans)
		 AND c.id = (SELECT min(id) FROM comments WHERE post_id = c.post_id) AND c.id NOT IN (SELECT target_id FROM reports WHERE target_type = 'COMMENT')
		 ORDER BY c.id DESC LIMIT 1 OFFSET 2`,
	) as { id: number; post_id: number; content: string }[];

	// The administrator sets the threshold: a bad value is refused in place.
	await signInMember(page, farm, 0, `${FARM}/admin?tab=settings`);
	const threshold = page.getByLabel('Hide automatically at this many open reports');
	await threshold.fill('0');
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByText('Enter a whole number from 1 to 1,000, or leave it empty.')).toBeVisible();
	await expect(threshold).toBeFocused();
	await threshold.fill('2');
	// Beside it, how old a membership must be for its reports to count, with the recommended floor.
	const age = page.getByLabel('Count reports from members who joined at least this many hours ago');
	await expect(age).toHaveValue('72');
	await expect(page.getByText('Recommended: at least 72 hours (3 days).', { exact: false })).toBeVisible();
	await age.fill('12');
	await expect(page.locator('[data-below-recommended]')).toHaveText(
		'This is below the recommended 72 hours: accounts made for the purpose can hide posts sooner.',
	);
	await age.fill('-3');
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByText('Enter a whole number of hours from 0 to 8,760.')).toBeVisible();
	await expect(age).toBeFocused();
	await age.fill('72');
	await expect(page.locator('[data-below-recommended]')).toHaveCount(0);
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(toast(page)).toHaveText('The settings have been saved.');
	// The toast fades out after 1.5 s: the check waits until it has gone, since a half-faded toast
	// measures as low contrast (on a busy machine the screenshot took long enough to catch it fading).
	await expect(toast(page)).toBeHidden();
	await reviewShot(page, path.join(shots, 'settings-dark.png'), { fullPage: true });
	expect(await wcagViolations(page)).toEqual([]);

	try {
		// One report is there already; a member's report through the post page is the second.
		report('COMMENT', target!.id, 4, [[4014, 'SPAM', '']]);
		const member = await browser.newPage(baseURL ? { baseURL } : {});
		await signInMember(member, farm, 12, `${FARM}/posts/${target!.post_id}`);
		const mine = member.locator(`#comment-${target!.id}`);
		await expect(member.locator('[data-comments]')).toHaveAttribute('data-comments-loader', 'armed');
		await mine.locator(':scope > .comment-body .comment-menu-button').click();
		await mine.getByRole('menuitem', { name: 'Report' }).click();
		const reportDialog = member.getByRole('dialog', { name: 'Report this comment' });
		await reportDialog.getByRole('radio', { name: 'Spam, advertising or scams' }).check();
		await reportDialog.getByRole('button', { name: 'Report', exact: true }).click();
		await expect(member.locator('[data-toast]')).toHaveText('It has been reported.');
		await member.close();
		expect(execute(`SELECT hidden_by_admin AS hidden FROM comments WHERE id = ${target!.id}`, farm)).toEqual([{ hidden: 1 }]);
		const guest = await browser.newPage(baseURL ? { baseURL } : {});
		await guest.goto(`${FARM}/posts/${target!.post_id}`);
		// Readers are told the members' reports hid it, not the administrator.
		await expect(guest.locator(`#comment-${target!.id}`)).toContainText('This comment has been hidden after reports from members.');
		await expect(guest.getByText(target!.content)).toHaveCount(0);

		// In the queue, hidden: its text opens for a second look, then it is shown again, its reports dismissed, and it leaves the queue.
		await page.getByRole('link', { name: 'Reports', exact: true }).click();
		const group = page.locator(`[data-target="COMMENT-${target!.id}"]`);
		await expect(group).toContainText('Hidden');
		const showText = group.getByRole('button', { name: 'Show text' });
		// The Reports link loads the page again: its controls are disabled until the island has hydrated,
		// and a disabled button takes no focus (a press then went to the page and opened nothing).
		await expect(showText).toBeEnabled();
		await showText.focus();
		await expect(showText).toBeFocused();
		await page.keyboard.press('Enter');
		await expect(group.getByRole('region', { name: 'Text as stored' })).toContainText(target!.content);
		await expect(group.getByRole('button', { name: 'Hide text' })).toHaveAttribute('aria-expanded', 'true');
		expect(await wcagViolations(page, `[data-target="COMMENT-${target!.id}"] .admin-stored`)).toEqual([]);
		await expect(group.getByRole('button', { name: 'Keep hidden' })).toBeVisible();
		await group.getByRole('button', { name: 'Show again' }).click();
		await page
			.getByRole('dialog', { name: 'Show this comment to readers again? Its open reports are dismissed.' })
			.getByRole('button', { name: 'Show again' })
			.click();
		await expect(toast(page)).toHaveText('Shown to readers again.');
		await expect(group).toHaveCount(0);
		// Shown again is an addition: a guest may be answered the page before it once while the edge
		// cache makes it again (functions/shell/edge-cache.ts), then the comment is back.
		await expect(async () => {
			await guest.reload();
			await expect(guest.locator(`#comment-${target!.id}`)).toContainText(target!.content, { timeout: 1000 });
		}).toPass();

		await page.getByRole('link', { name: 'Audit log' }).click();
		// Show text left its row: who read which comment's stored text, and when.
		// Its own rows, found by what they name: other files' tests may log in this community meanwhile.
		const readText = `Read the stored text of comment “${Array.from(target!.content).slice(0, 20).join('')}`;
		const read = page.locator('tr[data-log-action="VIEW_COMMENT_TEXT"]').filter({ hasText: readText });
		await expect(read).toHaveCount(1);
		await expect(read).toContainText(nicknameOf(4001));
		await expect(
			page.locator('tr[data-log-action="AUTO_HIDE_COMMENT"]').filter({ hasText: Array.from(target!.content).slice(0, 20).join('') }),
		).toContainText('Automatic');
		await expect(
			page.locator('tr[data-log-action="SETTINGS"]').filter({ hasText: 'Automatic hide: 2, reports count after 72 hours' }).first(),
		).toContainText(nicknameOf(4001));

		// The post page: the administrator hides the comment from its menu and shows it again.
		await page.goto(`${FARM}/posts/${target!.post_id}`);
		const comment = page.locator(`#comment-${target!.id}`);
		await expect(page.locator('[data-comments]')).toHaveAttribute('data-comments-loader', 'armed');
		await comment.locator(':scope > .comment-body .comment-menu-button').click();
		await comment.getByRole('menuitem', { name: 'Hide' }).click();
		const confirm = page.getByRole('dialog', { name: 'Hide this comment from readers? Its open reports are closed.' });
		await confirm.getByLabel('Reason (kept in the moderation log)').fill('Off-topic');
		await confirm.getByRole('button', { name: 'Hide' }).click();
		await expect(toast(page)).toHaveText('The comment has been hidden.');
		await expect(comment.locator('.moderation-mark')).toBeVisible();
		await guest.reload();
		await expect(guest.locator(`#comment-${target!.id}`)).toContainText('This comment has been hidden by the administrator.');
		await comment.locator(':scope > .comment-body .comment-menu-button').click();
		await comment.getByRole('menuitem', { name: 'Show again' }).click();
		await page
			.getByRole('dialog', { name: 'Show this comment to readers again? Its open reports are dismissed.' })
			.getByRole('button', { name: 'Show again' })
			.click();
		await expect(toast(page)).toHaveText('The comment is shown again.');
		await expect(comment.locator('.moderation-mark')).toHaveCount(0);
		expect(
			execute(`SELECT action, reason FROM moderation_log WHERE target_type = 'COMMENT' AND target_id = ${target!.id} ORDER BY id`, farm),
		).toEqual([
			{ action: 'AUTO_HIDE_COMMENT', reason: '' },
			// Show text in the queue: one row for the one read.
			{ action: 'VIEW_COMMENT_TEXT', reason: '' },
			{ action: 'UNHIDE_COMMENT', reason: '' },
			{ action: 'HIDE_COMMENT', reason: 'Off-topic' },
			{ action: 'UNHIDE_COMMENT', reason: '' },
		]);
		await guest.close();
	} finally {
		execute('UPDATE channels SET auto_hide_reports = NULL, report_min_age_hours = 72 WHERE id = 4');
	}
});

test('the admin area speaks the community’s language', async ({ page }) => {
	const korean = await community('/starfall/kr');
	// A ban by the operator command is in the log already.
	execute(
		`INSERT INTO moderation_log (channel_id, moderator_id, action, target_type, target_id, reason, created_at) VALUES (2, NULL, 'BAN', 'MEMBER', 2038, '도배', 1763700000000)`,
	);
	await signInMember(page, korean, 0, '/starfall/kr/admin?tab=log');
	await expect(page.getByRole('heading', { level: 1, name: '커뮤니티 관리' })).toBeVisible();
	await expect(page.getByRole('link', { name: '관리 기록' })).toHaveAttribute('aria-current', 'page');
	await expect(page.getByRole('columnheader', { name: '사유' })).toBeVisible();
	await expect(
		page
			.locator('tr[data-log-action="BAN"]')
			.filter({ hasText: `회원 ${nicknameOf(2038)} 이용 제한` })
			.first(),
	).toContainText('운영자 명령');
	await reviewShot(page, path.join(shots, 'log-korean.png'), { fullPage: true });
});

/** Audit-log entries of starfall/global by its administrator (1001) and the operator, with names to wrap. */
function logEntries(): void {
	const [post] = execute(`SELECT id FROM posts WHERE channel_id = 1 AND deleted_at IS NULL AND channel_seq IS NOT NULL ORDER BY id DESC LIMIT 1`) as {
		id: number;
	}[];
	execute(
		`INSERT INTO moderation_log (channel_id, moderator_id, action, target_type, target_id, reason, created_at) VALUES
		 (1, 1001, 'BAN', 'MEMBER', 1038, 'Repeated insults after two warnings', 1763700000000),
		 (1, 1001, 'HIDE_POST', 'POST', ${post!.id}, '', 1763700100000),
		 (1, NULL, 'BAN', 'MEMBER', 1039, 'spam', 1763700200000)`,
	);
}

/** The texts of `selector` that the page sets on more than one line: a name or a header broken inside itself. */
function brokenTexts(page: Page, selector: string): Promise<string[]> {
	return page.locator(selector).evaluateAll((elements) =>
		elements
			.filter((element) => {
				const range = document.createRange();
				range.selectNodeContents(element);
				const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
				return lines.size > 1;
			})
			.map((element) => element.textContent ?? ''),
	);
}

test.describe('the admin area on a 390×844 phone', () => {
	test.use({ viewport: PHONE });

	test('the audit log is a list of cards with every name whole; the tab row says it scrolls and shows the active tab', async ({ page }) => {
		const channel = await community(GLOBAL);
		logEntries();
		await signInMember(page, channel, 0, `${GLOBAL}/admin?tab=log`);
		const rows = page.locator('tr[data-log-action]');
		await expect(rows.first()).toBeVisible();
		// No name is broken across lines ("SF / _C / o / m"), the operator's label neither.
		// Each entry's second cell holds its name alone.
		expect(await page.locator('tr[data-log-action] td:nth-child(2)').count()).toBeGreaterThanOrEqual(3);
		expect(await brokenTexts(page, 'tr[data-log-action] td:nth-child(2)')).toEqual([]);
		// Cards: who and when on one line, what was done under them, the card as wide as the list; nothing scrolls sideways.
		const card = await rows.first().boundingBox();
		const list = await page.locator('.admin-table-wrap').boundingBox();
		expect(card!.width).toBeGreaterThan(list!.width - 2);
		const who = await rows.first().locator('.admin-log-who').boundingBox();
		const when = await rows.first().locator('.admin-log-when').boundingBox();
		const what = await rows.first().locator('.admin-log-what').boundingBox();
		expect(Math.abs(who!.y - when!.y)).toBeLessThan(8);
		expect(what!.y).toBeGreaterThanOrEqual(who!.y + who!.height);
		expect(await page.locator('.admin-table-wrap').evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth)).toBe(true);
		// The reason is labelled in the card, as the table's header is gone.
		const reason = page.locator('tr[data-log-action="BAN"]').filter({ hasText: 'spam' }).first().locator('.admin-log-why');
		expect(await reason.evaluate((cell) => getComputedStyle(cell, '::before').content)).toBe('"Reason: "');

		// The tab row: wider than the card, scrolled so that the active tab (Audit log, past the phone's edge) is in view, and the side with more tabs faded under a chevron.
		const frame = page.locator('[data-admin-tabs]');
		const row = frame.locator('.admin-tabs');
		const inView = async (name: string) => {
			const tab = await row.getByRole('link', { name, exact: true }).boundingBox();
			const box = await frame.boundingBox();
			return tab!.x >= box!.x - 1 && tab!.x + tab!.width <= box!.x + box!.width + 1 && tab!.x + tab!.width <= PHONE.width;
		};
		const cue = (side: '::before' | '::after') => frame.evaluate((element, pseudo) => getComputedStyle(element, pseudo).opacity, side);
		expect(await row.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
		await expect(row.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
		expect(await inView('Audit log')).toBe(true);
		await expect(frame).toHaveAttribute('data-more-start', '');
		await expect.poll(() => cue('::before')).toBe('1');
		await reviewShot(page, path.join(shots, 'log-phone.png'), { fullPage: true });

		await row.getByRole('link', { name: 'Settings' }).click();
		await expect(page).toHaveURL(/tab=settings/);
		expect(await inView('Settings')).toBe(true);
		await expect(frame).toHaveAttribute('data-more-start', '');

		// The first tab: more at the end, until the row is scrolled there.
		await page.goto(`${GLOBAL}/admin`);
		expect(await inView('Reports')).toBe(true);
		await expect(frame).toHaveAttribute('data-more-end', '');
		await expect.poll(() => cue('::after')).toBe('1');
		await expect.poll(() => cue('::before')).toBe('0');
		await row.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
		await expect(frame).not.toHaveAttribute('data-more-end');
		await expect(frame).toHaveAttribute('data-more-start', '');
	});
});

test.describe('the admin area on a 1440×900 desktop', () => {
	test.use({ viewport: DESKTOP });

	test('the audit log is a table whose names and headers are never broken inside a word', async ({ page }) => {
		const channel = await community('/starfall/kr');
		execute(
			`INSERT INTO moderation_log (channel_id, moderator_id, action, target_type, target_id, reason, created_at) VALUES
			 (2, 2001, 'BAN', 'MEMBER', 2038, '${'반복적인 욕설과 도배 '.repeat(12)}', 1763700000000), (2, NULL, 'BAN', 'MEMBER', 2039, '도배', 1763700100000)`,
		);
		await signInMember(page, channel, 0, '/starfall/kr/admin?tab=log');
		await expect(page.getByRole('columnheader', { name: '처리자' })).toBeVisible();
		expect(await brokenTexts(page, '.admin-table th')).toEqual([]);
		expect(await brokenTexts(page, '.admin-name')).toEqual([]);
	});
});

test.describe('the ban dialog in a browser set to another time zone and to US dates', () => {
	test.use({ timezoneId: 'America/Los_Angeles', locale: 'en-US' });

	test('the day is written as the app writes dates, and the ban picked for it is listed with that day', async ({ page }) => {
		// Pixel Farm (en: its dates in UTC) and its 39th member, whom no other test signs in as or bans.
		const channel = await community(FARM);
		const memberId = channel.index * 1000 + 39;
		const name = nicknameOf(memberId);
		execute(`DELETE FROM bans WHERE member_id = ${memberId}`);
		await signInMember(page, channel, 0, `${FARM}/admin?tab=bans`);
		await page.getByLabel('Find a member').fill(name);
		await page.getByRole('button', { name: 'Find', exact: true }).click();
		await page.locator(`[data-found-member="${memberId}"]`).getByRole('button', { name: 'Ban', exact: true }).click();
		const dialog = page.getByRole('dialog', { name: `Ban ${name}` });
		const until = dialog.getByLabel('Last day of the ban');
		// yyyy.MM.dd as every date of the app, not the browser's 12/05/2026; a week from today by default.
		await expect(until).toHaveAttribute('type', 'text');
		await expect(until).toHaveValue(/^\d{4}\.\d{2}\.\d{2}$/);
		await expect(dialog.getByRole('button', { name: 'Choose on a calendar' })).toBeVisible();
		await expect(dialog).toContainText('The ban ends when this day ends (UTC).');
		// Not a calendar day: refused beside the field.
		await until.fill('2031.02.30');
		await dialog.getByRole('button', { name: 'Ban' }).click();
		await expect(until).toHaveAttribute('aria-invalid', 'true');
		// Ten days from today in the community's time zone (en: UTC), typed with dashes: written back the app's way.
		const day = new Date(Date.now() + 10 * 86_400_000);
		const [year, month, date] = [day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()];
		const text = `${year}.${String(month + 1).padStart(2, '0')}.${String(date).padStart(2, '0')}`;
		await until.fill(text.replaceAll('.', '-'));
		await until.blur();
		await expect(until).toHaveValue(text);
		await reviewShot(page, path.join(shots, 'ban-dialog-day.png'));
		await dialog.getByRole('button', { name: 'Ban' }).click();
		await expect(toast(page)).toHaveText(`${name} has been banned.`);
		// The ban ends as that day ends in UTC, not in the browser's Los Angeles.
		expect(execute(`SELECT ends_at FROM bans WHERE member_id = ${memberId} AND lifted_at IS NULL`)).toEqual([
			{ ends_at: Date.UTC(year, month, date + 1) },
		]);
		const listed = page.locator(`[data-banned-member="${memberId}"]`);
		await expect(listed).toContainText(`Through ${text}`);
		await listed.getByRole('button', { name: 'Ban history' }).click();
		await expect(page.getByRole('dialog', { name: `Ban history of ${name}` })).toContainText(`Through ${text}`);
		execute(`DELETE FROM bans WHERE member_id = ${memberId}`);
	});
});
