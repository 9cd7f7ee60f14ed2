import type { Page } from '@playwright/test';
import { expect, test } from './test';

/**
 * The browser side of the route-level codes of docs/reference/product-rules.md#errors-and-texts. The server side of sessions and bans is the
 * sign-in issue's; here the auth-status answer is given to the page as the API will send it.
 */
async function answerAuthStatus(page: Page, resultCode: number, extra: object = {}) {
	// A browser that signed in before: it holds the stored user id.
	await page.goto('/starfall/global/boards/12');
	await page.evaluate(() => localStorage.setItem('app:starfall-global-userId', '1002'));
	await page.route('**/public/v1/starfall/global/auth/status', (route) =>
		route.fulfill({
			status: Math.floor(-resultCode / 10000) % 1000,
			contentType: 'application/json',
			body: JSON.stringify({ header: { isSuccessful: false, resultCode, resultMessage: '' }, ...extra }),
		}),
	);
}

test('a guest page asks nothing about the session', async ({ page }) => {
	const asked: string[] = [];
	page.on('request', (request) => {
		if (request.url().includes('/auth/status')) asked.push(request.url());
	});
	await page.goto('/starfall/global/boards/12');
	await page.waitForLoadState('networkidle');
	expect(asked).toEqual([]);
});

test('a temporary ban shows its end as yyyy.MM.dd HH:mm and confirm leaves the reader on the page', async ({ page }) => {
	await answerAuthStatus(page, -4031452, { ban: { kind: 'TEMPORARY', endsAt: Date.UTC(2027, 5, 30, 15, 0), reason: 'Spam' } });
	await page.goto('/starfall/global/boards/13');
	const dialog = page.getByRole('dialog');
	await expect(dialog).toContainText('Your access to this community is restricted until 2027.06.30 15:00.');
	const reloaded = page.waitForEvent('load');
	await dialog.getByRole('button', { name: 'OK' }).click();
	// A banned member still reads: the page is loaded again where it was (a session's page then tells the ban itself).
	await reloaded;
	await expect(page).toHaveURL(/\/starfall\/global\/boards\/13$/);
});

test('a permanent ban shows the permanent message', async ({ page }) => {
	await answerAuthStatus(page, -4031452, { ban: { kind: 'PERMANENT', endsAt: null } });
	await page.goto('/starfall/global/boards/13');
	await expect(page.getByRole('dialog')).toContainText('Your access to this community has been permanently restricted.');
});

for (const code of [-4011401, -4011415, -4011411, -4011416, -4011402]) {
	test(`${code} forces login: confirm clears the stored user id and replaces history with login`, async ({ page }) => {
		await answerAuthStatus(page, code);
		await page.goto('/starfall/global/boards/13?page=2');
		const dialog = page.getByRole('dialog');
		await expect(dialog).toContainText('Please log in to continue.');
		await dialog.getByRole('button', { name: 'Log in' }).click();
		await expect(page).toHaveURL(/\/starfall\/global\/login\?redirectUrl=%2Fstarfall%2Fglobal%2Fboards%2F13%3Fpage%3D2$/);
		expect(await page.evaluate(() => localStorage.getItem('app:starfall-global-userId'))).toBeNull();
		// History was replaced: going back skips the page that forced the login.
		await page.goBack();
		await expect(page).toHaveURL(/\/starfall\/global\/boards\/12$/);
	});
}
