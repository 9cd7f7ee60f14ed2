/**
 * The worker thread behind tests/e2e/database.ts: holds the browser tests' local D1s open through
 * wrangler's platform proxy (one workerd for the life of the Playwright worker, on the same
 * --persist-to folder as the test server, every D1 binding of wrangler.toml) and answers one
 * statement at a time, in the database its request names. The caller waits on
 * `signal` until the answer is posted on `port`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import { getPlatformProxy } from 'wrangler';
// The rows of a statement, tried again while the test server or the other Playwright worker holds the file's write lock.
import { allRows } from '../../scripts/lib/local-d1.mjs';

/** @type {{ root: string; persistTo: string; port: import('node:worker_threads').MessagePort; signal: Int32Array }} */
const { root, persistTo, port, signal } = workerData;

/** The workerd processes this process started, so that the caller can stop them at its exit (Linux). */
function workerdChildren() {
	try {
		return readdirSync('/proc')
			.filter((entry) => /^\d+$/.test(entry))
			.filter((pid) => {
				try {
					const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
					const [, name = '', rest = ''] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
					return name === 'workerd' && Number(rest.split(' ')[1]) === process.pid;
				} catch {
					return false;
				}
			})
			.map(Number);
	} catch {
		return [];
	}
}

/** Posts an answer and wakes the caller. */
function answer(message) {
	port.postMessage(message);
	Atomics.store(signal, 0, 1);
	Atomics.notify(signal, 0);
}

const opening = getPlatformProxy({
	configPath: path.join(root, 'wrangler.toml'),
	persist: { path: path.join(persistTo, 'v3') },
	remoteBindings: false,
	envFiles: [],
}).then((proxy) => {
	workerd = workerdChildren();
	return proxy;
});
/** @type {number[]} */
let workerd = [];

port.on('message', async (/** @type {{ sql: string; database: string } | { close: true }} */ request) => {
	try {
		const proxy = await opening;
		if ('close' in request) {
			await proxy.dispose();
			answer({ closed: true });
			return;
		}
		/** @type {Db | undefined} */
		const db = /** @type {any} */ (proxy.env)[request.database];
		if (!db || !/^DB(_[1-9][0-9]*)?$/.test(request.database)) throw new Error(`No D1 database is bound as ${request.database}`);
		answer({ rows: await allRows(db, request.sql), workerd });
	} catch (error) {
		answer({ workerd, error: error instanceof Error ? error.message : String(error) });
	}
});
