/**
 * Writing in every demo language: a post with formatting, an uploaded image and a YouTube video,
 * found in its board, All Posts and on the post page; and a screenshot of the editor in each
 * language (test-results/editor-{language}.png), which a person looks at.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { boardOf, community, signInMember, writeForm } from './write-helpers';
import { PNG } from '../fixtures/images';
import { reviewShot } from './review-shot';

/** The community language's text for `key`, as the page shows it. */
function texts(language: string): (key: string) => string {
	const all = JSON.parse(readFileSync(path.join(process.cwd(), 'src', 'i18n', `${language}.json`), 'utf8')) as Record<string, string>;
	return (key) => {
		const text = all[key];
		if (text === undefined) throw new Error(`No text ${key} in ${language}`);
		return text;
	};
}

for (const [channelPath, title, sentence] of [
	['/starfall/global', 'Skyship tips', 'Fly low over the reef.'],
	['/starfall/kr', '비공정 팁', '암초 위로 낮게 날아요.'],
	['/starfall/jp', '飛空艇のコツ', '岩礁の上を低く飛びましょう。'],
	['/starfall/tw', '飛空艇小技巧', '在礁石上方低空飛行。'],
] as const) {
	test(`a member of ${channelPath} writes a post with formatting, an image and a video`, async ({ page }) => {
		const channel = await community(channelPath);
		const t = texts(channel.language);
		const general = boardOf(channel, 'general');
		await signInMember(page, channel, 24, `${channelPath}/write?boardId=${general}`);
		const form = writeForm(page, {
			board: t('write.field.board'),
			category: t('write.field.category'),
			title: t('write.field.title'),
			body: t('write.field.body'),
		});
		const unique = `${title} ${Date.now().toString(36)}`;
		await form.title.fill(unique);
		await form.body.click();
		await page.keyboard.type(`${sentence} `);
		await page.getByRole('button', { name: t('editor.bold'), exact: true }).click();
		await page.keyboard.type('Bold words');
		await page.getByRole('button', { name: t('editor.bold'), exact: true }).click();
		await page.keyboard.press('Enter');
		await page.locator('[data-editor-file-input]').setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: Buffer.from(PNG) });
		await expect(form.body.locator('img[src^="/uploads/"]')).toBeVisible();
		await page.getByRole('button', { name: t('editor.youtube'), exact: true }).click();
		const prompt = page.locator('[data-editor-dialog="youtube"]');
		await expect(prompt.getByLabel(t('editor.youtube.label'))).toBeFocused();
		await page.keyboard.type('https://youtu.be/dQw4w9WgXcQ?t=42');
		await page.keyboard.press('Enter');
		await expect(prompt).toBeHidden();
		await expect(form.body.locator('[data-video-id]')).toHaveText('dQw4w9WgXcQ');
		await page.evaluate(() => window.scrollTo(0, 0));
		await reviewShot(page, path.join('test-results', `editor-${channel.language}.png`), { fullPage: true });

		await page.getByRole('button', { name: t('write.button.submit'), exact: true }).click();
		await page.waitForURL(/\/posts\/\d+$/);
		const postId = Number(/\/posts\/(\d+)$/.exec(page.url())?.[1]);
		const body = page.locator('.post-body');
		await expect(body).toContainText(sentence);
		await expect(body.locator('strong')).toHaveText('Bold words');
		await expect(body.locator('img[src^="/uploads/"]')).toBeVisible();
		await expect(body.locator('[data-youtube-id="dQw4w9WgXcQ"]')).toBeVisible();
		for (const list of [`${channelPath}/boards/${general}`, `${channelPath}/boards`]) {
			await page.goto(list);
			await expect(page.getByRole('link', { name: unique })).toHaveAttribute('href', `${channelPath}/posts/${postId}`);
		}
	});
}
