/**
 * What the Cloudflare Pages build must give the Worker besides what readers see (run by
 * playwright.pages.config.ts only; the main configuration leaves it out): the rate limiters count
 * through the companion Worker's service binding, since Pages has no Rate Limiting binding, and
 * neither Worker's code or configuration is served as a file.
 */
import { LIMITERS, RATE_LIMITS } from '@/server/platform/rate-limit';
import { expect, test } from './test';

test('the rate limiters count on Pages: a client past the sign-up steps’ limit is refused with Retry-After', async ({ request, baseURL }) => {
	const { limit, periodSeconds } = LIMITERS[RATE_LIMITS.signup.address];
	const statuses: number[] = [];
	let refused: Awaited<ReturnType<typeof request.post>> | undefined;
	// The limiter's windows follow the clock and one may end mid-way, so up to three windows' worth
	// go out before the refusal must have come. Each request is counted, then fails validation (400).
	while (!refused && statuses.length < 3 * limit + 1) {
		const response = await request.post('/v1/starfall/global/signup/terms', { headers: { Origin: baseURL ?? '' }, data: {} });
		statuses.push(response.status());
		if (response.status() === 429) refused = response;
	}
	expect(statuses.filter((status) => status !== 429 && status !== 400)).toEqual([]);
	expect(statuses.length).toBeGreaterThan(limit);
	if (!refused) throw new Error(`No refusal after ${statuses.length} requests`);
	expect(refused.headers()['retry-after']).toBe(String(periodSeconds));
	const body = (await refused.json()) as { header: { isSuccessful: boolean; resultCode: number } };
	expect(body.header.isSuccessful).toBe(false);
});

test('the Workers’ code and configuration are not served as files', async ({ request }) => {
	for (const file of ['/_worker.js', '/_worker.js/index.js', '/_worker.js/chunks', '/index.js', '/wrangler.toml', '/companion/index.js', '/companion/wrangler.toml']) {
		const response = await request.get(file);
		expect(response.status(), file).toBe(404);
		expect(await response.text(), file).not.toContain('export');
	}
});
