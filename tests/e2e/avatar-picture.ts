/** A picture for the avatar's crop dialog (tests/e2e/avatars.spec.ts, review-screens.spec.ts). */
import type { Page } from '@playwright/test';

/** A 1200 × 600 PNG drawn in the page: the left half red, the right half blue. */
export async function twoHalves(page: Page): Promise<Buffer> {
	const bytes = await page.evaluate(async () => {
		const canvas = document.createElement('canvas');
		canvas.width = 1200;
		canvas.height = 600;
		const context = canvas.getContext('2d')!;
		context.fillStyle = 'rgb(220 30 30)';
		context.fillRect(0, 0, 600, 600);
		context.fillStyle = 'rgb(30 60 220)';
		context.fillRect(600, 0, 600, 600);
		const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made!), 'image/png'));
		return [...new Uint8Array(await blob.arrayBuffer())];
	});
	return Buffer.from(bytes);
}
