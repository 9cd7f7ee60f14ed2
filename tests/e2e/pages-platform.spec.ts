/**
 * What the Cloudflare Pages build must give the Worker besides what readers see (run by
 * playwright.pages.config.ts only; the main configuration leaves it out): the rate limiters count
 * through the companion Worker's service binding, since Pages has no Rate Limiting binding, a write
 * is answered with its D1 session's bookmark as on Workers, and neither Worker's code or
 * configuration is served as a file.
 */
import { LIMITERS, RATE_LIMITS } from '@/server/platform/rate-limit';
import { BOOKMARK_HEADER } from '@/server/platform/d1-session';
import { demoIds } from './fixtures';
import { expect, test } from './test';

test('the rate limiters count on Pages: a client past the sign-in starts’ limit is refused with Retry-After', async ({ request, baseURL }) => {
	// Sign-in starts are counted by the client's address before anything else (the sign-up steps are
	// asked for their sign-up cookie first, which a stranger's burst never gets past).
	const { limit, periodSeconds } = LIMITERS[RATE_LIMITS.signIn.address];
	const statuses: number[] = [];
	let refused: Awaited<ReturnType<typeof request.post>> | undefined;
	// The limiter's windows follow the clock and one may end mid-way, so up to three windows' worth
	// go out before the refusal must have come. Each request is counted, then goes as far as the
	// provider (200 with its address, or 503 where the provider is not configured).
	while (!refused && statuses.length < 3 * limit + 1) {
		const response = await request.post('/public/v1/starfall/global/oauth/login', {
			headers: { Origin: baseURL ?? '' },
			data: { provider: 'GOOGLE' },
		});
		statuses.push(response.status());
		if (response.status() === 429) refused = response;
	}
	expect(statuses.filter((status) => ![200, 429, 503].includes(status))).toEqual([]);
	expect(statuses.length).toBeGreaterThan(limit);
	if (!refused) throw new Error(`No refusal after ${statuses.length} requests`);
	expect(refused.headers()['retry-after']).toBe(String(periodSeconds));
	const body = (await refused.json()) as { header: { isSuccessful: boolean; resultCode: number } };
	expect(body.header.isSuccessful).toBe(false);
});

test('on Pages, a write no one reads back (the view beacon) answers without a bookmark: reading a post sets no cookie', async ({
	request,
	baseURL,
}) => {
	const answer = await request.post(`/public/v1/starfall/global/posts/${demoIds().postWithImage}/views`, { headers: { Origin: baseURL ?? '' } });
	expect(answer.status()).toBe(204);
	expect(answer.headers()[BOOKMARK_HEADER.toLowerCase()]).toBeUndefined();
	expect(answer.headersArray().filter(({ name }) => name.toLowerCase() === 'set-cookie')).toEqual([]);
});

test('the Workers’ code and configuration are not served as files', async ({ request }) => {
	for (const file of [
		'/_worker.js',
		'/_worker.js/index.js',
		'/_worker.js/chunks',
		'/index.js',
		'/wrangler.toml',
		'/companion/index.js',
		'/companion/wrangler.toml',
	]) {
		const response = await request.get(file);
		expect(response.status(), file).toBe(404);
		expect(await response.text(), file).not.toContain('export');
	}
});

test('the scripts a page names are served on Pages as JavaScript, and its inlined styles lay it out', async ({ page, request }) => {
	// A board page: its page scripts and the islands' modules (the stylesheets are inlined in the page).
	await page.goto('/starfall/global/boards');
	const assets = await page.evaluate(() => [
		...[...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.href),
		...[...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((script) => script.src),
		...[...document.querySelectorAll('astro-island')].flatMap((island) => [
			island.getAttribute('component-url'),
			island.getAttribute('renderer-url'),
		]),
	]);
	const files = [...new Set(assets.filter((url): url is string => Boolean(url)))];
	expect(files.length).toBeGreaterThan(0);
	for (const url of files) {
		const response = await request.get(url);
		expect(response.status(), url).toBe(200);
		expect(response.headers()['content-type'], url).toMatch(/javascript/);
	}
	// The styles applied: the top bar sticks to the top and lays its row out as a flex box.
	expect(await page.locator('.top-bar').evaluate((element) => getComputedStyle(element).position)).toBe('sticky');
	expect(await page.locator('.top-bar-inner').evaluate((element) => getComputedStyle(element).display)).toBe('flex');
});

test('a post’s live room opens on Pages through the companion Worker’s Durable Object, and answers the keep-alive', async ({ page }) => {
	const postId = demoIds().postWithImage;
	await page.goto(`/starfall/global/posts/${postId}`);
	const answered = await page.evaluate(
		(path) =>
			new Promise<string>((resolve) => {
				const socket = new WebSocket(new URL(path, location.href.replace(/^http/, 'ws')));
				socket.addEventListener('open', () => socket.send('ping'));
				socket.addEventListener('message', (event) => {
					resolve(String(event.data));
					socket.close();
				});
				socket.addEventListener('close', (event) => resolve(`closed ${event.code}`));
			}),
		`/public/v1/starfall/global/live/posts/${postId}`,
	);
	expect(answered).toBe('pong');
});
