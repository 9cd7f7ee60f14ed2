/**
 * Avatars (docs/reference/avatars.md) on a phone (390 × 844), in English and in Korean: the author of
 * a post sets a picture in My Page → Settings, crops it by keyboard in the dialog (the picture's right
 * half, moved there with the arrow keys), and sees it on their post and in the header (a member
 * part) at once: the pixels of both are the cropped half's colour, not the generated pattern. Then
 * Remove picture (the member's in My Page, an administrator's on the profile) brings the generated one
 * back. Screenshots of the dialog, My Page, a board and a post, light and dark (Pixel Farm's dark
 * theme too), at 390 × 844 and 1440 × 900, with no sideways overflow: test-results/avatars-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { community } from './write-helpers';
import { signInContext } from './sessions';

/** A 1200 × 600 PNG drawn in the page: the left half red, the right half blue. */
async function twoHalves(page: Page): Promise<Buffer> {
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

/** The colour at the middle of the image (or canvas) `selector` shows, as drawn from its own pixels. */
async function middleColour(page: Page, selector: string): Promise<number[]> {
	return page
		.locator(selector)
		.first()
		.evaluate(async (element) => {
			if (element instanceof HTMLCanvasElement)
				return [...element.getContext('2d')!.getImageData(element.width / 2, element.height / 2, 1, 1).data].slice(0, 3);
			const image = element as HTMLImageElement;
			await image.decode();
			const canvas = document.createElement('canvas');
			canvas.width = image.naturalWidth;
			canvas.height = image.naturalHeight;
			const context = canvas.getContext('2d')!;
			context.drawImage(image, 0, 0);
			return [...context.getImageData(image.naturalWidth / 2, image.naturalHeight / 2, 1, 1).data].slice(0, 3);
		});
}

const isBlue = ([red, green, blue]: number[]) => blue! > 150 && red! < 90 && green! < 120;

for (const { path, texts, lang } of [
	{ path: '/starfall/global', lang: 'en', texts: { use: 'Use this picture', saved: /Your new picture is saved/, remove: 'Remove picture' } },
	{ path: '/starfall/kr', lang: 'ko', texts: { use: '이 사진 사용', saved: /새 사진을 저장했습니다/, remove: '아바타 삭제' } },
] as const) {
	const remover = lang === 'en' ? 'the member in My Page' : 'an administrator on the profile';
	test(`${lang}: a member crops a picture by keyboard and sees it on their post and in the header; ${remover} removes it and the pattern is back`, async ({
		page,
	}) => {
		test.slow();
		await page.setViewportSize({ width: 390, height: 844 });
		const channel = await community(path);
		// The author of a readable post, and that post.
		const [post] = execute(
			`SELECT p.id, p.member_id FROM posts p JOIN members m ON m.id = p.member_id JOIN boards b ON b.id = p.board_id
			 WHERE p.channel_id = ${channel.index} AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0 AND b.is_public = 1
			 AND m.withdrawn_at IS NULL AND m.role = 'MEMBER' ORDER BY p.id LIMIT 1`,
		) as { id: number; member_id: number }[];
		if (!post) throw new Error('No post in the demo');
		await signInContext(page.context(), channel, post.member_id);
		await page.goto(`${path}/mypage/settings`);
		const form = page.locator('[data-avatar-form]');
		await expect(form).toBeVisible();
		await expect(page.locator('[data-avatar-form] [data-avatar-choose]')).toBeEnabled();

		await page.locator('[data-avatar-file]').setInputFiles({ name: 'halves.png', mimeType: 'image/png', buffer: await twoHalves(page) });
		const dialog = page.getByRole('dialog');
		await expect(dialog).toBeVisible();
		const crop = dialog.locator('[data-avatar-crop]');
		await crop.focus();
		for (let i = 0; i < 6; i += 1) await page.keyboard.press('ArrowRight');
		await page.screenshot({ path: `test-results/avatars-crop-${lang}-390.png` });
		const box = await dialog.boundingBox();
		expect(box && box.x >= 0 && box.x + box.width <= 390 && box.y >= 0 && box.y + box.height <= 844).toBe(true);
		await dialog.getByRole('button', { name: texts.use }).click();
		await expect(form.locator('[data-avatar-status]')).toHaveText(texts.saved);
		await expect(dialog).toBeHidden();
		expect(isBlue(await middleColour(page, '[data-avatar-current]'))).toBe(true);
		await page.screenshot({ path: `test-results/avatars-mypage-${lang}-390.png`, fullPage: false });

		// On the post (its author's page, the full render) and in the header, at once for the member.
		await page.goto(`${path}/posts/${post.id}`);
		expect(isBlue(await middleColour(page, '.post-author img.avatar'))).toBe(true);
		expect(isBlue(await middleColour(page, 'a[data-account-icon] img.avatar'))).toBe(true);
		await page.screenshot({ path: `test-results/avatars-post-${lang}-390.png` });
		// A list shows it beside the name too.
		await page.goto(`${path}/users/${post.member_id}`);
		expect(isBlue(await middleColour(page, '[data-profile-avatar]'))).toBe(true);

		// Removed: the generated pattern (an SVG of the member's hue) again.
		if (lang === 'en') {
			await page.goto(`${path}/mypage/settings`);
		} else {
			await signInContext(page.context(), channel, channel.index * 1000 + 1);
			await page.goto(`${path}/users/${post.member_id}`);
		}
		await page.getByRole('button', { name: texts.remove }).click();
		await expect(page.getByRole('button', { name: texts.remove })).toBeHidden();
		await page.screenshot({ path: `test-results/avatars-removed-${lang}-390.png` });
		await page.goto(`${path}/posts/${post.id}`);
		expect(isBlue(await middleColour(page, '.post-author img.avatar'))).toBe(false);
	});
}

test('each member’s header shows their own avatar, though the header is rendered once for every member', async ({ page }) => {
	const channel = await community('/starfall/global');
	for (const memberId of [channel.index * 1000 + 5, channel.index * 1000 + 6, channel.index * 1000 + 5]) {
		await signInContext(page.context(), channel, memberId);
		// My Page is always the full render (never a guest's page rewritten), so its header is the remembered piece.
		await page.goto('/starfall/global/mypage/settings');
		await expect(page.locator('a[data-account-icon] img.avatar')).toHaveAttribute('src', `/starfall/global/avatars/${memberId}?s=96`);
	}
});

test('screens of avatars, light and dark, on a phone and a desktop', async ({ page }) => {
	test.slow();
	// Starfall's theme follows the reader's colour scheme; Pixel Farm's is dark by its community file.
	for (const { path, lang } of [
		{ path: '/starfall/global', lang: 'en' },
		{ path: '/starfall/kr', lang: 'ko' },
		{ path: '/pixelfarm/main', lang: 'pixelfarm' },
	]) {
		const channel = await community(path);
		const [post] = execute(
			`SELECT p.id, p.member_id FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.channel_id = ${channel.index} AND p.deleted_at IS NULL
			 AND p.hidden_by_admin = 0 AND p.is_private = 0 AND b.is_public = 1 AND p.comment_count > 0 ORDER BY p.id LIMIT 1`,
		) as { id: number; member_id: number }[];
		if (!post) throw new Error('No post with comments in the demo');
		await signInContext(page.context(), channel, channel.index * 1000 + 3);
		for (const scheme of ['light', 'dark'] as const) {
			await page.emulateMedia({ colorScheme: scheme });
			for (const [width, height] of [
				[390, 844],
				[1440, 900],
			] as const) {
				await page.setViewportSize({ width, height });
				for (const [name, url] of [
					['post', `${path}/posts/${post.id}`],
					['board', `${path}/boards`],
					['settings', `${path}/mypage/settings`],
				] as const) {
					await page.goto(url);
					await page.waitForLoadState('networkidle');
					const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
					expect(overflow, `${name} ${width} ${scheme}`).toBeLessThanOrEqual(0);
					await page.screenshot({ path: `test-results/avatars-${name}-${lang}-${width}-${scheme}.png` });
				}
			}
		}
	}
});
