/**
 * The worker thread behind tests/e2e/database.ts: sends one statement at a time to the test
 * server's SQL endpoint (scripts/lib/sql-endpoint.mjs: a Worker beside the site, in the server's own
 * runtime) and posts its answer. The caller waits on `signal` until the answer
 * is posted on `port`.
 */
import { workerData } from 'node:worker_threads';

/** @type {{ endpoint: string; port: import('node:worker_threads').MessagePort; signal: Int32Array }} */
const { endpoint, port, signal } = workerData;

/** Posts an answer and wakes the caller. */
function answer(message) {
	port.postMessage(message);
	Atomics.store(signal, 0, 1);
	Atomics.notify(signal, 0);
}

port.on('message', async (/** @type {{ sql: string; database: string }} */ request) => {
	try {
		const response = await fetch(endpoint, { method: 'POST', body: JSON.stringify(request) });
		if (!response.ok) throw new Error(`The test server's SQL endpoint ${endpoint} answered ${response.status}`);
		answer(await response.json());
	} catch (error) {
		const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
		answer({ error: `${error instanceof Error ? error.message : String(error)}${cause}: ${endpoint}` });
	}
});
