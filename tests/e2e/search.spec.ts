/**
 * Search in Chromium: the box leads to the results page in each demo language, the
 * matches are marked as text (a title holding a script tag is shown, never run), a hidden post is
 * never found, and the keyword rules of docs/reference/product-rules.md#validation hold on the server when the box's rules could not run.
 */
import { expect, test } from './test';
import { signInContext } from './sessions';
import { community, memberIdOf } from './write-helpers';
import { demoIds, execute } from './fixtures';

const LANGUAGES = [
	{ path: '/starfall/global', query: 'raid', heading: 'Search results' },
	{ path: '/starfall/kr', query: '공략', heading: '검색 결과' },
	{ path: '/starfall/jp', query: 'イベ', heading: '検索結果' },
	{ path: '/starfall/tw', query: '活動', heading: '搜尋結果' },
];

for (const { path, query, heading } of LANGUAGES) {
	test(`searching ${path} for "${query}" from the box lists the posts with the match marked`, async ({ page }) => {
		await page.goto(`${path}/boards`);
		const box = page.getByRole('search');
		await box.locator('input[name="q"]').click();
		await expect(page.locator('[data-search-ready]')).toHaveCount(1);
		await box.locator('input[name="q"]').fill(query);
		await box.locator('input[name="q"]').press('Enter');
		await expect(page).toHaveURL(new RegExp(`${path}/search\\?`));
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
		const count = Number(await page.locator('[data-search-count]').getAttribute('data-search-count'));
		expect(count).toBeGreaterThan(0);
		const rows = page.locator('.post-row');
		expect(await rows.count()).toBe(Math.min(count, 20));
		for (const row of await rows.all()) {
			const marks = await row.locator('mark').allTextContents();
			expect(marks.length, (await row.textContent()) ?? '').toBeGreaterThan(0);
			expect(marks.every((mark) => mark.normalize('NFKC').toLowerCase() === query)).toBe(true);
		}
		await expect(page.locator('input[name="q"]')).toHaveValue(query);
	});
}

test('a title holding a script tag is found and shown as text, never run', async ({ page, baseURL }) => {
	// The demo's seventh member, with a minted session: the post goes through the context's `request`, and the first page loaded is the search.
	const channel = await community('/starfall/global');
	await signInContext(page.context(), channel, memberIdOf(channel, 6));
	const title = '<script>window.__searchXss = 1</script> Qzxsearchmark <img src=x onerror="window.__searchXss=2">';
	const answer = await page.request.post('/v1/starfall/global/posts', {
		headers: { origin: baseURL ?? '' },
		data: {
			boardId: 12,
			subjectId: null,
			title,
			isPrivate: false,
			isNotice: false,
			requestId: crypto.randomUUID(),
			content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'A body with <b>script</b> too.' }] }] },
		},
	});
	expect(answer.status()).toBe(200);
	await page.goto('/starfall/global/search?q=script&searchType=TITLE');
	const row = page.locator('.post-row').filter({ hasText: 'Qzxsearchmark' });
	await expect(row).toHaveCount(1);
	await expect(row.locator('.post-title')).toContainText('<script>window.__searchXss = 1</script>');
	await expect(row.locator('mark').first()).toHaveText('script');
	expect(await page.evaluate(() => (window as unknown as { __searchXss?: number }).__searchXss)).toBeUndefined();
	// (The author's avatar is the one image a row has: docs/reference/avatars.md.)
	expect(await row.locator('script, img:not(.avatar)').count()).toBe(0);
	// One match is counted in the singular.
	await page.goto('/starfall/global/search?q=Qzxsearchmark&searchType=TITLE');
	await expect(page.locator('[data-search-count]')).toHaveText('1 post contains “Qzxsearchmark”.');
});

test('a hidden post is never found, though its own title is searched', async ({ page }) => {
	const { hiddenPost } = demoIds();
	const [row] = execute(`SELECT title FROM posts WHERE id = ${hiddenPost}`) as { title: string }[];
	const query = Array.from(row!.title.trim()).slice(0, 8).join('');
	await page.goto(`/starfall/global/search?q=${encodeURIComponent(query)}&searchType=ALL`);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search results');
	await expect(page.locator(`[data-post-id="${hiddenPost}"]`)).toHaveCount(0);
});

test('the server answers a keyword the box would refuse with the texts of docs/reference/product-rules.md#validation and searches nothing', async ({
	page,
}) => {
	await page.goto('/starfall/global/search?q=a');
	await expect(page.getByRole('alert')).toHaveText('Please enter 2 or more characters.');
	await expect(page.locator('.post-row')).toHaveCount(0);
	await page.goto('/starfall/kr/search?q=%20%20');
	await expect(page.getByRole('alert')).toHaveText('검색어를 입력해 주세요.');
	await page.goto(`/starfall/global/search?q=${'x'.repeat(21)}`);
	await expect(page.getByRole('alert')).toHaveText('Please enter 2 or more characters.');
	await page.goto('/starfall/global/search?q=zzqqnothing');
	await expect(page.locator('[data-search-empty]')).toHaveText('No posts contain “zzqqnothing”.');
});

test('a results page is readable on a phone without sideways scrolling', async ({ page }) => {
	await page.setViewportSize({ width: 360, height: 780 });
	await page.goto('/starfall/tw/search?q=%E6%B4%BB%E5%8B%95');
	await expect(page.locator('.post-row').first()).toBeVisible();
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('one character and Enter before the box is ready: the submit waits for the box, which refuses it', async ({ page }) => {
	let release: () => void = () => {};
	const released = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/_astro/SearchBoxIsland*', async (route) => {
		await released;
		await route.continue();
	});
	await page.goto('/starfall/global/boards');
	const input = page.locator('input[name="q"]');
	await input.focus();
	await page.keyboard.type('a');
	await page.keyboard.press('Enter');
	// The plain form did not leave the page: the submit is held until the island's rules can run.
	await expect(page).toHaveURL(/\/starfall\/global\/boards$/);
	release();
	const dialog = page.getByRole('dialog');
	await expect(dialog).toContainText('Please enter 2 or more characters.');
	await expect(page).toHaveURL(/\/starfall\/global\/boards$/);
	await expect(page.locator('[data-search-ready] input[name="q"]')).toHaveValue('a');
});
