/**
 * The browser tests' own local D1 (.wrangler/test-state, which the test server serves), opened once
 * per Playwright worker through wrangler's platform proxy instead of a `wrangler d1 execute` process
 * per statement (1.4 s each). The proxy lives in a worker thread (database-worker.mjs); `runSql`
 * waits for its answer, so the helpers built on it stay synchronous.
 */
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

interface Connection {
	worker: Worker;
	port: MessagePort;
	signal: Int32Array;
}

/** How long one statement may take, the first one including workerd's start on a busy machine. */
const ANSWER_MS = 120_000;

let connection: Connection | undefined;
/** The workerd processes the proxy started: stopped when this process exits. */
let workerd: number[] = [];

function open(): Connection {
	if (connection) return connection;
	const { port1, port2 } = new MessageChannel();
	const signal = new Int32Array(new SharedArrayBuffer(4));
	const worker = new Worker(new URL('./database-worker.mjs', import.meta.url), {
		workerData: { root: process.cwd(), persistTo: testState(), port: port2, signal },
		transferList: [port2],
	});
	worker.unref();
	process.on('exit', () => {
		for (const pid of workerd) {
			try {
				process.kill(pid, 'SIGTERM');
			} catch {
				// Already gone.
			}
		}
	});
	connection = { worker, port: port1, signal };
	return connection;
}

/** The test server's --persist-to folder (scripts/serve-test.mjs). */
const testState = () => path.join(process.cwd(), '.wrangler', 'test-state');

/** Runs one SQL statement on the browser tests' D1 and returns its rows; throws what D1 throws. */
export function runSql(sql: string): unknown[] {
	const { port, signal } = open();
	Atomics.store(signal, 0, 0);
	port.postMessage({ sql });
	if (Atomics.wait(signal, 0, 0, ANSWER_MS) === 'timed-out') throw new Error(`The test database did not answer within ${ANSWER_MS} ms: ${sql}`);
	const reply = receiveMessageOnPort(port)?.message as { rows?: unknown[]; workerd?: number[]; error?: string } | undefined;
	if (!reply) throw new Error(`The test database gave no answer: ${sql}`);
	if (reply.workerd) workerd = reply.workerd;
	if (reply.error !== undefined) throw new Error(`${reply.error}\n${sql}`);
	return reply.rows ?? [];
}
