/**
 * Saved posts on a phone (390×844), in English and Korean: Save on the post page (aria-pressed, its
 * words, kept on the next visit), the post under My Page → Saved with its title and link, a saved
 * post deleted since shown as such with no link, and Remove taking each off the list without a
 * reload until the empty state shows. Each test signs in as a member made for it.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { wcagViolations } from './axe';
import { texts } from './texts';
import { community, freshMember, freshPost } from './write-helpers';
import { signInContext } from './sessions';
import { reviewShot } from './review-shot';

// Each test makes its rows through wrangler's local D1 (a process per statement), which takes
// seconds on a busy machine: an upper bound, not a timing.
test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 390, height: 844 } });

const savedRows = (memberId: number) =>
	(execute(`SELECT post_id AS postId FROM saved_posts WHERE member_id = ${memberId} ORDER BY saved_at DESC`) as { postId: number }[]).map(
		(row) => row.postId,
	);

/** Expects no horizontal overflow on the page. */
async function fitsTheWidth(page: Page): Promise<void> {
	expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

for (const [path, language] of [
	['/starfall/global', 'en'],
	['/starfall/kr', 'ko'],
] as const) {
	test(`${language}: save from the post page, find it under My Page → Saved, a deleted one shown as such; remove both without a reload`, async ({
		page,
	}, testInfo) => {
		const t = texts(language);
		const channel = await community(path);
		const member = freshMember('Saver', channel.index);
		const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
		const title = `Harbour lanterns ${suffix}`;
		const postId = freshPost(channel, title);
		// A post the member saved earlier, deleted by its author since.
		const gone = freshPost(channel, `Gone lanterns ${suffix}`);
		execute(
			`INSERT INTO saved_posts (member_id, post_id, channel_id, saved_at) VALUES (${member.id}, ${gone}, ${channel.index}, ${Date.now() - 60_000})`,
		);
		execute(`UPDATE posts SET deleted_at = ${Date.now()} WHERE id = ${gone}`);
		await signInContext(page.context(), channel, member.id);

		await page.goto(`${path}/posts/${postId}`);
		const saveButton = page.locator('[data-post-action-bar]').getByRole('button', { name: t('saved.save'), exact: true });
		await expect(saveButton).toHaveAttribute('aria-pressed', 'false');
		await saveButton.click();
		const savedButton = page.locator('[data-post-action="save"]');
		await expect(savedButton).toHaveAttribute('aria-pressed', 'true');
		await expect(savedButton).toHaveText(t('saved.on'));
		await expect(page.locator('[data-toast]')).toHaveText(t('saved.toast.on'));
		await expect.poll(() => savedRows(member.id)).toEqual([postId, gone]);
		const box = await savedButton.boundingBox();
		expect(box!.height).toBeGreaterThanOrEqual(40);
		await fitsTheWidth(page);
		await reviewShot(page.locator('[data-post-action-bar]'), testInfo.outputPath(`post-actions-${language}.png`));

		// The next visit shows it saved, read with the page.
		await page.reload();
		await expect(savedButton).toHaveAttribute('aria-pressed', 'true');
		await expect(savedButton).toHaveText(t('saved.on'));

		await page.goto(`${path}/mypage`);
		await page.getByRole('link', { name: t('saved.tab'), exact: true }).click();
		await expect(page).toHaveURL(/\/mypage\?tab=saved$/);
		const items = page.locator('[data-saved-item]');
		await expect(items).toHaveCount(2);
		await expect(items.nth(0)).toContainText(title);
		await expect(items.nth(0).getByRole('link')).toHaveAttribute('href', `${path}/posts/${postId}`);
		await expect(items.nth(1)).toContainText(t('post.state.deleted'));
		await expect(items.nth(1)).not.toContainText('Gone lanterns');
		await expect(items.nth(1).getByRole('link')).toHaveCount(0);
		await fitsTheWidth(page);
		expect(await wcagViolations(page, '[data-saved-list]')).toEqual([]);
		await reviewShot(page, testInfo.outputPath(`saved-tab-${language}.png`), { fullPage: true });

		// Remove the deleted one, then the other: each goes at once, and the empty state comes with the last.
		const marker = await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
		const remove = (index: number) => items.nth(index).getByRole('button', { name: t('saved.removeLabel') });
		await remove(1).click();
		await expect(items).toHaveCount(1);
		await expect(page.locator('[data-saved-status]')).toHaveText(t('saved.removed'));
		await expect.poll(() => savedRows(member.id)).toEqual([postId]);
		await remove(0).click();
		await expect(items).toHaveCount(0);
		await expect(page.getByText(t('saved.empty'))).toBeVisible();
		await expect.poll(() => savedRows(member.id)).toEqual([]);
		expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(marker);
		await reviewShot(page, testInfo.outputPath(`saved-empty-${language}.png`), { fullPage: true });

		// The post page follows: Save again.
		await page.goto(`${path}/posts/${postId}`);
		await expect(savedButton).toHaveAttribute('aria-pressed', 'false');
		await expect(savedButton).toHaveText(t('saved.save'));
	});
}
