/**
 * The Popular order of a board and All Posts on a phone (390 × 844), in English and Korean: the
 * Latest | Popular tabs, the order the stored hot score gives (read from the local D1), the keyset
 * pages, noindex, the member's page made from the guest's, and a made-up `after` sent to the first
 * page without being stored.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf } from './write-helpers';
import { signInContext } from './sessions';

test.use({ viewport: { width: 390, height: 844 } });
// The order is read through wrangler's local D1 (a process per statement): an upper bound, not a timing.
test.describe.configure({ timeout: 120_000 });

const PAGE_SIZE = 20;

/** The Popular order of a board's listed posts (or All Posts'), as the index holds it. */
function popularOrder(where: string): number[] {
	return (execute(`SELECT id FROM posts WHERE ${where} ORDER BY hot DESC, id DESC`) as { id: number }[]).map((row) => row.id);
}

const shownIds = (page: Page) =>
	page.locator('[data-post-id]').evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset['postId'])));

async function expectNoOverflow(page: Page): Promise<void> {
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

for (const { path, latest, popular, more, first } of [
	{ path: '/starfall/global', latest: 'Latest', popular: 'Popular', more: 'More popular posts', first: 'Back to the top' },
	{ path: '/starfall/kr', latest: '최신', popular: '인기', more: '인기 글 더 보기', first: '처음으로' },
]) {
	test(`${path}: a reader switches a board to Popular, sees the posts by hot score, and pages on`, async ({ page }) => {
		const channel = await community(path);
		const board = boardOf(channel, 'general');
		await page.goto(`${path}/boards/${board}`);
		const tabs = page.getByRole('navigation', { name: path.endsWith('kr') ? '글 정렬' : 'Order of posts' });
		await expect(tabs.getByRole('link', { name: latest })).toHaveAttribute('aria-current', 'page');
		const popularTab = tabs.getByRole('link', { name: popular });
		const box = await popularTab.boundingBox();
		expect(box?.height).toBeGreaterThanOrEqual(44);
		await expectNoOverflow(page);

		await popularTab.click();
		await expect(page).toHaveURL(`${path}/boards/${board}?sort=popular`);
		await expect(tabs.getByRole('link', { name: popular })).toHaveAttribute('aria-current', 'page');
		await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
		const order = popularOrder(`board_id = ${board} AND board_seq IS NOT NULL`);
		expect(await shownIds(page)).toEqual(order.slice(0, PAGE_SIZE));
		await expectNoOverflow(page);

		// The demo's general board has more than a page of posts.
		expect(order.length).toBeGreaterThan(PAGE_SIZE);
		{
			await page.getByRole('link', { name: more }).click();
			await expect(page).toHaveURL(`${path}/boards/${board}?after=${order[PAGE_SIZE - 1]}&sort=popular`);
			expect(await shownIds(page)).toEqual(order.slice(PAGE_SIZE, 2 * PAGE_SIZE));
			await page.getByRole('link', { name: first }).click();
			await expect(page).toHaveURL(`${path}/boards/${board}?sort=popular`);
		}
	});
}

test('All Posts in Popular order, and a member’s Popular page is the guest’s with their parts', async ({ page }) => {
	const channel = await community('/starfall/global');
	await page.goto('/starfall/global/boards');
	await page.getByRole('link', { name: 'Popular', exact: true }).click();
	await expect(page).toHaveURL('/starfall/global/boards?sort=popular');
	const order = popularOrder(`channel_id = ${channel.index} AND channel_seq IS NOT NULL`);
	expect(await shownIds(page)).toEqual(order.slice(0, PAGE_SIZE));

	// A minted session, straight to the page looked at.
	await signInContext(page.context(), channel, memberIdOf(channel, 31));
	const answer = await page.goto('/starfall/global/boards?sort=popular');
	expect(answer?.headers()['x-member-page']).toBe('REWRITTEN');
	expect(await shownIds(page)).toEqual(order.slice(0, PAGE_SIZE));
});

test('an after that names no post of the list is sent to the first Popular page, and that answer is not stored', async ({ page }) => {
	const board = boardOf(await community('/starfall/global'), 'general');
	// A post of another board: not in this list.
	const [other] = execute(`SELECT id FROM posts WHERE board_id <> ${board} AND channel_id = 1 AND board_seq IS NOT NULL LIMIT 1`) as { id: number }[];
	for (const after of [String(other!.id), '999999999']) {
		const answer = await page.request.get(`/starfall/global/boards/${board}?sort=popular&after=${after}`, { maxRedirects: 0 });
		expect(answer.status()).toBe(302);
		expect(answer.headers()['location']).toBe(`/starfall/global/boards/${board}?sort=popular`);
		expect(answer.headers()['cache-control']).toBe('no-store');
		const again = await page.request.get(`/starfall/global/boards/${board}?sort=popular&after=${after}`, { maxRedirects: 0 });
		expect(again.headers()['x-edge-cache']).not.toBe('HIT');
	}
});
