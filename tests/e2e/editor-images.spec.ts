/**
 * Images reach the editor the three ways a person adds them: the toolbar's button, pasting a copied
 * image file and dropping one from the desktop. Each is uploaded with a progress bar and becomes an
 * image of this site's uploads at its real size; the write screen is also looked at on a phone and
 * in the dark Pixel Farm theme (test-results/write-phone.png, test-results/write-dark.png).
 */
import path from 'node:path';
import { expect, test } from './test';
import { boardOf, community, signInMember, writeForm } from './write-helpers';
import { GIF, HEIGHT, PNG, WIDTH } from '../fixtures/images';
import { reviewShot } from './review-shot';

/** Puts a file into a DataTransfer inside the page and dispatches `type` on the editor with it. */
async function dispatchFile(page: import('@playwright/test').Page, type: 'paste' | 'drop', bytes: Uint8Array, name: string, mimeType: string) {
	await page.locator('[contenteditable="true"]').evaluate(
		(editor, { type, data, name, mimeType }) => {
			const transfer = new DataTransfer();
			transfer.items.add(new File([new Uint8Array(data)], name, { type: mimeType }));
			const event =
				type === 'paste'
					? new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true })
					: new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true, clientX: 40, clientY: 40 });
			editor.dispatchEvent(event);
		},
		{ type, data: [...bytes], name, mimeType },
	);
}

test('an image is uploaded by button, paste and drop, with progress, and shown at its size', async ({ page }) => {
	const channel = await community('/starfall/global');
	await signInMember(page, channel, 25, `/starfall/global/write?boardId=${boardOf(channel, 'general')}`);
	const form = writeForm(page);
	await form.body.click();
	await page.keyboard.type('Three ways in.');
	const images = form.body.locator('img[src^="/uploads/"]');

	// The progress bar shows while the request runs: hold the upload's answer until it has been seen.
	let release: () => void = () => {};
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/v1/starfall/global/uploads', async (route) => {
		await held;
		await route.continue();
	});
	await page.locator('[data-editor-file-input]').setInputFiles({ name: 'button.png', mimeType: 'image/png', buffer: Buffer.from(PNG) });
	await expect(page.locator('progress')).toBeVisible();
	release();
	await expect(images).toHaveCount(1);
	await expect(page.locator('progress')).toHaveCount(0);
	await page.unroute('**/v1/starfall/global/uploads');

	await dispatchFile(page, 'paste', GIF, 'pasted.gif', 'image/gif');
	await expect(images).toHaveCount(2);
	await dispatchFile(page, 'drop', PNG, 'dropped.png', 'image/png');
	await expect(images).toHaveCount(3);
	for (const image of await images.all()) {
		await expect(image).toHaveAttribute('width', String(WIDTH));
		await expect(image).toHaveAttribute('height', String(HEIGHT));
	}

	await form.title.fill(`Three images ${Date.now().toString(36)}`);
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await page.waitForURL(/\/posts\/\d+$/);
	const shown = page.locator('.post-body img[src^="/uploads/"]');
	await expect(shown).toHaveCount(3);
	// Every image decoded: the uploads are served as images this page may show.
	for (const image of await shown.all())
		expect(await image.evaluate((element: HTMLImageElement) => element.decode().then(() => element.naturalWidth))).toBe(WIDTH);
});

test('the write screen fits a phone and takes the dark theme', async ({ page }) => {
	const farm = await community('/pixelfarm/main');
	await signInMember(page, farm, 26, `/pixelfarm/main/write?boardId=${boardOf(farm, 'general')}`);
	await expect(page.locator('[data-rich-editor="ready"]')).toBeVisible();
	const color = await page.locator('[contenteditable="true"]').evaluate((element) => getComputedStyle(element).color);
	// Light text on the dark theme: the editor follows the channel's colours.
	const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
	expect((r! + g! + b!) / 3).toBeGreaterThan(150);
	await reviewShot(page, path.join('test-results', 'write-dark.png'), { fullPage: true });

	await page.setViewportSize({ width: 375, height: 812 });
	const global = await community('/starfall/global');
	await signInMember(page, global, 26, `/starfall/global/write?boardId=${boardOf(global, 'general')}`);
	await expect(page.locator('[data-rich-editor="ready"]')).toBeVisible();
	await page.locator('[contenteditable="true"]').click();
	await page.keyboard.type('A long line of text that must wrap inside the editor on a narrow phone screen without scrolling sideways.');
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
	await reviewShot(page, path.join('test-results', 'write-phone.png'), { fullPage: true });
});
