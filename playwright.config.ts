import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { E2E_PORT, TEST_SERVER_COMMAND, TEST_SERVER_READY_URL } from './tests/test-server';

export { E2E_PORT };

/**
 * Debian's chromium-headless-shell (the headless-only build Playwright itself runs headless tests on)
 * when it is installed, as `.ci/run` does: a new browser context and a page load cost it about a
 * quarter of the CPU the full browser's new headless mode takes. CHROMIUM_PATH chooses another.
 */
const CHROMIUM =
	process.env['CHROMIUM_PATH'] ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file)) ?? '/usr/bin/chromium';

/**
 * Extra Chromium switches for one run, apart by spaces (a value in double quotes may hold spaces): how
 * scripts/e2e-cpu.mjs measures a candidate against the same run without it (docs/guides/testing.md).
 */
const EXTRA_ARGS = (process.env['E2E_CHROMIUM_ARGS']?.match(/[^\s"]*"[^"]*"|\S+/g) ?? []).map((item) => item.replaceAll('"', ''));

export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '**/*.spec.ts',
	// The Pages build's own checks (playwright.pages.config.ts).
	testIgnore: '**/pages-platform.spec.ts',
	fullyParallel: true,
	workers: 2,
	forbidOnly: Boolean(process.env['CI']),
	retries: 0,
	// Upper bounds, not timings: the suite must pass on a busy 2-core machine as on an idle one.
	timeout: 60_000,
	expect: { timeout: 10_000 },
	reporter: [['list'], ['json', { outputFile: '.test-reports/e2e.json' }]],
	use: {
		baseURL: `http://127.0.0.1:${E2E_PORT}`,
		launchOptions: {
			executablePath: CHROMIUM,
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				// The compositor in the browser process, in software: no gpu-process (SwiftShader's GL
				// compositing of every frame, and the IPC to it). Chromium's CPU for the same tests 14% less
				// (scripts/e2e-cpu.mjs on five spec files, back to back; docs/guides/testing.md).
				'--in-process-gpu',
				'--disable-gpu-compositing',
				...EXTRA_ARGS,
			],
		},
		viewport: { width: 1280, height: 900 },
	},
	webServer: {
		command: TEST_SERVER_COMMAND,
		url: TEST_SERVER_READY_URL,
		// `npm test` starts this same command while the type check and lint run, and says so
		// (scripts/test.mjs); anywhere else a server already on the port is an error, never reused.
		reuseExistingServer: process.env['E2E_SERVER_STARTED'] === TEST_SERVER_COMMAND,
		// Seeding and starting wrangler took over 120 s on a 2-core machine that others shared.
		timeout: 300_000,
		stdout: 'ignore',
		stderr: 'pipe',
	},
});
