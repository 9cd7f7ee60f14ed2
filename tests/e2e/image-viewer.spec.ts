/**
 * The post's image viewer in Chromium, on a post a demo member writes through the
 * API with five images (the third without alt text), read by a guest at 390×844 (with touch) and
 * 1440×900: a press on an image opens it full screen at that image, the viewer's script is fetched
 * only then, arrows and swipes move between the post's images, pinch, the zoom button and double-click
 * zoom, Esc closes and gives focus back, the keyboard alone can do all of it, and the page behind
 * does not scroll. Both sizes are checked in the light theme (starfall/global) and the dark one
 * (pixelfarm/main), and screenshots go to test-results/image-viewer/ for review.
 */
import { wcagViolations } from './axe';
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { signInContext } from './sessions';
import { boardOf, community, memberIdOf } from './write-helpers';
import { reviewShot } from './review-shot';

const IMAGES = [
	{ src: '/demo/shot-01.svg', alt: 'Harbour at dawn' },
	{ src: '/demo/shot-02.svg', alt: 'Raid party' },
	{ src: '/demo/shot-03.svg', alt: '' },
	{ src: '/demo/shot-04.svg', alt: 'Night market' },
	{ src: '/demo/shot-05.svg', alt: 'Boss arena' },
];
/** The viewer's chunk, fetched on the first press of an image and not before. */
const VIEWER_CHUNK = /\/_astro\/image-viewer\.[\w-]+\.js$/;

const SIZES = [
	{ name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true },
	{ name: 'desktop', viewport: { width: 1440, height: 900 }, hasTouch: false },
] as const;

const posts = new Map<string, Promise<string>>();

/** A post with the five images (or `images`) in `channelPath`'s fan-art board, written once per worker through the API. */
function postWithImages(browser: Browser, channelPath: string, images: readonly { src: string; alt: string }[] = IMAGES): Promise<string> {
	const key = `${channelPath} ${images.length}`;
	let post = posts.get(key);
	if (!post) {
		post = (async () => {
			const channel = await community(channelPath);
			const baseURL = test.info().project.use.baseURL ?? '';
			// The demo's seventh member, signed in with a minted session; the post goes through the context's
			// `request` (the session's cookie), so no page is loaded for it.
			const context = await browser.newContext({ baseURL });
			await signInContext(context, channel, memberIdOf(channel, 6));
			const origin = new URL(baseURL).origin;
			const answer = await context.request.post(`/v1${channelPath}/posts`, {
				headers: { origin },
				data: {
					boardId: boardOf(channel, 'fanart'),
					subjectId: null,
					title: `Five screenshots ${crypto.randomUUID().slice(0, 8)}`,
					isPrivate: false,
					isNotice: false,
					requestId: crypto.randomUUID(),
					content: {
						type: 'doc',
						blocks: [
							{ type: 'paragraph', children: [{ text: 'Screenshots from last night.' }] },
							...images.map((image) => ({ type: 'image', ...image, width: 1280, height: 720 })),
							{ type: 'paragraph', children: [{ text: 'More soon.' }] },
						],
					},
				},
			});
			expect(answer.status(), await answer.text()).toBe(200);
			const { content } = (await answer.json()) as { content: { postId: number } };
			await context.close();
			return `${channelPath}/posts/${content.postId}`;
		})();
		posts.set(key, post);
	}
	return post;
}

const viewer = (page: Page) => page.locator('dialog[data-image-viewer]');
const imageLinks = (page: Page) => page.locator('.post-body a.content-image-link');

/** Every box a person presses in the viewer: inside the viewport and at least 44 px a side. */
async function expectControlsReachable(page: Page, viewport: { width: number; height: number }) {
	const buttons = viewer(page).locator('button:visible');
	expect(await buttons.count()).toBe(4);
	for (const button of await buttons.all()) {
		const box = (await button.boundingBox())!;
		expect(box.width, (await button.getAttribute('aria-label')) ?? '').toBeGreaterThanOrEqual(44);
		expect(box.height).toBeGreaterThanOrEqual(44);
		expect(box.x).toBeGreaterThanOrEqual(0);
		expect(box.y).toBeGreaterThanOrEqual(0);
		expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
		expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
	}
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
}

async function expectShowing(page: Page, position: number) {
	const image = IMAGES[position - 1]!;
	await expect(viewer(page).locator('[data-image-viewer-counter]')).toHaveText(`${position} / ${IMAGES.length}`);
	await expect(viewer(page).locator('[data-image-viewer-image]')).toHaveAttribute('src', image.src);
	await expect(viewer(page).locator('[data-image-viewer-image]')).toHaveAttribute('alt', image.alt);
}

/** The image's scale, read from its transform matrix. */
const scaleOf = (image: Locator) => image.evaluate((element) => new DOMMatrixReadOnly(getComputedStyle(element).transform).a);

/** A finger's drag across the stage, as touch events (Chromium makes the pointer events of them). */
async function touchDrag(page: Page, from: { x: number; y: number }[], to: { x: number; y: number }[]) {
	const session = await page.context().newCDPSession(page);
	const points = (at: { x: number; y: number }[]) => at.map((point, id) => ({ ...point, id }));
	await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(from) });
	for (let step = 1; step <= 8; step += 1) {
		const at = from.map((start, i) => ({ x: start.x + ((to[i]!.x - start.x) * step) / 8, y: start.y + ((to[i]!.y - start.y) * step) / 8 }));
		await session.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(at) });
	}
	await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
	await session.detach();
}

for (const size of SIZES) {
	test.describe(`at ${size.viewport.width}×${size.viewport.height}`, () => {
		test.use({ viewport: size.viewport, hasTouch: size.hasTouch });

		test('pressing the second image opens it full screen; → shows the next, Esc closes and gives focus back', async ({ page, browser }) => {
			const path = await postWithImages(browser, '/starfall/global');
			const chunks: string[] = [];
			page.on('request', (request) => VIEWER_CHUNK.test(request.url()) && chunks.push(request.url()));
			await page.goto(path);
			await page.waitForLoadState('networkidle');
			await expect(imageLinks(page)).toHaveCount(IMAGES.length);
			// Without JavaScript each image is a link to its file, named by its alt text or the label.
			await expect(imageLinks(page).nth(1)).toHaveAttribute('href', IMAGES[1]!.src);
			await expect(imageLinks(page).nth(2)).toHaveAccessibleName('Open image');
			await expect(viewer(page)).not.toBeVisible();
			// Nothing of the viewer is fetched before the reader presses an image.
			await imageLinks(page).nth(1).scrollIntoViewIfNeeded();
			expect(chunks).toEqual([]);
			const scrollBefore = await page.evaluate(() => window.scrollY);

			if (size.hasTouch) await imageLinks(page).nth(1).tap();
			else await imageLinks(page).nth(1).click();
			await expect(viewer(page)).toBeVisible();
			expect(chunks).toHaveLength(1);
			await expect(viewer(page)).toHaveAccessibleName('Image viewer');
			await expectShowing(page, 2);
			// Focus is in the viewer, on its close button; the page behind does not scroll.
			await expect(viewer(page).getByRole('button', { name: 'Close image viewer' })).toBeFocused();
			expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
			await expectControlsReachable(page, size.viewport);
			expect(await viewer(page).boundingBox()).toEqual({ x: 0, y: 0, width: size.viewport.width, height: size.viewport.height });
			await expect(viewer(page).locator('[data-image-viewer-image]')).toHaveJSProperty('complete', true);
			await reviewShot(page, `test-results/image-viewer/starfall-${size.name}-open.png`);
			await page.mouse.move(size.viewport.width / 2, size.viewport.height - 10);
			await page.mouse.wheel(0, 600);
			expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);

			await page.keyboard.press('ArrowRight');
			await expectShowing(page, 3);
			await page.keyboard.press('ArrowLeft');
			await page.keyboard.press('ArrowLeft');
			await expectShowing(page, 1);
			await expect(viewer(page).getByRole('button', { name: 'Previous image' })).toBeDisabled();
			await page.keyboard.press('ArrowLeft');
			await expectShowing(page, 1);
			await viewer(page).getByRole('button', { name: 'Next image' }).click();
			await expectShowing(page, 2);

			await page.keyboard.press('Escape');
			await expect(viewer(page)).not.toBeVisible();
			await expect(imageLinks(page).nth(1)).toBeFocused();
			expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');
			await reviewShot(page, `test-results/image-viewer/starfall-${size.name}-closed.png`);
			// Opened again, the fetched viewer is used at once.
			await imageLinks(page).nth(3).click();
			await expectShowing(page, 4);
			expect(chunks).toHaveLength(1);
		});

		test('the keyboard alone opens an image, moves, zooms and closes, and focus stays in the viewer', async ({ page, browser }) => {
			const path = await postWithImages(browser, '/starfall/global');
			await page.goto(path);
			await imageLinks(page).first().focus();
			await page.keyboard.press('Enter');
			await expect(viewer(page)).toBeVisible();
			await expectShowing(page, 1);
			// Tab goes round the viewer's buttons only (Previous is disabled on the first image).
			const names: string[] = [];
			for (let i = 0; i < 6; i += 1) {
				await page.keyboard.press('Tab');
				names.push(
					await page.evaluate(
						() =>
							(document.activeElement?.closest('dialog[data-image-viewer]')
								? document.activeElement.getAttribute('aria-label')
								: `outside: ${document.activeElement?.tagName}`) ?? '',
					),
				);
			}
			expect(names.every((name) => !name.startsWith('outside'))).toBe(true);
			expect(new Set(names)).toEqual(new Set(['Zoom in', 'Close image viewer', 'Next image']));
			// Next pressed to the last image hands focus on instead of losing it.
			const next = viewer(page).getByRole('button', { name: 'Next image' });
			await next.focus();
			for (let i = 0; i < IMAGES.length - 1; i += 1) await page.keyboard.press('Enter');
			await expectShowing(page, IMAGES.length);
			await expect(next).toBeDisabled();
			await expect(viewer(page).getByRole('button', { name: 'Previous image' })).toBeFocused();
			// The zoom button toggles 1× and 2×, and says which it does.
			const zoom = viewer(page).getByRole('button', { name: 'Zoom in' });
			await zoom.focus();
			await page.keyboard.press('Enter');
			const image = viewer(page).locator('[data-image-viewer-image]');
			await expect(viewer(page).getByRole('button', { name: 'Zoom out' })).toHaveAttribute('aria-pressed', 'true');
			await expect.poll(() => scaleOf(image)).toBeCloseTo(2, 1);
			await page.keyboard.press('Enter');
			await expect.poll(() => scaleOf(image)).toBeCloseTo(1, 1);
			await page.keyboard.press('Escape');
			await expect(viewer(page)).not.toBeVisible();
			await expect(imageLinks(page).nth(IMAGES.length - 1)).toBeFocused();
		});

		test('Close sits in the same place for every image, with one image or five', async ({ page, browser }) => {
			const [five, one] = await Promise.all([
				postWithImages(browser, '/starfall/global'),
				postWithImages(browser, '/starfall/global', IMAGES.slice(0, 1)),
			]);
			const close = viewer(page).getByRole('button', { name: 'Close image viewer' });
			const places: { x: number; y: number }[] = [];
			await page.goto(five);
			for (const position of [1, 3, 5]) {
				await imageLinks(page)
					.nth(position - 1)
					.click();
				await expectShowing(page, position);
				const box = (await close.boundingBox())!;
				places.push({ x: box.x, y: box.y });
				await page.keyboard.press('Escape');
				await expect(viewer(page)).not.toBeVisible();
			}
			await page.goto(one);
			await imageLinks(page).first().click();
			await expect(viewer(page).locator('[data-image-viewer-counter]')).toBeHidden();
			const box = (await close.boundingBox())!;
			places.push({ x: box.x, y: box.y });
			await reviewShot(page, `test-results/image-viewer/one-image-${size.name}.png`);
			// The top right corner, whatever the image.
			expect(new Set(places.map((place) => `${place.x},${place.y}`)).size).toBe(1);
			expect(places[0]!.x + 44).toBeGreaterThan(size.viewport.width - 24);
			expect(places[0]!.y).toBeLessThan(24);
		});

		if (size.hasTouch) {
			test('on a phone a swipe down closes the viewer, a short one springs back', async ({ page, browser }) => {
				const path = await postWithImages(browser, '/starfall/global');
				await page.goto(path);
				await imageLinks(page).nth(2).tap();
				await expectShowing(page, 3);
				const middle = { x: size.viewport.width / 2, y: size.viewport.height / 2 };
				await touchDrag(page, [middle], [{ x: middle.x + 4, y: middle.y + 20 }]);
				await expectShowing(page, 3);
				await expect(viewer(page)).toBeVisible();
				await touchDrag(page, [middle], [{ x: middle.x + 10, y: middle.y + 200 }]);
				await expect(viewer(page)).not.toBeVisible();
				await expect(imageLinks(page).nth(2)).toBeFocused();
			});

			test('on a phone a swipe moves between the images and a pinch zooms', async ({ page, browser }) => {
				const path = await postWithImages(browser, '/starfall/global');
				await page.goto(path);
				await imageLinks(page).nth(1).tap();
				await expectShowing(page, 2);
				const middle = { x: size.viewport.width / 2, y: size.viewport.height / 2 };
				// A swipe to the left shows the next image, one to the right the previous.
				await touchDrag(page, [{ x: middle.x + 120, y: middle.y }], [{ x: middle.x - 120, y: middle.y + 10 }]);
				await expectShowing(page, 3);
				await touchDrag(page, [{ x: middle.x - 120, y: middle.y }], [{ x: middle.x + 120, y: middle.y }]);
				await expectShowing(page, 2);
				// A short drag is not a swipe: the image springs back.
				await touchDrag(page, [{ x: middle.x, y: middle.y }], [{ x: middle.x - 20, y: middle.y }]);
				await expectShowing(page, 2);
				// Two fingers moving apart zoom in; a drag then pans the image instead of swiping.
				const image = viewer(page).locator('[data-image-viewer-image]');
				await touchDrag(
					page,
					[
						{ x: middle.x - 30, y: middle.y },
						{ x: middle.x + 30, y: middle.y },
					],
					[
						{ x: middle.x - 90, y: middle.y },
						{ x: middle.x + 90, y: middle.y },
					],
				);
				await expect.poll(() => scaleOf(image)).toBeGreaterThan(2.5);
				await expect(viewer(page).getByRole('button', { name: 'Zoom out' })).toBeVisible();
				await touchDrag(page, [{ x: middle.x + 100, y: middle.y }], [{ x: middle.x - 100, y: middle.y }]);
				await expectShowing(page, 2);
				await reviewShot(page, `test-results/image-viewer/starfall-${size.name}-zoomed.png`);
				// The buttons act on click; after the gestures above, Chromium's gesture detector sometimes
				// takes a synthetic tap as part of them, so these presses are clicks.
				await viewer(page).getByRole('button', { name: 'Zoom out' }).click();
				await expect.poll(() => scaleOf(image)).toBeCloseTo(1, 1);
				await viewer(page).getByRole('button', { name: 'Close image viewer' }).click();
				await expect(viewer(page)).not.toBeVisible();
			});
		} else {
			test('on a desktop a drag moves between the images, a double-click and the wheel zoom', async ({ page, browser }) => {
				const path = await postWithImages(browser, '/starfall/global');
				await page.goto(path);
				await imageLinks(page).nth(1).click();
				await expectShowing(page, 2);
				const image = viewer(page).locator('[data-image-viewer-image]');
				const box = (await image.boundingBox())!;
				const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
				await page.mouse.move(centre.x + 150, centre.y);
				await page.mouse.down();
				await page.mouse.move(centre.x - 150, centre.y, { steps: 8 });
				await page.mouse.up();
				await expectShowing(page, 3);
				await image.dblclick();
				await expect.poll(() => scaleOf(image)).toBeCloseTo(2, 1);
				await image.dblclick();
				await expect.poll(() => scaleOf(image)).toBeCloseTo(1, 1);
				await page.mouse.move(centre.x, centre.y);
				await page.mouse.wheel(0, -300);
				await expect.poll(() => scaleOf(image)).toBeGreaterThan(1.2);
				await page.keyboard.press('Escape');
				await expect(viewer(page)).not.toBeVisible();
				await expect(imageLinks(page).nth(2)).toBeFocused();
			});
		}

		test('the dark theme (pixelfarm/main) shows the images as links and the viewer dark and legible', async ({ page, browser }) => {
			const path = await postWithImages(browser, '/pixelfarm/main');
			await page.goto(path);
			await expect(page.locator('html')).toHaveAttribute('data-theme', 'DARK');
			await imageLinks(page).nth(1).focus();
			await reviewShot(page, `test-results/image-viewer/pixelfarm-${size.name}-page.png`);
			await page.keyboard.press('Enter');
			await expect(viewer(page)).toBeVisible();
			await expect(viewer(page).locator('[data-image-viewer-counter]')).toHaveText(`2 / ${IMAGES.length}`);
			await expect(viewer(page).locator('[data-image-viewer-image]')).toHaveJSProperty('complete', true);
			const colours = await viewer(page).evaluate((dialog) => ({
				background: getComputedStyle(dialog).backgroundColor,
				counter: getComputedStyle(dialog.querySelector('[data-image-viewer-counter]')!).color,
				button: getComputedStyle(dialog.querySelector('button')!).color,
			}));
			expect(colours).toEqual({ background: 'rgb(8, 9, 12)', counter: 'rgb(255, 255, 255)', button: 'rgb(255, 255, 255)' });
			await expectControlsReachable(page, size.viewport);
			// WCAG 2.2 AA (axe) on the open viewer: names, contrast, target sizes.
			expect(await wcagViolations(page, 'dialog[data-image-viewer]')).toEqual([]);
			// The focused button's ring is white on the dark viewer.
			await page.keyboard.press('Tab');
			expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineColor)).toBe('rgb(255, 255, 255)');
			await reviewShot(page, `test-results/image-viewer/pixelfarm-${size.name}-open.png`);
		});
	});
}
