/**
 * Serves the Pages build (dist-pages/, laid out here from the last `npm run build`) with
 * `wrangler pages dev` for the Pages smoke test (playwright.pages.config.ts): a fresh local D1 in
 * .wrangler/test-state, migrated and seeded with the demo data (scripts/lib/seeded.mjs), as scripts/serve-test.mjs does for
 * the Workers build. Readers only: no identity provider; the local Turnstile runs for its variables.
 * The state folder's D1s answer the browser tests' SQL on the port + 8 (scripts/lib/sql-endpoint.mjs).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/wrangler.mjs';
import { freshDemoState } from './lib/seeded.mjs';
import { serveBuild } from './lib/server.mjs';
import { layOutPages } from './lib/pages.mjs';
import { startTurnstile } from './turnstile/server.mjs';
import { serveSql, SQL_WORKER_CONFIG } from './lib/sql-endpoint.mjs';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8792' }, 'turnstile-port': { type: 'string' } } });
const persistTo = path.join(ROOT, '.wrangler', 'test-state');
freshDemoState(persistTo);
// The local Turnstile, as in the Workers build's test server: the Pages build reads the same variables.
const turnstile = await startTurnstile({ port: Number(values['turnstile-port'] ?? Number(values.port) + 2) });
// The browser tests' SQL Worker runs beside the site (tests/e2e/database.ts, scripts/lib/sql-endpoint.mjs).
const wrangler = serveBuild({ port: Number(values.port), persistTo, pagesDir: layOutPages(), vars: turnstile.vars, auxiliary: [SQL_WORKER_CONFIG] });
await serveSql({ port: Number(values.port) + 8, persistTo, wranglerPid: wrangler.pid });
