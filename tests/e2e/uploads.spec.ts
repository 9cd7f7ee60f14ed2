/**
 * Uploaded images in Chromium on the built site: what the upload route stores is served from
 * /uploads/{key} by the Worker with its own headers, and decodes in a page of the site under the
 * page's policy (img-src 'self') at the size the API reported (a JPEG upright by its orientation).
 */
import { expect, test } from './test';
import { signInAsDemoMember } from './sign-in-helpers';
import * as images from '../fixtures/images';

const CHANNEL = '/starfall/global';

const FIXTURES = {
	'JPEG (EXIF orientation 6)': images.jpegWithMetadata(6),
	'PNG': images.PNG_WITH_TEXT,
	'GIF': images.GIF_WITH_COMMENT,
	'lossy WebP': images.WEBP_LOSSY,
	'lossless WebP': images.WEBP_LOSSLESS,
	'extended WebP': images.WEBP_EXTENDED,
};

test('uploaded images are served by the Worker and decode upright at their reported size', async ({ page, baseURL }) => {
	await signInAsDemoMember(page, CHANNEL, `${CHANNEL}/boards`);
	for (const [name, bytes] of Object.entries(FIXTURES)) {
		const answer = await page.request.post(`/v1${CHANNEL}/uploads`, { headers: { origin: baseURL ?? '', 'content-type': 'application/octet-stream' }, data: Buffer.from(bytes) });
		expect(answer.status(), name).toBe(200);
		const { content } = (await answer.json()) as { content: { src: string; width: number; height: number } };

		const served = await page.request.get(content.src);
		expect(served.status(), name).toBe(200);
		expect(served.headers()).toMatchObject({
			'x-content-type-options': 'nosniff',
			'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
			'content-disposition': 'inline',
			'cache-control': 'public, max-age=31536000, immutable',
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
