/**
 * The browser tests' door to their server's local D1s. The test servers (scripts/serve-test.mjs,
 * scripts/serve-pages-test.mjs) run a second Worker beside the site, in the same workerd
 * (scripts/test-sql/: `wrangler dev -c … -c scripts/test-sql/wrangler.toml`), bound to the same D1s, and
 * this endpoint passes each statement to it on a loopback port of its own, written to the state folder's
 * `sql-endpoint` file; tests/e2e/database.ts sends its statements there. In the same workerd, a test's
 * statement and the site's queue at the one database object. A second workerd on the same files (a
 * platform proxy, as before) met the site's write lock: SQLITE_BUSY, which failed the site's own
 * statements under load, and its start cost each run about 11 CPU-seconds. This is the test servers'
 * own stand-in, not a route of the site: the site's Worker has no way to run SQL it is sent.
 *
 * The statement reaches the SQL Worker on the runtime's own port (wrangler's proxy answers for the site
 * only), with Miniflare's `MF-Route-Override` header naming the Worker. A request: POST {"database":
 * "DB" | "DB_N", "sql": "..."}; the answer, JSON { rows } or { error }.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { workerdPorts } from './direct-port.mjs';
import { ROOT } from './wrangler.mjs';

/** The SQL Worker's configuration, for `serveBuild({ auxiliary })` (scripts/lib/server.mjs). */
export const SQL_WORKER_CONFIG = path.join(ROOT, 'scripts', 'test-sql', 'wrangler.toml');
/** Its name in that configuration: Miniflare routes a request that names it in MF-Route-Override there. */
const SQL_WORKER = 'test-sql';
/** The file in the state folder that names the endpoint (the last test server started on it). */
const SQL_ENDPOINT_FILE = 'sql-endpoint';
/** How long the runtime is looked for: wrangler's start, on a busy machine. */
const START_MS = 300_000;

/** The body of one request, read whole. */
async function body(request) {
	const chunks = [];
	for await (const chunk of request) chunks.push(chunk);
	return Buffer.concat(chunks);
}

/** Sends one statement to the SQL Worker on the runtime's `port`. */
async function ask(port, payload) {
	const response = await fetch(`http://127.0.0.1:${port}/`, {
		method: 'POST',
		headers: { 'MF-Route-Override': SQL_WORKER, 'content-type': 'application/json' },
		body: payload,
		signal: AbortSignal.timeout(120_000),
	});
	const text = await response.text();
	const answer = (() => {
		try {
			return JSON.parse(text);
		} catch {
			return null;
		}
	})();
	if (!answer || typeof answer !== 'object' || !('rows' in answer || 'error' in answer)) throw new Error(`Not the SQL Worker: ${text.slice(0, 80)}`);
	return text;
}

/** The runtime port of wrangler's process tree (`wranglerPid`) where the SQL Worker answers. */
async function findSqlWorker(wranglerPid) {
	const probe = JSON.stringify({ database: 'DB', sql: 'SELECT 1 AS one' });
	for (const deadline = Date.now() + START_MS; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
		for (const port of workerdPorts(wranglerPid)) {
			if (
				await ask(port, probe).then(
					() => true,
					() => false,
				)
			)
				return port;
		}
	}
	throw new Error(`The test server's SQL Worker did not answer within ${START_MS / 1000} s`);
}

/**
 * Answers statements on 127.0.0.1:`port` through the SQL Worker that wrangler (`wranglerPid`, started
 * with SQL_WORKER_CONFIG beside the site) runs; resolves once it listens (a statement waits for the
 * runtime to start).
 *
 * @param {{ port: number; persistTo: string; wranglerPid: number }} options
 */
export async function serveSql({ port, persistTo, wranglerPid }) {
	/** @type {Promise<number> | null} */
	let target = null;
	const runtime = () => (target ??= findSqlWorker(wranglerPid));
	const server = http.createServer(async (request, response) => {
		const payload = await body(request);
		let answer;
		try {
			answer = await ask(await runtime(), payload).catch(async (/** @type {unknown} */ error) => {
				// Refused, so never run: wrangler restarted the runtime on another port. Find it again.
				if (!(error instanceof Error && /** @type {any} */ (error.cause)?.code === 'ECONNREFUSED')) throw error;
				target = null;
				return ask(await runtime(), payload);
			});
		} catch (error) {
			answer = JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
		}
		response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve(undefined));
	});
	writeFileSync(path.join(persistTo, SQL_ENDPOINT_FILE), `http://127.0.0.1:${port}/\n`);
}
