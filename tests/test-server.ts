/**
 * The browser tests' server as playwright.config.ts and `npm test` (scripts/test.mjs, which starts
 * it early) both name it: its port, its command and the page that answers once it is up. One home,
 * since Playwright reuses a server `npm test` started only when the two commands are the same.
 */

/** The test server's port (the local identity provider takes the next one); E2E_PORT moves both. */
export const E2E_PORT = Number(process.env['E2E_PORT'] ?? 8790);

/** The test server: the build on a freshly seeded database, with the local identity provider and Turnstile. */
export const TEST_SERVER_COMMAND = `node scripts/serve-test.mjs --port ${E2E_PORT} --idp-port ${E2E_PORT + 1}`;

/** A page that answers 200 once the server serves. */
export const TEST_SERVER_READY_URL = `http://127.0.0.1:${E2E_PORT}/starfall/global/boards`;
