/**
 * Avatars (docs/reference/avatars.md) on a phone (390 × 844), in English and in Korean: the author of
 * a post sets a picture in My Page → Settings, crops it by keyboard in the dialog (the picture's right
 * half, moved there with the arrow keys), and sees it on their post and in the header (a member
 * part) at once: the pixels of both are the cropped half's colour, not the generated pattern. Then
 * Remove picture (the member's in My Page, an administrator's on the profile) brings the generated one
 * back. Screenshots of the dialog, My Page, a board and a post, light and dark (Pixel Farm's dark
 * theme too), at 390 × 844 and 1440 × 900, with no sideways overflow: test-results/avatars-*.png (REVIEW_SHOTS=1).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { community, freshMember } from './write-helpers';
import { mintSession, sessionCookieName, signInContext } from './sessions';
import { reviewShot } from './review-shot';
import { twoHalves } from './avatar-picture';

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
		await reviewShot(page, `test-results/avatars-crop-${lang}-390.png`);
		const box = await dialog.boundingBox();
		expect(box && box.x >= 0 && box.x + box.width <= 390 && box.y >= 0 && box.y + box.height <= 844).toBe(true);
		await dialog.getByRole('button', { name: texts.use }).click();
		await expect(form.locator('[data-avatar-status]')).toHaveText(texts.saved);
		await expect(dialog).toBeHidden();
		expect(isBlue(await middleColour(page, '[data-avatar-current]'))).toBe(true);
		await reviewShot(page, `test-results/avatars-mypage-${lang}-390.png`);

		// On the post (its author's page, the full render) and in the header, at once for the member.
		await page.goto(`${path}/posts/${post.id}`);
		expect(isBlue(await middleColour(page, '.post-author img.avatar'))).toBe(true);
		expect(isBlue(await middleColour(page, 'a[data-account-icon] img.avatar'))).toBe(true);
		await reviewShot(page, `test-results/avatars-post-${lang}-390.png`);
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
		await reviewShot(page, `test-results/avatars-removed-${lang}-390.png`);
		await page.goto(`${path}/posts/${post.id}`);
		expect(isBlue(await middleColour(page, '.post-author img.avatar'))).toBe(false);
	});
}

/** The header account link's picture in a page's HTML: its `src`, or null when it shows none (a guest's icon). */
function headerAvatar(html: string): string | null {
	const account = /<a [^>]*data-account-icon[^>]*>([\s\S]*?)<\/a>/.exec(html);
	if (!account) throw new Error('No account link in the header');
	return /<img [^>]*class="avatar account-avatar"[^>]*src="([^"]+)"/.exec(account[1]!)?.[1] ?? null;
}

test('each member’s header shows their own picture or pattern, rewritten or rendered in full, though the member header is rendered once for all; a guest’s shows none', async ({
	page,
	request,
	baseURL,
}) => {
	const channel = await community('/starfall/global');
	// One member with a picture (a blue square, sent as My Page sends it), one without.
	const pictured = freshMember('pictured', channel.index);
	const plain = freshMember('plain', channel.index);
	await signInContext(page.context(), channel, pictured.id);
	// Drawn before any page of the site is open, so that the browser has not kept the pattern at the picture's URL.
	const jpeg = await page.evaluate(async () => {
		const canvas = document.createElement('canvas');
		canvas.width = canvas.height = 96;
		const context = canvas.getContext('2d')!;
		context.fillStyle = 'rgb(30 60 220)';
		context.fillRect(0, 0, 96, 96);
		const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made!), 'image/jpeg', 0.9));
		return [...new Uint8Array(await blob.arrayBuffer())];
	});
	const upload = await page.request.put('/v1/starfall/global/me/avatar?size=96', {
		headers: { Accept: 'application/json', 'Content-Type': 'image/jpeg', Origin: new URL(baseURL!).origin },
		data: Buffer.from(jpeg),
	});
	const status = upload.status();
	expect(status).toBe(200);
	const cookies = {
		[pictured.id]: `${sessionCookieName(channel)}=${await mintSession(channel, pictured.id)}`,
		[plain.id]: `${sessionCookieName(channel)}=${await mintSession(channel, plain.id)}`,
	};
	// A board's list is the guest's page rewritten for a member; `?page=1` (not the canonical URL) is its full render.
	// Both take the member header the isolate remembers for every member: one member's answers straight after
	// the other's (no browser in between) would show the first one's picture if it were remembered with it.
	for (let round = 0; round < 3; round += 1) {
		for (const memberId of [pictured.id, plain.id]) {
			for (const [url, kind] of [
				['/starfall/global/boards?page=1', undefined],
				['/starfall/global/boards', 'REWRITTEN'],
				['/starfall/global/mypage/settings', undefined],
			] as const) {
				const answer = await request.get(url, { headers: { cookie: cookies[memberId]! }, maxRedirects: 0 });
				expect(answer.headers()['x-member-page'], url).toBe(kind);
				expect(headerAvatar(await answer.text()), `${url} for ${memberId}`).toBe(`/starfall/global/avatars/${memberId}?s=96`);
			}
		}
	}
	// What the two URLs show: the member's picture, and the other's pattern (an SVG, not blue).
	const picture = await request.get(`/starfall/global/avatars/${pictured.id}?s=96`);
	expect(picture.headers()['content-type']).toBe('image/jpeg');
	const pattern = await request.get(`/starfall/global/avatars/${plain.id}?s=96`);
	expect(pattern.headers()['content-type']).toMatch(/^image\/svg\+xml/);
	await page.goto('/starfall/global/boards');
	expect(isBlue(await middleColour(page, 'a[data-account-icon] img.avatar'))).toBe(true);
	// A guest's page (the shared cached one) has the guest's icon and no avatar.
	for (const url of ['/starfall/global/boards', `/starfall/global/users/${pictured.id}`]) {
		const guest = await request.get(url, { headers: { cookie: '' }, maxRedirects: 0 });
		expect(guest.headers()['x-member-page'], url).toBeUndefined();
		expect(headerAvatar(await guest.text()), url).toBeNull();
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
		// Each page is loaded once (at 390 × 844, light) and looked at in every scheme and width: the
		// colour scheme and the viewport apply to the open page as they would to a new load.
		for (const [name, url] of [
			['post', `${path}/posts/${post.id}`],
			['board', `${path}/boards`],
			['settings', `${path}/mypage/settings`],
		] as const) {
			await page.emulateMedia({ colorScheme: 'light' });
			await page.setViewportSize({ width: 390, height: 844 });
			await page.goto(url);
			await page.waitForLoadState('networkidle');
			for (const scheme of ['light', 'dark'] as const) {
				await page.emulateMedia({ colorScheme: scheme });
				for (const [width, height] of [
					[390, 844],
					[1440, 900],
				] as const) {
					await page.setViewportSize({ width, height });
					const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
					expect(overflow, `${name} ${width} ${scheme}`).toBeLessThanOrEqual(0);
					await reviewShot(page, `test-results/avatars-${name}-${lang}-${width}-${scheme}.png`);
				}
			}
		}
	}
});
