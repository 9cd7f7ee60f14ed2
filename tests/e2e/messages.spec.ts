/**
 * Messages that say what happened, in English and Korean: the toast after
 * publishing and after a nickname change, the alert of a post that could not be published, and the
 * offline state, which keeps the post or comment on this device and sends it when the connection
 * returns. The toast's 1.5 s run on Playwright's clock. Members 30 to 33 of pixelfarm/main and
 * starfall/kr are this file's own (33 is renamed).
 */
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { texts } from './texts';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, signInMember, writeForm, type Community } from './write-helpers';
import { signInContext } from './sessions';

const CASES = [
	['/pixelfarm/main', 'en'],
	['/starfall/kr', 'ko'],
] as const;

function mark(label: string): string {
	return `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

const toast = (page: Page) => page.locator('[data-toast]');

/** Signs in as `member` and opens the write screen of the general board with a title and a line of text. */
async function writePost(
	page: Page,
	channel: Community,
	member: number,
	t: (key: string) => string,
): Promise<{ title: string; submit: () => Promise<void> }> {
	const general = boardOf(channel, 'general');
	await signInMember(page, channel, member, `${channel.path}/write?boardId=${general}`);
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	const form = writeForm(page, {
		board: t('write.field.board'),
		category: t('write.field.category'),
		title: t('write.field.title'),
		body: t('write.field.body'),
	});
	const title = mark('Messages');
	await form.title.fill(title);
	await form.body.click();
	await page.keyboard.type('Written on a train.');
	return { title, submit: () => page.getByRole('button', { name: t('write.button.submit'), exact: true }).click() };
}

/** A recent post of the general board (the `offset`-th newest), opened by member `memberIndex` with the comments loader armed. */
async function openPost(page: Page, channel: Community, memberIndex: number, offset: number) {
	const [post] = execute(
		`SELECT id FROM posts WHERE channel_id = ${channel.index} AND board_id = ${boardOf(channel, 'general')} AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 ORDER BY id DESC LIMIT 1 OFFSET ${offset}`,
	) as { id: number }[];
	await signInMember(page, channel, memberIndex, `${channel.path}/posts/${post?.id}`);
	const section = page.locator('[data-comments]');
	await expect(section).toHaveAttribute('data-comments-loader', 'armed');
	return { post, section };
}

/** Goes offline and posts the comment box's text: answers the offline alert, which says the comment is kept. */
async function postOffline(page: Page, context: BrowserContext, section: Locator, t: ReturnType<typeof texts>) {
	await context.setOffline(true);
	await section
		.locator('[data-comment-form="new"]')
		.getByRole('button', { name: t('comment.button.post'), exact: true })
		.click();
	const alert = page.getByRole('dialog', { name: t('common.message.offlineTitle') });
	await expect(alert).toContainText(t('common.message.offline'));
	return alert;
}

for (const [channelPath, language] of CASES) {
	test.describe(`${channelPath} (${language})`, () => {
		test('a published post opens with a toast that says so, once, with nothing added to its address', async ({ page }) => {
			const channel = await community(channelPath);
			const t = texts(language);
			await page.clock.install();
			const { title, submit } = await writePost(page, channel, 30, t);
			await submit();
			await page.waitForURL(/\/posts\/\d+$/);
			await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
			await expect(toast(page)).toHaveText(t('write.message.published'));
			await expect(toast(page)).toHaveAttribute('role', 'status');
			// docs/reference/product-rules.md#global-ui: shown 1.5 s, then it fades out.
			await page.clock.runFor(1800);
			await expect(toast(page)).toBeHidden();
			// One-shot: the toast's message lived in sessionStorage, not in the (edge-cached) page or its URL.
			expect(new URL(page.url()).search).toBe('');
			await page.reload();
			await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
			await expect(toast(page)).toBeHidden();
		});

		test('a post the server could not take says what failed and that the text is still there', async ({ page }) => {
			const channel = await community(channelPath);
			const t = texts(language);
			const { title, submit } = await writePost(page, channel, 31, t);
			await page.route(`**/v1/${channel.domain}/${channel.slug}/posts`, (route) =>
				route.request().method() === 'POST'
					? route.fulfill({
							status: 500,
							contentType: 'application/json',
							body: JSON.stringify({ header: { isSuccessful: false, resultCode: -5001500, resultMessage: 'internal' } }),
						})
					: route.continue(),
			);
			await submit();
			const alert = page.getByRole('dialog', { name: t('write.failed.writeTitle') });
			await expect(alert).toContainText(t('write.message.writeFailed'));
			// The English sentence of docs/reference/product-rules.md#errors-and-texts stays word for word, under a title that says what failed; Korean no longer
			// says 등록에 실패 (the wording the issue named), and each language says the text is still there.
			if (language === 'en') await expect(alert).toContainText('Registration failed. Please try again.');
			await expect(alert).not.toContainText('등록에 실패');
			await expect(alert).toContainText(language === 'en' ? 'What you wrote is still here.' : '작성한 내용은 그대로 남아 있으니');
			await alert.getByRole('button', { name: t('common.button.confirm') }).click();
			await expect(alert).toBeHidden();
			await expect(writeForm(page).title).toHaveValue(title);
			await expect(page).toHaveURL(/\/write\?/);
		});

		test('offline, a post is kept on this device and published when the connection returns', async ({ page, context }) => {
			const channel = await community(channelPath);
			const t = texts(language);
			const { title, submit } = await writePost(page, channel, 32, t);
			await context.setOffline(true);
			await submit();
			const alert = page.getByRole('dialog', { name: t('common.message.offlineTitle') });
			await expect(alert).toContainText(t('common.message.offline'));
			// What the alert promises: the work is in this device's storage now…
			const kept = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith('-editor:write'))?.[1] ?? '');
			expect(kept).toContain(title);
			await alert.getByRole('button', { name: t('common.button.confirm') }).click();
			expect(execute(`SELECT id FROM posts WHERE title = '${title}'`, channel)).toHaveLength(0);
			// …and it is sent once the connection returns, without another press.
			await context.setOffline(false);
			await page.waitForURL(/\/posts\/\d+$/);
			await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
			await expect(toast(page)).toHaveText(t('write.message.published'));
			expect(execute(`SELECT id FROM posts WHERE title = '${title}'`, channel)).toHaveLength(1);
			expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.endsWith('-editor:write')))).toEqual([]);
		});

		test('offline, a draft is kept on this device and saved when the connection returns', async ({ page, context }) => {
			const channel = await community(channelPath);
			const t = texts(language);
			await page.clock.install();
			const { title } = await writePost(page, channel, 31, t);
			await context.setOffline(true);
			await page.getByRole('button', { name: t('write.button.saveDraft'), exact: true }).click();
			const alert = page.getByRole('dialog', { name: t('common.message.offlineTitle') });
			await expect(alert).toContainText(t('common.message.offline'));
			await alert.getByRole('button', { name: t('common.button.confirm') }).click();
			await context.setOffline(false);
			await expect(toast(page)).toHaveText(t('write.message.draftSaved'));
			expect(execute(`SELECT id FROM drafts WHERE title = '${title}'`, channel)).toHaveLength(1);
		});

		test('offline, a comment is kept on this device and posted when the connection returns', async ({ page, context }) => {
			const channel = await community(channelPath);
			const t = texts(language);
			const { post, section } = await openPost(page, channel, 32, 0);
			const text = mark('Offline comment');
			const box = page.locator('#comment-box-new');
			await box.click();
			await box.fill(text);
			// The comments island loads on this first touch: offline before it has, there is no island to
			// keep the comment. Its counter, which the page's own markup leaves at 0, says it has taken over.
			await expect(section).toHaveAttribute('data-mounted', '');
			await expect(section).toContainText(`${text.length} / 1,000`);
			const alert = await postOffline(page, context, section, t);
			const key = `app:${channel.domain}-${channel.slug}-${memberIdOf(channel, 32)}-comment:${post?.id}`;
			expect(await page.evaluate((name) => localStorage.getItem(name) ?? '', key)).toContain(text);
			await alert.getByRole('button', { name: t('common.button.confirm') }).click();
			await context.setOffline(false);
			await expect(section.locator('li.comment .comment-text', { hasText: text })).toBeVisible();
			await expect(toast(page)).toHaveText(t('comment.message.posted'));
			expect(await page.evaluate((name) => localStorage.getItem(name), key)).toBeNull();
			expect(execute(`SELECT id FROM comments WHERE content = '${text}'`, channel)).toHaveLength(1);
		});

		test('offline, the alert of a comment kept goes by itself once the comment is sent on reconnecting', async ({ page, context }) => {
			const channel = await community(channelPath);
			const t = texts(language);
			const { section } = await openPost(page, channel, 31, 1);
			const text = mark('Sent on reconnect');
			const box = page.locator('#comment-box-new');
			await box.click();
			await expect(section).toHaveAttribute('data-mounted', '');
			await box.fill(text);
			const alert = await postOffline(page, context, section, t);
			// The reader leaves the alert open; the connection returns.
			await context.setOffline(false);
			await expect(toast(page)).toHaveText(t('comment.message.posted'));
			await expect(alert).toBeHidden();
			await expect(section.locator('li.comment .comment-text', { hasText: text })).toBeVisible();
			// The page is usable again: no modal holds it.
			expect(await page.evaluate(() => document.querySelectorAll('dialog[open]').length)).toBe(0);
			expect(execute(`SELECT id FROM comments WHERE content = '${text}'`, channel)).toHaveLength(1);
		});

		test('a changed nickname is confirmed by a toast, and the layout shows it without a reload', async ({ page }) => {
			const channel = await community(channelPath);
			const t = texts(language);
			// A minted session, then the clock, then straight to the page looked at.
			await signInContext(page.context(), channel, memberIdOf(channel, 33));
			await page.clock.install();
			await page.goto(`${channelPath}/mypage/nickname`);
			// Korean: a name ending in a final consonant takes 으로 (곰으로); the English text has no particle.
			const digits = String(Date.now() % 1e6).padStart(6, '0');
			const renamed = language === 'ko' ? `${[...digits].map((digit) => '가나다라마바사아자차'[Number(digit)]).join('')}곰` : `Pilot${digits}`;
			const field = page.getByLabel(t('nickname.label'), { exact: true });
			// A Hangul filler (U+3164) shows as a blank: refused in the community's language (docs/reference/nicknames.md).
			await field.fill(`${renamed}\u3164`);
			await page.getByRole('button', { name: t('nickname.submit') }).click();
			await expect(page.getByText(t('nickname.message.unusable'))).toBeVisible();
			await field.fill(renamed);
			await page.getByRole('button', { name: t('nickname.submit') }).click();
			await expect(page.locator('[data-member-nickname]')).toHaveText(renamed);
			const expected = language === 'ko' ? `닉네임이 ${renamed}으로 변경되었습니다.` : `Your nickname is now ${renamed}.`;
			await expect(toast(page)).toHaveText(expected);
			await expect(toast(page)).toHaveAttribute('role', 'status');
			await page.clock.runFor(1800);
			await expect(toast(page)).toBeHidden();
		});
	});
}
