import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run screenshots` (scripts/screenshots.mjs): the reader's and the writer's journeys of
 * tests/e2e/journeys.ts photographed in every demo community at 390×844 and 1440×900, in the light
 * and the dark theme, into screenshots/ (git-ignored) for review. Not part of `npm test`: its
 * folder and file names are outside the other configs' testDir and testMatch. Its own port, so
 * that it can run beside the browser tests (though not in the same checkout: both serve
 * .wrangler/test-state).
 */
export const SCREENSHOTS_PORT = Number(process.env['SCREENSHOTS_PORT'] ?? 8796);

export default defineConfig({
	...base,
	testDir: 'tests/screenshots',
	testMatch: '**/*.shots.ts',
	testIgnore: [],
	// Four walks a community (two sizes, two themes), each under a minute on a busy machine.
	timeout: 300_000,
	reporter: [['list']],
	use: { ...base.use, baseURL: `http://127.0.0.1:${SCREENSHOTS_PORT}`, actionTimeout: 30_000 },
	webServer: {
		command: `node scripts/serve-test.mjs --port ${SCREENSHOTS_PORT} --idp-port ${SCREENSHOTS_PORT + 1}`,
		url: `http://127.0.0.1:${SCREENSHOTS_PORT}/starfall/global/boards`,
		reuseExistingServer: false,
		timeout: 120_000,
		stdout: 'ignore',
		stderr: 'pipe',
	},
});
