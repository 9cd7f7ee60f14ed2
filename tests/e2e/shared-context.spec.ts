import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './test';

/**
 * The worker's shared browser context (tests/e2e/shared-context.ts): the next test gets the same
 * context with nothing of the test before it left in it, and a test that did what a reset cannot
 * undo leaves the next one a new context. The tests run in order in one worker.
 */
test.describe.configure({ mode: 'serial' });

const BOARD = '/starfall/global/boards/12';

/** The contexts earlier tests of this file used, by the test's name. */
const seen = new Map<string, BrowserContext>();

/** What the page and its context hold that a test could leave behind. */
async function leftovers(page: Page) {
	const inPage = await page.evaluate(async () => ({
		localStorage: Object.keys(localStorage),
		sessionStorage: Object.keys(sessionStorage),
		cookies: document.cookie,
		databases: (await indexedDB.databases()).map((database) => database.name),
		serviceWorkers: (await navigator.serviceWorker.getRegistrations()).length,
		clipboard: (await navigator.permissions.query({ name: 'clipboard-read' as PermissionName })).state,
		routed: (await fetch('/left-by-a-route')).status,
	}));
	return { ...inPage, contextCookies: (await page.context().cookies()).map((cookie) => cookie.name) };
}

const CLEAN = {
	localStorage: [],
	sessionStorage: [],
	cookies: '',
	databases: [],
	serviceWorkers: 0,
	clipboard: 'prompt',
	routed: 404,
	contextCookies: [],
};

test('a test leaves storage, cookies, a permission and a route in its context', async ({ page, context }) => {
	seen.set('first', context);
	await context.route('**/left-by-a-route', (route) => route.fulfill({ status: 200, body: 'routed' }));
	await context.grantPermissions(['clipboard-read']);
	await context.addCookies([{ name: 'left', value: '1', url: 'http://127.0.0.1/' }]);
	await page.goto(BOARD);
	await page.evaluate(async () => {
		localStorage.setItem('left', '1');
		sessionStorage.setItem('left', '1');
		document.cookie = 'left-by-script=1';
		await new Promise((resolve, reject) => {
			const open = indexedDB.open('left', 1);
			open.onupgradeneeded = () => open.result.createObjectStore('things');
			open.onsuccess = () => (open.result.close(), resolve(undefined));
			open.onerror = () => reject(open.error);
		});
		await navigator.serviceWorker.register('/notification-sw.js');
		await navigator.serviceWorker.ready;
	});
	const left = await leftovers(page);
	expect(left, 'what the test left').toMatchObject({
		localStorage: ['left'],
		sessionStorage: ['left'],
		databases: ['left'],
		serviceWorkers: 1,
		clipboard: 'granted',
		routed: 200,
	});
	expect(left.contextCookies.sort(), 'the cookies the test left').toEqual(['left', 'left-by-script']);
});

test('the next test gets the same context with none of it', async ({ page, context }) => {
	expect(context, 'the shared context').toBe(seen.get('first'));
	expect(context.pages(), 'only the test’s own page').toEqual([page]);
	await page.goto(BOARD);
	expect(await leftovers(page), 'what is left').toEqual(CLEAN);
});

test('a test that sets a clock or leaves a listener spoils its context', async ({ page, context }) => {
	seen.set('spoiled', context);
	await page.clock.setFixedTime(new Date('2020-01-02T03:04:05Z'));
	context.on('request', () => undefined);
	await page.goto(BOARD);
	expect(await page.evaluate(() => new Date().getUTCFullYear()), 'the fixed clock').toBe(2020);
});

test('the test after it gets a new context, on the real clock', async ({ page, context }) => {
	expect(context, 'a new context').not.toBe(seen.get('spoiled'));
	expect(context, 'not the first one either').not.toBe(seen.get('first'));
	await page.goto(BOARD);
	expect(await page.evaluate(() => new Date().getUTCFullYear()), 'the real clock').toBeGreaterThan(2020);
	expect(await leftovers(page), 'what is left').toEqual(CLEAN);
});

test.describe('another viewport', () => {
	test.use({ viewport: { width: 390, height: 844 } });

	test('a test with other options gets a context of its own', async ({ page, context }) => {
		expect(context, 'not the default options’ context').not.toBe(seen.get('first'));
		await page.goto(BOARD);
		expect(await page.evaluate(() => window.innerWidth)).toBe(390);
	});
});

test.describe('a first visit', () => {
	test.use({ freshContext: true });

	test('a test that asks for a fresh context gets one', async ({ context }) => {
		expect(context, 'a context of its own').not.toBe(seen.get('first'));
		seen.set('fresh', context);
	});

	test('and the next test does too', async ({ context }) => {
		expect(context, 'another context of its own').not.toBe(seen.get('fresh'));
	});
});
