/**
 * Uploaded images in Chromium on the built site: what the upload route stores is served from
 * /uploads/{key} by the Worker with its own headers, and decodes in a page of the site under the
 * page's policy (img-src 'self') at the size the API reported (a JPEG upright by its orientation).
 */
import { expect, test } from './test';
import { signInAsDemoMember } from './sign-in-helpers';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, signInMember } from './write-helpers';
import * as images from '../fixtures/images';

const CHANNEL = '/starfall/global';

const FIXTURES = {
	'JPEG (EXIF orientation 6)': images.jpegWithMetadata(6),
	PNG: images.PNG_WITH_TEXT,
	GIF: images.GIF_WITH_COMMENT,
	'lossy WebP': images.WEBP_LOSSY,
	'lossless WebP': images.WEBP_LOSSLESS,
	'extended WebP': images.WEBP_EXTENDED,
};

test('uploaded images are served by the Worker and decode upright at their reported size', async ({ page, baseURL }) => {
	await signInAsDemoMember(page, CHANNEL, `${CHANNEL}/boards`);
	for (const [name, bytes] of Object.entries(FIXTURES)) {
		const answer = await page.request.post(`/v1${CHANNEL}/uploads`, {
			headers: { origin: baseURL ?? '', 'content-type': 'application/octet-stream' },
			data: Buffer.from(bytes),
		});
		expect(answer.status(), name).toBe(200);
		const { content } = (await answer.json()) as { content: { src: string; width: number; height: number } };

		const served = await page.request.get(content.src);
		expect(served.status(), name).toBe(200);
		expect(served.headers()).toMatchObject({
			'x-content-type-options': 'nosniff',
			'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
			'content-disposition': 'inline',
			// In its first day the cleanup may still remove it: only the browser keeps it, for an hour.
			'cache-control': 'private, max-age=3600',
		});
		expect(served.headers()['content-type'], name).toMatch(/^image\/(jpeg|png|gif|webp)$/);
		expect(images.containsBytes(new Uint8Array(await served.body()), images.SECRETS.comment), name).toBe(false);

		const size = await page.evaluate(async (src) => {
			const image = new Image();
			image.src = src;
			await image.decode();
			return { width: image.naturalWidth, height: image.naturalHeight };
		}, content.src);
		expect(size, name).toEqual({ width: content.width, height: content.height });
	}
	expect((await page.request.get('/uploads/AAAAAAAAAAAAAAAAAAAAAA.png')).status()).toBe(404);
});

test("the editor says why the server refused an upload, in the community's language: too many pixels, unshown uploads, the day's quota", async ({
	page,
}) => {
	// starfall/tw (Traditional Chinese): a member no other browser test uploads as, so the rows planted here meet no one.
	const tw = await community('/starfall/tw');
	const memberId = memberIdOf(tw, 30);
	await signInMember(page, tw, 30, `/starfall/tw/write?boardId=${boardOf(tw, 'general')}`);
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	const input = page.locator('input[data-editor-file-input]');
	const message = page.locator('.editor-message[role="alert"]');
	const body = page.locator('.editor-content');

	// A 10,000 × 10,000 PNG: a few hundred bytes of header, 400 MB in a reader's browser.
	await input.setInputFiles({ name: 'bomb.png', mimeType: 'image/png', buffer: Buffer.from(images.withSize('png', 10_000, 10_000)) });
	await expect(message).toContainText('請上傳不超過 40 百萬像素、每邊不超過 10,000 像素的圖片。');

	// 60 uploads of the last hour that no post or draft shows.
	const now = Date.now();
	const plant = (count: number, from: number, postId: string) =>
		execute(
			`WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${from + count - 1})
			 INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, created_at, post_id)
			 SELECT ${tw.index}, ${memberId}, printf('e2equota%014d.png', i), 'image/png', 1, ${now} - 3600000 + i * 1000, ${postId} FROM n`,
			tw.index,
		);
	plant(60, 1, 'NULL');
	await input.setInputFiles({ name: 'one-more.png', mimeType: 'image/png', buffer: Buffer.from(images.PNG) });
	await expect(message).toContainText('您有 60 張已上傳的圖片尚未用於文章或草稿。請先發表文章或儲存草稿，再繼續上傳。');

	// Shown by a post, they count toward the day's 100 only; 40 more reach it.
	execute(
		`UPDATE uploads SET post_id = (SELECT id FROM posts WHERE channel_id = ${tw.index} ORDER BY id LIMIT 1) WHERE member_id = ${memberId}`,
		tw.index,
	);
	plant(40, 61, `(SELECT id FROM posts WHERE channel_id = ${tw.index} ORDER BY id LIMIT 1)`);
	await input.setInputFiles({ name: 'tomorrow.png', mimeType: 'image/png', buffer: Buffer.from(images.PNG) });
	await expect(message).toContainText('每天最多可上傳 100 張圖片或 200 MB。請稍後再試。');
	await expect(body.locator('img')).toHaveCount(0);
	expect(execute(`SELECT count(*) AS n FROM uploads WHERE member_id = ${memberId}`, tw.index)).toEqual([{ n: 100 }]);
	execute(`DELETE FROM uploads WHERE member_id = ${memberId}`, tw.index);
});

test("a post of more images than the limit is refused under the body in the community's language, and nothing is written", async ({
	page,
	baseURL,
}) => {
	const tw = await community('/starfall/tw');
	const memberId = memberIdOf(tw, 31);
	const write = `/starfall/tw/write?boardId=${boardOf(tw, 'general')}`;
	await signInMember(page, tw, 31, '/starfall/tw/boards');
	const uploaded = await page.request.post('/v1/starfall/tw/uploads', {
		headers: { origin: baseURL ?? '', 'content-type': 'application/octet-stream' },
		data: Buffer.from(images.PNG),
	});
	const { src } = ((await uploaded.json()) as { content: { src: string } }).content;
	// The same image 51 times: one upload, 51 image blocks. The work comes back as the form keeps it
	// across a forced login (a local copy it restores by itself).
	const content = { type: 'doc', blocks: Array.from({ length: 51 }, () => ({ type: 'image', src, alt: 'again', width: 300, height: 20 })) };
	const copy = {
		fields: { boardId: boardOf(tw, 'general'), subjectId: null, title: '五十一張截圖', content, isPrivate: false, isNotice: false },
		draftId: null,
		savedAt: Date.now(),
		resume: true,
	};
	await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
		`app:starfall-tw-${memberId}-editor:write`,
		JSON.stringify(copy),
	] as const);
	await page.goto(write);
	const image = page.locator('.editor-content[contenteditable="true"] img[src^="/uploads/"]');
	await expect(image).toHaveCount(51);
	const posts = () => execute(`SELECT count(*) AS n FROM posts WHERE member_id = ${memberId}`);
	const before = posts();
	await page.getByRole('button', { name: '發表', exact: true }).click();
	await expect(page.getByText('一篇文章最多可放 50 張圖片。請刪除一些後再儲存。')).toBeVisible();
	await expect(page).toHaveURL(new RegExp(`${write.replace('?', '\\?')}$`));
	expect(posts()).toEqual(before);
});
