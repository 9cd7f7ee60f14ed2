/**
 * "Download my data" on My Page's settings: the button, by keyboard, downloads one JSON
 * file that parses and holds the member's own profile, posts and comments; a second try within 20
 * minutes says so in words. Following a link to the export's address (as another site could make
 * the member do) downloads nothing and spends nothing: only the button's POST does. On a phone, in
 * the dark Pixel Farm theme, the section fits the screen.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './test';
import { execute } from './fixtures';
import { community, memberIdOf, signInMember } from './write-helpers';
import { reviewShot } from './review-shot';

interface Exported {
	profile: { userId: number; nickname: string };
	posts: { postId: number }[];
	comments: { commentId: number }[];
	likes: unknown[];
	reports: unknown[];
	drafts: unknown[];
}

/** Presses the button, saves the download and parses it. */
async function downloadExport(page: import('@playwright/test').Page, name: string): Promise<{ fileName: string; file: Exported }> {
	const button = page.getByRole('button', { name });
	await button.focus();
	const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
	const saved = await download.path();
	return { fileName: download.suggestedFilename(), file: JSON.parse(await readFile(saved, 'utf8')) as Exported };
}

test("the button downloads the member's data as a JSON file that parses; again at once is refused in words", async ({ page }) => {
	await page.setViewportSize({ width: 1440, height: 900 });
	const channel = await community('/starfall/global');
	const memberId = memberIdOf(channel, 23);
	execute(`UPDATE members SET last_export_at = NULL WHERE id = ${memberId}`);
	const [counts] = execute(
		`SELECT (SELECT count(*) FROM posts WHERE member_id = ${memberId}) AS posts, (SELECT count(*) FROM comments WHERE member_id = ${memberId}) AS comments`,
	) as { posts: number; comments: number }[];
	// A link to the export's address, followed with the member's cookie: refused in the envelope, the slot unspent.
	await signInMember(page, channel, 23, '/v1/starfall/global/me/export');
	expect(JSON.parse((await page.locator('body').textContent()) ?? '')).toMatchObject({ header: { isSuccessful: false, resultCode: -4051401 } });
	expect(execute(`SELECT last_export_at FROM members WHERE id = ${memberId}`)).toEqual([{ last_export_at: null }]);
	await page.goto('/starfall/global/mypage/settings');
	await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();
	const button = page.getByRole('button', { name: 'Download my data' });
	const box = (await button.boundingBox())!;
	expect(box.height).toBeGreaterThanOrEqual(24);
	await expect(button).toBeEnabled();

	const { fileName, file } = await downloadExport(page, 'Download my data');
	expect(fileName).toMatch(new RegExp(`^starfall-global-member-${memberId}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
	expect(file.profile).toMatchObject({ userId: memberId, nickname: channel.nicknames[23] });
	expect([file.posts.length, file.comments.length]).toEqual([counts!.posts, counts!.comments]);
	expect(Array.isArray(file.likes) && Array.isArray(file.reports) && Array.isArray(file.drafts)).toBe(true);

	await button.click();
	await expect(page.getByRole('alert')).toHaveText('You can download your data once every 20 minutes. Please try again later.');
});

test('on a phone in the dark theme the section fits and downloads', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 });
	const channel = await community('/pixelfarm/main');
	const memberId = memberIdOf(channel, 24);
	execute(`UPDATE members SET last_export_at = NULL WHERE id = ${memberId}`);
	await signInMember(page, channel, 24, '/pixelfarm/main/mypage/settings');
	const button = page.getByRole('button', { name: 'Download my data' });
	await expect(button).toBeEnabled();
	const box = (await button.boundingBox())!;
	expect(box.x + box.width).toBeLessThanOrEqual(390);
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
	await reviewShot(page, 'test-results/my-page-export-phone-dark.png', { fullPage: true });
	const { file } = await downloadExport(page, 'Download my data');
	expect(file.profile.userId).toBe(memberId);
});
