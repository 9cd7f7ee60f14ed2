/**
 * An administrator hides a post from its page and shows it again (issue 12): the confirm dialog
 * with a reason, the readers' view of each effect, and the audit log's entry.
 */
import { expect, test } from './test';
import { execute } from './fixtures';
import { community, signInMember } from './write-helpers';

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
	await dialog.getByRole('button', { name: 'Confirm' }).press('Enter');
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
	await page.getByRole('dialog', { name: 'Show this post to readers again?' }).getByRole('button', { name: 'Confirm' }).click();
	await expect(page.locator('.restricted-notice')).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Hide' })).toBeVisible();

	const log = execute(`SELECT action, reason FROM moderation_log WHERE target_type = 'POST' AND target_id = ${post!.id} ORDER BY id`) as { action: string; reason: string }[];
	expect(log).toEqual([
		{ action: 'HIDE_POST', reason: 'Spoilers in the title' },
		{ action: 'UNHIDE_POST', reason: '' },
	]);
	await guest.close();
});

test('a member sees no moderation control', async ({ page }) => {
	const channel = await community(GLOBAL);
	const [post] = execute(`SELECT id FROM posts WHERE channel_id = 1 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL ORDER BY id DESC LIMIT 1`) as { id: number }[];
	await signInMember(page, channel, 5, `${GLOBAL}/posts/${post!.id}`);
	await expect(page.locator('[data-moderate-post]')).toHaveCount(0);
});
