/**
 * The read rate limits as a reader meets them (docs/reference/rate-limits.md): past the search limit, the
 * results page answers 429 with Retry-After and a page that says to wait and offers Retry, in the
 * community's layout, on a phone; so does a member's profile past the profile limit. The member is
 * the test's own (the limiters count a member's reads across every test of a run, and the demo's
 * members are other tests' readers: the private post's author is read as by three files). A guest who makes up
 * post or comment ids (each a new edge-cache key, so a read of D1) gets the same page past the
 * limit of post reads, and a made-up comment id is never stored (docs/reference/edge-cache.md).
 */
import { LIMITERS, RATE_LIMITS } from '@/server/platform/rate-limit';
import { roundTripsOf } from '../round-trip-budget';
import type { APIResponse, Page, Response } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { signInContext } from './sessions';
import { freshMember } from './write-helpers';

/**
 * Asks `ask(n)` (n counts the answers so far; one ask may send several requests at once) until the limiter
 * refuses one: within up to three windows' worth, since the limiter's window follows the clock and may end
 * mid-way. The statuses in order, and the refusal.
 */
async function untilRefused(
	limit: number,
	ask: (n: number) => Promise<APIResponse | APIResponse[]>,
): Promise<{ statuses: number[]; refused: APIResponse }> {
	const statuses: number[] = [];
	while (statuses.length < 3 * limit + 1) {
		const responses = [await ask(statuses.length)].flat();
		statuses.push(...responses.map((response) => response.status()));
		const refused = responses.find((response) => response.status() === 429);
		if (refused) return { statuses, refused };
	}
	throw new Error(`No refusal after ${statuses.length} asks`);
}

/**
 * Opens `path` right after a refusal, to see the page that says to wait. The limiter's window may turn between the
 * two (then the page is let through): the budget is spent again and the page opened again, twice at most.
 */
async function refusedPage(page: Page, path: (again: number) => string, spend: () => Promise<unknown>): Promise<Response | null> {
	let shown = await page.goto(path(0));
	for (let again = 1; shown?.status() !== 429 && again <= 2; again += 1) {
		await spend();
		// Another address each time: the one let through may be a stored answer now.
		shown = await page.goto(path(again));
	}
	return shown;
}

test('a member past the search or the profile limit gets a page that says to wait, with 429 and Retry-After', async ({ page }) => {
	const member = freshMember('Limits');
	await signInContext(page.context(), { index: 1, domain: 'starfall', slug: 'global' }, member.id);
	await page.goto('/starfall/global/boards');
	await expect(page.locator('[data-member-nickname]').first()).toHaveText(member.nickname);
	const { limit, periodSeconds } = LIMITERS[RATE_LIMITS.search.member];
	const search = (n: number) => page.request.get(`/starfall/global/search?q=limit${n}`);
	// None of the first `limit` searches is refused (a window that ends mid-way lets more through).
	const { statuses, refused } = await untilRefused(limit, search);
	expect(statuses.slice(0, limit), 'the first searches of the window').toEqual(Array(limit).fill(200));
	expect(refused.headers()['retry-after']).toBe(String(periodSeconds));
	expect(refused.headers()['cache-control']).toContain('no-store');
	// The refusal as the reader sees it, on a phone: within the same window, so refused again.
	await page.setViewportSize({ width: 390, height: 844 });
	const shown = await refusedPage(
		page,
		(again) => `/starfall/global/search?q=waiting${again || ''}`,
		() => untilRefused(limit, search),
	);
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
	const { statuses: profileStatuses, refused: profileRefused } = await untilRefused(profile, (n) =>
		page.request.get(`/starfall/global/users/${1002 + (n % 20)}`),
	);
	expect(profileStatuses.slice(0, profile), 'the first profiles of the window').toEqual(Array(profile).fill(200));
	expect(profileRefused.headers()['retry-after']).toBe(String(periodSeconds));
	expect(await profileRefused.text()).toContain('Please wait a minute and try again.');
});

test('a comment id that names no comment of the post sends a guest to the post, and none of 100 such answers is stored', async ({ page }) => {
	const [found] = execute(
		`SELECT c.post_id AS postId, c.id AS commentId FROM comments c JOIN posts p ON p.id = c.post_id JOIN boards b ON b.id = p.board_id
		 WHERE c.channel_id = 1 AND c.deleted_at IS NULL AND c.hidden_by_admin = 0 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0
		 AND p.is_private = 0 AND b.is_public = 1 ORDER BY c.id DESC LIMIT 1`,
	) as { postId: number; commentId: number }[];
	const { postId, commentId } = found!;
	const post = `/starfall/global/posts/${postId}`;
	const ask = async (query: string) => {
		const response = await page.request.get(`${post}?${query}`, { maxRedirects: 0 });
		const trips = roundTripsOf(response.headers()['server-timing'] ?? null);
		return { status: response.status(), location: response.headers()['location'], cache: response.headers()['x-edge-cache'], trips: trips?.trips };
	};
	// Each made-up id is read once (one round trip) and sent to the post; the answer is not kept. A new
	// post of another test moves the channel's lists, and the next such URL reads the layout again
	// (its canonical form is normalised against it): that one is asked once more.
	for (let i = 0; i < 100; i += 1) {
		const query = `${i % 2 === 0 ? 'commentId' : 'commentsAfter'}=${900_000_000 + i}`;
		let answer = await ask(query);
		if (answer.trips !== 1) answer = await ask(query);
		expect(answer, query).toEqual({ status: 302, location: post, cache: 'BYPASS', trips: 1 });
	}
	expect((await ask('commentId=900000000')).cache).toBe('BYPASS');
	// The post's own comment is a key of its own, kept and answered from the cache after.
	expect((await ask(`commentId=${commentId}`)).status).toBe(200);
	expect(await ask(`commentId=${commentId}`)).toMatchObject({ status: 200, cache: 'HIT', trips: 0 });
	// A reader who follows such a link lands on the post.
	await page.goto(`${post}?commentId=900000001#comment-900000001`);
	await expect(page).toHaveURL(new RegExp(`${post}#comment-900000001$`));
	await expect(page.locator(`article[data-post-id="${postId}"]`)).toBeVisible();
});

test('a guest past the limit of post reads (made-up post ids) gets a page that says to wait, with 429 and Retry-After', async ({ page }) => {
	// Hundreds of reads: more time than a test's default on a busy machine.
	test.setTimeout(240_000);
	const { limit, periodSeconds } = LIMITERS[RATE_LIMITS.postRead.address];
	// Each made-up post id is a new key, so a read of D1 (the API's, the cheapest to send), ten at a
	// time: counted until the address is refused, within up to three windows' worth as above.
	let sent = 0;
	const spend = () =>
		untilRefused(limit, () =>
			Promise.all(Array.from({ length: 10 }, () => page.request.get(`/public/v1/starfall/global/posts/${800_000_000 + sent++}`))),
		);
	const { statuses, refused } = await spend();
	// None refused before the limit (a window that ends mid-way lets more through).
	expect(statuses.every((status) => status === 404 || status === 429)).toBe(true);
	expect(statuses.filter((status) => status === 404).length).toBeGreaterThanOrEqual(limit);
	expect(refused.headers()['retry-after']).toBe(String(periodSeconds));
	// The post page of another made-up id, within the same window: the page that says to wait.
	const shown = await refusedPage(page, (again) => `/starfall/global/posts/${899_999_999 - again}`, spend);
	expect(shown?.status()).toBe(429);
	expect(shown?.headers()['cache-control']).toContain('no-store');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Too many requests');
	await expect(page.getByText('Please wait a minute and try again.')).toBeVisible();
	await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
});
