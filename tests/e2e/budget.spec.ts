import { expect, test } from './test';
import type { Page } from '@playwright/test';
import { brotliCompressSync, constants } from 'node:zlib';

/**
 * Budget: an anonymous post page (and a board page) loads at most 8 KB (brotli) of JavaScript before
 * any interaction (it was 15 KB until the page reached 8.5 KB; docs/decisions/performance.md). Inline scripts
 * count; the structured data (`application/ld+json`, docs/reference/seo.md) is data that no browser runs, and does not.
 */
const INLINE_SCRIPTS = 'script:not([src]):not([type="application/ld+json"])';
const BUDGET_BYTES = 8 * 1024;

const brotli = (text: string | Buffer) => brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/**
 * The scripts the page fetches from now on, each with its size (brotli), once every body is read:
 * `settled()` waits for the reads, so that none lands after the sum (or before, from the page before).
 */
function scriptsFetched(page: Page): { settled: () => Promise<{ url: string; bytes: number }[]> } {
	const reads: Promise<{ url: string; bytes: number }>[] = [];
	page.on('response', (response) => {
		if (response.request().resourceType() !== 'script') return;
		reads.push(response.body().then((body) => ({ url: response.url(), bytes: brotli(body) })));
	});
	return { settled: () => Promise.all(reads) };
}

for (const [name, path] of [
	['post page', '/starfall/global/posts/10'],
	['board page', '/starfall/global/boards/12'],
] as const) {
	test(`an anonymous ${name} loads at most 8 KB of JavaScript (brotli) before any interaction`, async ({ page }) => {
		const fetched = scriptsFetched(page);
		await page.goto(path);
		await page.waitForLoadState('networkidle');
		const scripts = await fetched.settled();
		const inline = await page.evaluate(
			(selector) => [...document.querySelectorAll(selector)].map((script) => script.textContent ?? '').join('\n'),
			INLINE_SCRIPTS,
		);
		const external = scripts.reduce((sum, script) => sum + script.bytes, 0);
		const total = external + brotli(inline);
		test.info().annotations.push({
			type: 'js-bytes-brotli',
			description: `${total} (inline ${brotli(inline)}, files ${external}: ${scripts.map((s) => `${s.url.split('/').pop()} ${s.bytes}`).join(', ') || 'none'})`,
		});
		console.log(`${name}: ${total} bytes of JavaScript (brotli) before interaction`);
		expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
		// No island runtime (Astro's island client, React, the search island) is fetched until the reader interacts.
		expect(scripts.filter((script) => /\/(?:client|react|jsx-runtime|SearchBox|SearchBoxIsland)\.[\w-]+\.js$/.test(script.url))).toEqual([]);
	});
}

/** Issue budget: the write page loads at most 150 KB (brotli) of JavaScript before the editor is usable. */
const WRITE_BUDGET_BYTES = 150 * 1024;

test('the write page loads at most 150 KB of JavaScript (brotli) before the editor is usable', async ({ page }) => {
	const { community, signInMember } = await import('./write-helpers');
	const channel = await community('/starfall/global');
	await signInMember(page, channel, 25, '/starfall/global/boards/12');
	// The board page's own scripts are all in before counting starts.
	await page.waitForLoadState('networkidle');
	const fetched = scriptsFetched(page);
	await page.goto('/starfall/global/write?boardId=12', { waitUntil: 'commit' });
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	await page.waitForLoadState('networkidle');
	const scripts = await fetched.settled();
	const inline = await page.evaluate(
		(selector) => [...document.querySelectorAll(selector)].map((script) => script.textContent ?? '').join('\n'),
		INLINE_SCRIPTS,
	);
	const external = scripts.reduce((sum, script) => sum + script.bytes, 0);
	const total = external + brotli(inline);
	test.info().annotations.push({
		type: 'js-bytes-brotli',
		description: `${total} (inline ${brotli(inline)}, files ${external}: ${scripts.map((s) => `${s.url.split('/').pop()} ${s.bytes}`).join(', ')})`,
	});
	console.log(`write page: ${total} bytes of JavaScript (brotli) before the editor is usable`);
	expect(scripts.some((script) => /RichEditor|WriteForm/.test(script.url))).toBe(true);
	expect(total).toBeLessThanOrEqual(WRITE_BUDGET_BYTES);
});
