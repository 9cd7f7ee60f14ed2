/**
 * Serves the built site for the browser tests: a fresh local D1 in .wrangler/test-state, migrated
 * and seeded with the demo data (or a copy of the last such database: scripts/lib/seeded.mjs), so
 * every run starts from the same state, and the local OpenID
 * provider on --idp-port (at http://localhost, a different site from the app at 127.0.0.1, so
 * Apple's form POST is cross-site as in production), the local Turnstile on --turnstile-port
 * (default: the port + 2) and the local mail capture on the port + 7; wrangler itself on the port + 3,
 * with the port passing each connection to the Worker's runtime (scripts/lib/direct-port.mjs); the state folder's
 * D1s answer the browser tests' SQL on the port + 8, through a Worker run beside the site (scripts/lib/sql-endpoint.mjs). SITE_ORIGIN is the origin the
 * browser tests open (their baseURL, http://127.0.0.1:PORT), as a deployment sets its own: the links
 * in emails are built on it, and no email is sent without it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/wrangler.mjs';
import { freshDemoState } from './lib/seeded.mjs';
import { localVars, serveBuild } from './lib/server.mjs';
import { startIdentityProvider } from './idp/server.mjs';
import { startTurnstile } from './turnstile/server.mjs';
import { startMailCapture } from './mail/server.mjs';
import { forwardToWorker } from './lib/direct-port.mjs';
import { serveSql, SQL_WORKER_CONFIG } from './lib/sql-endpoint.mjs';

const { values } = parseArgs({
	options: { port: { type: 'string', default: '8790' }, 'idp-port': { type: 'string', default: '8791' }, 'turnstile-port': { type: 'string' } },
});
const persistTo = path.join(ROOT, '.wrangler', 'test-state');
// Each stage says when it starts, so a server that never answers shows where it stopped.
const stage = (/** @type {string} */ what) => console.log(`[serve-test ${new Date().toISOString()}] ${what}`);
stage('migrating and seeding the test database');
freshDemoState(persistTo);
const port = Number(values.port);
stage('starting the stand-ins and wrangler');
const idp = await startIdentityProvider({ port: Number(values['idp-port']), appOrigins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`] });
const turnstile = await startTurnstile({ port: Number(values['turnstile-port'] ?? port + 2) });
// The local mail capture (the port + 7): the browser tests read the emails it keeps.
const mail = await startMailCapture({ port: port + 7 });
// The variables `npm start` gives the Worker (localVars), on this server's origin. wrangler serves on
// the port + 3, and the browser tests reach the Worker's runtime past wrangler's proxy on the port
// itself (scripts/lib/direct-port.mjs: the proxy cost as much CPU a request as the Worker).
// The browser tests' SQL Worker runs beside the site (tests/e2e/database.ts, scripts/lib/sql-endpoint.mjs).
const wrangler = serveBuild({
	port: port + 3,
	persistTo,
	vars: localVars({ idp, turnstile, mail, origin: `http://127.0.0.1:${port}` }),
	auxiliary: [SQL_WORKER_CONFIG],
});
await serveSql({ port: port + 8, persistTo, wranglerPid: wrangler.pid });
await forwardToWorker({ port, wranglerPid: wrangler.pid, proxyPort: port + 3, readyPath: '/starfall/global/boards', log: stage });
