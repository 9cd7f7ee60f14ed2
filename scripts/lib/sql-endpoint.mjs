/**
 * The browser tests' door to their server's local D1s: the test servers (scripts/serve-test.mjs,
 * scripts/serve-pages-test.mjs) hold the state folder's databases open through wrangler's platform
 * proxy, one workerd opened while wrangler starts, and answer one SQL statement a request on a
 * loopback port of their own, written to the folder's `sql-endpoint` file. tests/e2e/database.ts
 * sends its statements there: before, each Playwright worker opened a platform proxy of its own,
 * and its first statement waited for that workerd's start (about 11 s on a quiet machine, up to
 * 40 s under load; docs/guides/testing.md). This is the test servers' own stand-in, not a route of
 * the Worker: the Worker has no way to run SQL it is sent.
 *
 * A request: POST {"database": "DB" | "DB_N", "sql": "..."}; the answer, node:v8's serialization
 * of { rows } or { error } (blobs come back as they were stored).
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { serialize } from 'node:v8';
import { getPlatformProxy } from 'wrangler';
import { allRows } from './local-d1.mjs';
import { ROOT, WRANGLER_ENV } from './wrangler.mjs';

/** The file in the state folder that names the endpoint (the last test server started on it). */
const SQL_ENDPOINT_FILE = 'sql-endpoint';

/** The body of one request, read whole. */
async function body(request) {
	const chunks = [];
	for await (const chunk of request) chunks.push(chunk);
	return Buffer.concat(chunks).toString('utf8');
}

/**
 * Opens every D1 of wrangler.toml on `persistTo` and answers statements on 127.0.0.1:`port`;
 * resolves once it listens (the databases may still be opening: a statement waits for them).
 *
 * @param {{ port: number; persistTo: string }} options
 */
export async function serveSql({ port, persistTo }) {
	Object.assign(process.env, WRANGLER_ENV);
	const opening = getPlatformProxy({
		configPath: path.join(ROOT, 'wrangler.toml'),
		persist: { path: path.join(persistTo, 'v3') },
		remoteBindings: false,
		envFiles: [],
	});
	// A failure to open is each statement's answer, not an unhandled rejection.
	opening.catch(() => undefined);
	const server = http.createServer(async (request, response) => {
		let answer;
		try {
			const { database, sql } = JSON.parse(await body(request));
			const proxy = await opening;
			/** @type {D1Database | undefined} */
			const db = /^DB(_[1-9][0-9]*)?$/.test(String(database)) ? /** @type {any} */ (proxy.env)[database] : undefined;
			if (!db) throw new Error(`No D1 database is bound as ${database}`);
			answer = { rows: await allRows(db, String(sql)) };
		} catch (error) {
			answer = { error: error instanceof Error ? error.message : String(error) };
		}
		response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(serialize(answer));
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve(undefined));
	});
	writeFileSync(path.join(persistTo, SQL_ENDPOINT_FILE), `http://127.0.0.1:${port}/\n`);
}
