/**
 * Media boards show thumbnails (docs/reference/thumbnails.md). A member uploads a photo on
 * the fan-art board: the editor makes a small WebP of it in the browser and sends it after the
 * original, and the board's list shows that picture, a few KB, in place of the ▣ mark; an upload
 * whose thumbnail never arrived keeps the mark. Video posts show their YouTube poster in the list and
 * in the post's facade (YouTube's image host is answered by a local stand-in serving a JPEG, as it
 * serves posters: a GET of /vi/{id}/{size}default.jpg). Screenshots of the media boards at both sizes,
 * Pixel Farm's in its dark theme: test-results/thumbnails-*.png.
 */
import path from 'node:path';
import { expect, test } from './test';
import { boardOf, community, signInMember, writeForm } from './write-helpers';
import { JPEG } from '../fixtures/images';
import { reviewShot } from './review-shot';

const THUMBNAIL_MAX_BYTES = 64 * 1024;

/**
 * YouTube's image host, answered here by a stand-in: a poster path (/vi/{id}/{mq|hq}default.jpg)
 * gets a JPEG of the poster's size (320 × 180 or 480 × 360), coloured by the id, anything else 404.
 * The posters are drawn in the page before it leaves about:blank. Answers the paths asked.
 */
async function standInPosters(page: import('@playwright/test').Page): Promise<string[]> {
	const drawn = await page.evaluate(async () => {
		const draw = async (hue: number, width: number, height: number) => {
			const canvas = document.createElement('canvas');
			canvas.width = width;
			canvas.height = height;
			const context = canvas.getContext('2d')!;
			const fill = context.createLinearGradient(0, 0, width, height);
			fill.addColorStop(0, `hsl(${hue} 60% 25%)`);
			fill.addColorStop(1, `hsl(${(hue + 60) % 360} 70% 55%)`);
			context.fillStyle = fill;
			context.fillRect(0, 0, width, height);
			context.fillStyle = 'rgb(255 255 255 / 0.85)';
			context.beginPath();
			context.moveTo(width / 2 - 18, height / 2 - 22);
			context.lineTo(width / 2 + 24, height / 2);
			context.lineTo(width / 2 - 18, height / 2 + 22);
			context.fill();
			const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made!), 'image/jpeg', 0.8));
			return [...new Uint8Array(await blob.arrayBuffer())];
		};
		const hues = [0, 45, 120, 190, 240, 290];
		return { mq: await Promise.all(hues.map((hue) => draw(hue, 320, 180))), hq: await Promise.all(hues.map((hue) => draw(hue, 480, 360))) };
	});
	const posters = { mq: drawn.mq.map((bytes) => Buffer.from(bytes)), hq: drawn.hq.map((bytes) => Buffer.from(bytes)) };
	const asked: string[] = [];
	await page.route('https://i.ytimg.com/**', (route) => {
		const { pathname } = new URL(route.request().url());
		asked.push(pathname);
		const match = /^\/vi\/([A-Za-z0-9_-]{11})\/(mq|hq)default\.jpg$/.exec(pathname);
		if (!match) return route.fulfill({ status: 404 });
		const set = posters[match[2] as 'mq' | 'hq'];
		const index = [...match[1]!].reduce((sum, char) => sum + char.charCodeAt(0), 0) % set.length;
		return route.fulfill({ contentType: 'image/jpeg', body: set[index]! });
	});
	return asked;
}

/** A 2400 × 1600 photo-like PNG (gradients and shapes), drawn in the page: a few hundred KB, as a screenshot is. */
async function photo(page: import('@playwright/test').Page): Promise<Buffer> {
	const bytes = await page.evaluate(async () => {
		const canvas = document.createElement('canvas');
		canvas.width = 2400;
		canvas.height = 1600;
		const context = canvas.getContext('2d')!;
		const sky = context.createLinearGradient(0, 0, 0, 1600);
		sky.addColorStop(0, '#1b2a6b');
		sky.addColorStop(1, '#f39c4a');
		context.fillStyle = sky;
		context.fillRect(0, 0, 2400, 1600);
		for (let i = 0; i < 60; i++) {
			context.fillStyle = `hsl(${(i * 37) % 360} 70% ${30 + (i % 5) * 10}%)`;
			context.beginPath();
			context.arc((i * 397) % 2400, (i * 251) % 1600, 40 + ((i * 13) % 120), 0, Math.PI * 2);
			context.fill();
		}
		context.fillStyle = '#fff';
		context.font = 'bold 160px sans-serif';
		context.fillText('STARFALL', 300, 900);
		const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made!), 'image/png'));
		return [...new Uint8Array(await blob.arrayBuffer())];
	});
	return Buffer.from(bytes);
}

test('an uploaded image becomes a small thumbnail in the media board list, and one without keeps the ▣ mark', async ({ page }) => {
	const channel = await community('/starfall/global');
	const board = boardOf(channel, 'fanart');
	await signInMember(page, channel, 14, `/starfall/global/write?boardId=${board}`);
	const form = writeForm(page);
	await form.body.click();
	await page.keyboard.type('Sunset over the station.');
	const original = await photo(page);
	expect(original.length).toBeGreaterThan(100 * 1024);

	// The thumbnail follows the original's upload: its code loads only then.
	const thumbnailAnswer = page.waitForResponse((response) => /\/uploads\/[^/]+\/thumbnail$/.test(response.url()));
	await page.locator('[data-editor-file-input]').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: original });
	const answer = (await (await thumbnailAnswer).json()) as {
		header: { resultCode: number };
		content: { src: string; width: number; height: number; size: number };
	};
	expect(answer.header.resultCode).toBe(0);
	expect(answer.content).toMatchObject({ width: 320, height: 213 });
	expect(answer.content.src).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.webp$/);
	// Small in bytes: a few KB for a 2400 × 1600 picture of several hundred.
	expect(answer.content.size).toBeLessThan(THUMBNAIL_MAX_BYTES);
	expect(answer.content.size * 20).toBeLessThan(original.length);
	const figure = `${answer.content.size} bytes (320 × 213 WebP) for a ${original.length}-byte PNG of 2400 × 1600`;
	test.info().annotations.push({ type: 'thumbnail-bytes', description: figure });
	console.log(`thumbnail: ${figure}`);
	const title = `Sunset ${Date.now().toString(36)}`;
	await form.title.fill(title);
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await page.waitForURL(/\/posts\/\d+$/);

	// A second post whose thumbnail never reaches the server (the connection drops): its row keeps ▣.
	await page.goto(`/starfall/global/write?boardId=${board}`);
	await page.route('**/uploads/*/thumbnail', (route) => route.abort());
	await writeForm(page).body.click();
	await page.keyboard.type('No thumbnail for this one.');
	await page.locator('[data-editor-file-input]').setInputFiles({ name: 'plain.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(JPEG) });
	await expect(writeForm(page).body.locator('img[src^="/uploads/"]')).toHaveCount(1);
	const plainTitle = `Plain ${Date.now().toString(36)}`;
	await writeForm(page).title.fill(plainTitle);
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await page.waitForURL(/\/posts\/\d+$/);

	await page.goto(`/starfall/global/boards/${board}`);
	const row = page.locator('.post-row', { has: page.getByRole('link', { name: title }) });
	const thumbnail = row.locator('img[data-thumbnail]');
	await expect(thumbnail).toHaveAttribute('src', answer.content.src);
	await expect(thumbnail).toHaveAttribute('loading', 'lazy');
	await expect(thumbnail).toHaveAttribute('width', '80');
	await expect(thumbnail).toHaveAttribute('height', '60');
	expect(await thumbnail.evaluate((image: HTMLImageElement) => image.decode().then(() => image.naturalWidth))).toBe(320);
	await expect(row.locator('.media-mark')).toHaveCount(0);
	// The picture the list loads is the small variant, not the original.
	const served = await page.request.get(answer.content.src);
	expect(served.headers()['content-type']).toBe('image/webp');
	expect((await served.body()).length).toBe(answer.content.size);

	const plainRow = page.locator('.post-row', { has: page.getByRole('link', { name: plainTitle }) });
	// No thumbnail (the author's avatar is the row's only image).
	await expect(plainRow.locator('img:not(.avatar)')).toHaveCount(0);
	await expect(plainRow.locator('.media-mark')).toHaveText('▣');
});

test("video posts show the video's poster in the list and in the post's facade", async ({ page }) => {
	const asked = await standInPosters(page);
	const channel = await community('/starfall/global');
	await page.goto(`/starfall/global/boards/${boardOf(channel, 'videos')}`);
	const posters = page.locator('.post-row img[data-thumbnail]');
	expect(await posters.count()).toBeGreaterThan(0);
	const first = posters.first();
	await expect(first).toHaveAttribute('src', /^https:\/\/i\.ytimg\.com\/vi\/[A-Za-z0-9_-]{11}\/mqdefault\.jpg$/);
	expect(await first.evaluate((image: HTMLImageElement) => image.decode().then(() => image.naturalWidth))).toBeGreaterThan(0);
	await expect(page.locator('.post-row .media-mark')).toHaveCount(0);

	await page
		.locator('.post-row')
		.filter({ has: page.locator('img[data-thumbnail]') })
		.first()
		.locator('a.post-title')
		.click();
	await page.waitForURL(/\/posts\/\d+$/);
	const facade = page.locator('a.youtube-facade');
	const poster = facade.locator('img.youtube-poster');
	await expect(poster).toHaveAttribute('src', /^https:\/\/i\.ytimg\.com\/vi\/[A-Za-z0-9_-]{11}\/hqdefault\.jpg$/);
	expect(await poster.evaluate((image: HTMLImageElement) => image.decode().then(() => image.naturalWidth))).toBeGreaterThan(0);
	const id = await facade.getAttribute('data-youtube-id');
	expect(asked).toContain(`/vi/${id}/hqdefault.jpg`);
	// The poster covers the facade's 16:9 box, under its play button and label.
	const [box, image] = [await facade.boundingBox(), await poster.boundingBox()];
	expect(image?.width).toBeCloseTo(box?.width ?? 0, 0);
	expect(image?.height).toBeCloseTo(box?.height ?? 0, 0);
	await expect(facade.locator('.youtube-label')).toBeVisible();
	// Its title is the post's (the video's own is not fetched: docs/reference/thumbnails.md).
	const postTitle = (await page.locator('h1.post-title').textContent())?.trim() ?? '';
	await expect(facade.locator('.youtube-title')).toHaveText(postTitle);
	await facade.scrollIntoViewIfNeeded();
	await reviewShot(page, path.join('test-results', 'thumbnails-facade.png'));
	// Still a facade: the player loads only when asked for.
	await expect(page.locator('iframe')).toHaveCount(0);
	await facade.click();
	const player = page.locator(`iframe[src^="https://www.youtube-nocookie.com/embed/${id}"]`);
	await expect(player).toHaveCount(1);
	await expect(player).toHaveAttribute('title', `${postTitle} Play video`);
});

for (const [name, size] of [
	['phone', { width: 390, height: 844 }],
	['desktop', { width: 1440, height: 900 }],
] as const) {
	test(`the media boards at ${size.width}×${size.height}: thumbnails in rows, nothing wider than the screen`, async ({ page }) => {
		await standInPosters(page);
		await page.setViewportSize(size);
		const starfall = await community('/starfall/global');
		const farm = await community('/pixelfarm/main');
		// Pixel Farm is the dark theme.
		for (const [channel, key] of [
			[starfall, 'fanart'],
			[starfall, 'videos'],
			[farm, 'fanart'],
		] as const) {
			await page.goto(`${channel.path}/boards/${boardOf(channel, key)}`);
			const thumbnails = page.locator('.post-row img[data-thumbnail]');
			expect(await thumbnails.count()).toBeGreaterThan(3);
			for (const image of (await thumbnails.all()).slice(0, 4)) {
				await image.scrollIntoViewIfNeeded();
				expect(await image.evaluate((element: HTMLImageElement) => element.decode().then(() => element.naturalWidth))).toBeGreaterThan(0);
				const box = await image.boundingBox();
				expect(box?.x).toBeGreaterThanOrEqual(0);
				expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(size.width);
			}
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
			await page.evaluate(() => window.scrollTo(0, 0));
			await reviewShot(page, path.join('test-results', `thumbnails-${channel.domain}-${key}-${name}.png`));
		}
	});
}
