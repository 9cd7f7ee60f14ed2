import { expect, test } from './test';

// The board page is loaded once for the two tests that look at it: each is a step of its own.
test('a board page rendered by Astro on workerd shows posts read from D1; its search island hydrates on first interaction', async ({ page }) => {
	const scripts: string[] = [];
	page.on('request', (request) => {
		if (request.resourceType() === 'script') scripts.push(request.url());
	});
	const response = await page.goto('/starfall/global/boards/12');
	await test.step('a board page rendered by Astro on workerd shows posts read from D1', async () => {
		expect(response?.status(), 'the board page status').toBe(200);
		await expect(page.locator('h1#board-heading'), 'the board heading').toBeVisible();
		const rows = page.locator('.post-row');
		await expect(rows.first(), 'a post row').toBeVisible();
		// 20 posts of the page plus the pinned notices.
		expect(await rows.count(), 'the post rows').toBeGreaterThanOrEqual(20);
		await expect(page.locator('html'), 'the language').toHaveAttribute('lang', 'en');
	});
	await test.step('the search island hydrates on first interaction and its clear button responds to a click', async () => {
		await page.waitForLoadState('networkidle');
		expect(
			scripts.some((url) => url.includes('SearchBox')),
			'the search island before interaction',
		).toBe(false);
		const input = page.getByRole('searchbox');
		await input.click();
		await expect.poll(() => scripts.some((url) => url.includes('SearchBox')), { message: 'the search island after a click' }).toBe(true);
		await page.locator('[data-search-ready]').waitFor({ state: 'attached' });
		await input.fill('nebula');
		const clear = page.getByRole('button', { name: 'Clear search' });
		await expect(clear, 'the clear button with a keyword').toBeVisible();
		await clear.click();
		await expect(input, 'the box after clearing').toHaveValue('');
		await expect(clear, 'the clear button after clearing').toBeHidden();
	});
});

test('the channel index redirects by its exposure type', async ({ page }) => {
	await page.goto('/starfall/global');
	await expect(page).toHaveURL(/\/starfall\/global\/boards$/);
	await page.goto('/starfall/kr');
	await expect(page).toHaveURL(/\/starfall\/kr\/boards\/22$/);
});

test('an API route answers in the envelope', async ({ request }) => {
	const response = await request.get('/public/v1/starfall/global/boards/tree');
	expect(response.status()).toBe(200);
	const body = await response.json();
	expect(body.header).toEqual({ isSuccessful: true, resultCode: 0, resultMessage: '' });
	expect(Array.isArray(body.content)).toBe(true);
});

test('the site root is a directory of every community, each linking to its home', async ({ page }) => {
	const response = await page.goto('/');
	expect(response?.status()).toBe(200);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Communities');
	const links = page.locator('[data-community]');
	// The five demo communities, and any a test has just added from a file (channel-apply.spec.ts).
	for (const path of ['/starfall/global', '/starfall/kr', '/starfall/jp', '/starfall/tw', '/pixelfarm/main'])
		await expect(page.locator(`[data-community="${path}"]`)).toHaveCount(1);
	await expect(links.filter({ hasText: '스타폴 오디세이' })).toContainText('한국어');
	await links.filter({ hasText: 'Pixel Farm' }).click();
	await expect(page).toHaveURL(/\/pixelfarm\/main\/boards$/);
});
