import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The Pages smoke test: the readers' browser tests against the Cloudflare Pages build
 * (npm run build:pages) served by `wrangler pages dev` with the same kind of local D1. Run by
 * `npm test` after the main browser tests, on its own port.
 */
export const PAGES_E2E_PORT = Number(process.env['PAGES_E2E_PORT'] ?? 8792);

export default defineConfig({
	...base,
	// What a guest reads: boards, posts, navigation, the error pages and the page policy; the scripts
	// as Pages serves them with the inlined styles applied, and the rate limiters through the companion
	// Worker. The layout's measurements (layout.spec.ts) run on the Workers build only: the same CSS,
	// and 20 tests that took a fifth of this run (docs/guides/testing.md).
	testIgnore: [],
	testMatch: [
		'**/pages-platform.spec.ts',
		'**/reading.spec.ts',
		'**/foundation.spec.ts',
		'**/route-errors.spec.ts',
		'**/content-security-policy.spec.ts',
	],
	reporter: [['list'], ['json', { outputFile: '.test-reports/e2e-pages.json' }]],
	// The same browser and switches as the Workers build's tests (playwright.config.ts: no gpu-process).
	use: { ...base.use, baseURL: `http://127.0.0.1:${PAGES_E2E_PORT}` },
	webServer: {
		command: `node scripts/serve-pages-test.mjs --port ${PAGES_E2E_PORT}`,
		url: `http://127.0.0.1:${PAGES_E2E_PORT}/starfall/global/boards`,
		reuseExistingServer: false,
		timeout: 120_000,
		stdout: 'ignore',
		stderr: 'pipe',
	},
});
