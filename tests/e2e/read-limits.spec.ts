/**
 * The read rate limits as a reader meets them (docs/rate-limits.md): past the search limit, the
 * results page answers 429 with Retry-After and a page that says to wait and offers Retry, in the
 * community's layout, on a phone; so does a member's profile past the profile limit. The member is
 * one no other test signs in as, so that their budget is this test's alone.
 */
import { LIMITERS, RATE_LIMITS } from '@/server/platform/rate-limit';
import { expect, test } from './test';
import { execute } from './fixtures';
import { signInContext } from './sessions';

test('a member past the search or the profile limit gets a page that says to wait, with 429 and Retry-After', async ({ page }) => {
	const [member] = execute("SELECT id FROM members WHERE channel_id = 1 AND nickname = 'rustbucket99'") as { id: number }[];
	await signInContext(page.context(), { index: 1, domain: 'starfall', slug: 'global' }, member!.id);
	await page.goto('/starfall/global/boards');
	await expect(page.locator('[data-member-nickname]').first()).toHaveText('rustbucket99');
	const { limit, periodSeconds } = LIMITERS[RATE_LIMITS.search.member];
	const statuses: number[] = [];
	// The limiter's window follows the clock and may end mid-way: up to three windows' worth go out
	// before the refusal must have come, and none of the first `limit` is refused.
	let refused = null;
	while (!refused && statuses.length < 3 * limit + 1) {
		const response = await page.request.get(`/starfall/global/search?q=limit${statuses.length}`);
		statuses.push(response.status());
		if (response.status() === 429) refused = response;
	}
	expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
	if (!refused) throw new Error(`No refusal after ${statuses.length} searches`);
	expect(refused.headers()['retry-after']).toBe(String(periodSeconds));
	expect(refused.headers()['cache-control']).toContain('no-store');
	// The refusal as the reader sees it, on a phone: still within the minute, so refused again.
	await page.setViewportSize({ width: 390, height: 844 });
	const shown = await page.goto('/starfall/global/search?q=waiting');
	expect(shown?.status()).toBe(429);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Too many requests');
	await expect(page.getByText('Please wait a minute and try again.')).toBeVisible();
	const retry = page.getByRole('button', { name: 'Retry' });
	await expect(retry).toBeVisible();
	const box = await retry.boundingBox();
	expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);
	// Still the community's page: the header and the search box are there.
	await expect(page.getByRole('search')).toBeVisible();
	await retry.focus();
	await expect(retry).toBeFocused();

	// Members' profiles have their own budget, and the same refusal past it.
	const profile = LIMITERS[RATE_LIMITS.profile.member].limit;
	const profileStatuses: number[] = [];
	let profileRefused = null;
	while (!profileRefused && profileStatuses.length < 3 * profile + 1) {
		const response = await page.request.get(`/starfall/global/users/${1002 + (profileStatuses.length % 20)}`);
		profileStatuses.push(response.status());
		if (response.status() === 429) profileRefused = response;
	}
	expect(profileStatuses.slice(0, profile).every((status) => status === 200)).toBe(true);
	if (!profileRefused) throw new Error(`No refusal after ${profileStatuses.length} profiles`);
	expect(profileRefused.headers()['retry-after']).toBe(String(periodSeconds));
	expect(await profileRefused.text()).toContain('Please wait a minute and try again.');
});
