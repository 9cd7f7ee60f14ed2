/**
 * The browser tests' own local D1s (.wrangler/test-state, which the test server serves: the directory
 * DB and the content databases that hold the demo communities, docs/reference/databases.md), asked
 * through the test server's SQL endpoint (scripts/lib/sql-endpoint.mjs: a Worker that the server runs
 * beside the site, in the same runtime, so that the tests' statements never meet the site's lock on
 * the files) instead of a platform proxy per Playwright worker, whose start the worker's first
 * statement waited for (about 11 s on a quiet machine, up to 40 s under load). A worker thread (database-worker.mjs) sends each statement; `runSql` waits for
 * its answer, so the helpers built on it stay synchronous.
 *
 * A statement runs in the database of the community it concerns, found in the directory's
 * `channels.database` as the Worker finds it: the community given, else the one the statement names
 * (`channel_id = N`, `channel_id IN (N…)`, a `channel_id` column of an INSERT, the channels row
 * `WHERE id = N`, else a member's: `member_id = N` or the members row `WHERE id = N`, a demo member's
 * community by the seed's numbering, `communityOfMember`), else starfall/global, the
 * community most tests use. A change to a channels row
 * is made in the directory's copy too; a statement on the channels or identities tables that names no
 * community runs in the directory.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

interface Connection {
	worker: Worker;
	port: MessagePort;
	signal: Int32Array;
}

/** How long one statement may take, the first one including the server's databases opening on a busy machine. */
const ANSWER_MS = 120_000;

let connection: Connection | undefined;

function open(): Connection {
	if (connection) return connection;
	// The test server that serves the state folder wrote its endpoint there (scripts/lib/sql-endpoint.mjs).
	const endpoint = readFileSync(path.join(testState(), 'sql-endpoint'), 'utf8').trim();
	const { port1, port2 } = new MessageChannel();
	const signal = new Int32Array(new SharedArrayBuffer(4));
	const worker = new Worker(new URL('./database-worker.mjs', import.meta.url), {
		workerData: { endpoint, port: port2, signal },
		transferList: [port2],
	});
	worker.unref();
	connection = { worker, port: port1, signal };
	return connection;
}

/** The test server's --persist-to folder (scripts/serve-test.mjs). */
const testState = () => path.join(process.cwd(), '.wrangler', 'test-state');

/** A community (its id, or a channel with its index) or a database by its binding's name (`DB`, `DB_1`, ...). */
export type Where = number | { index: number } | `DB${string}`;

/**
 * The community of a demo member: the seed numbers a community's members from its id × 1000 + 1
 * (scripts/seed/demo.mjs), and a member who signs up during the run takes the next id of the
 * database, after the last community's members there.
 */
const communityOfMember = (memberId: number): number => Math.floor(memberId / 1000);

/** The directory's binding (src/server/channels/channels.ts DIRECTORY). */
const DIRECTORY = 'DB';
/** The community a statement that names none is about: starfall/global. */
const DEFAULT_CHANNEL = 1;
/** Tables the directory holds for every community (a content database has copies). */
const DIRECTORY_TABLES = new Set(['channels', 'identities']);

/** Where each community lives, as the directory said (no test moves a community). */
const databases = new Map<number, string>();

/** The binding that holds the community's rows, from the directory. */
function databaseOf(channelId: number): string {
	const known = databases.get(channelId);
	if (known) return known;
	const [row] = runIn(DIRECTORY, `SELECT database FROM channels WHERE id = ${Number(channelId)}`) as { database: string }[];
	if (!row) throw new Error(`The directory of the browser tests' D1 has no community ${channelId}`);
	databases.set(channelId, row.database);
	return row.database;
}

/** The table a statement reads or changes first (after FROM, INTO or UPDATE). */
function mainTable(sql: string): string | undefined {
	return /\b(?:FROM|INTO|UPDATE)\s+(\w+)/i.exec(sql)?.[1]?.toLowerCase();
}

/** The values of an INSERT's first row, split at its top-level commas (quotes and brackets kept whole). */
function firstRowValues(values: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let quoted = false;
	let part = '';
	for (const char of values) {
		if (char === "'") quoted = !quoted;
		else if (!quoted && char === '(') depth += 1;
		else if (!quoted && char === ')') {
			if (depth === 0) break;
			depth -= 1;
		} else if (!quoted && depth === 0 && char === ',') {
			parts.push(part.trim());
			part = '';
			continue;
		}
		part += char;
	}
	parts.push(part.trim());
	return parts;
}

/** The community a statement names, if it names one. */
function channelNamed(sql: string): number | undefined {
	const filtered = /\bchannel_id\s*(?:=\s*|IN\s*\(\s*)(\d+)/i.exec(sql);
	if (filtered) return Number(filtered[1]);
	const insert = /\bINSERT\s+(?:OR\s+\w+\s+)?INTO\s+(\w+)\s*\(([^)]*)\)\s*VALUES\s*\(/i.exec(sql);
	if (insert) {
		const columns = insert[2]!.split(',').map((column) => column.trim().toLowerCase());
		const values = firstRowValues(sql.slice(insert.index + insert[0].length));
		const column = columns.indexOf(insert[1]!.toLowerCase() === 'channels' ? 'id' : 'channel_id');
		if (column >= 0 && /^\d+$/.test(values[column] ?? '')) return Number(values[column]);
	}
	const table = mainTable(sql);
	const row = /\bWHERE\s+(?:\w+\.)?id\s*=\s*(\d+)/i.exec(sql);
	if (table === 'channels' && row) return Number(row[1]);
	const member = /\bmember_id\s*=\s*(\d+)/i.exec(sql)?.[1] ?? (table === 'members' ? row?.[1] : undefined);
	if (member) return communityOfMember(Number(member));
	return undefined;
}

/**
 * Runs one SQL statement on the browser tests' D1s, in the database of the community it concerns
 * (above; `where` names the community or the database), and returns its rows; throws what D1 throws.
 */
export function runSql(sql: string, where?: Where): unknown[] {
	if (typeof where === 'string') return runIn(where, sql);
	const table = mainTable(sql);
	const named = typeof where === 'number' ? where : (where?.index ?? channelNamed(sql));
	if (named === undefined && table !== undefined && DIRECTORY_TABLES.has(table)) return runIn(DIRECTORY, sql);
	const database = databaseOf(named ?? DEFAULT_CHANNEL);
	const rows = runIn(database, sql);
	// The directory's copy of a channels row stays the community's (what an apply and a move keep).
	if (table === 'channels' && database !== DIRECTORY && !/^\s*SELECT\b/i.test(sql)) runIn(DIRECTORY, sql);
	return rows;
}

/** Runs one SQL statement in the database bound as `database`. */
function runIn(database: string, sql: string): unknown[] {
	const { port, signal } = open();
	Atomics.store(signal, 0, 0);
	port.postMessage({ sql, database });
	if (Atomics.wait(signal, 0, 0, ANSWER_MS) === 'timed-out') throw new Error(`The test database did not answer within ${ANSWER_MS} ms: ${sql}`);
	const reply = receiveMessageOnPort(port)?.message as { rows?: unknown[]; error?: string } | undefined;
	if (!reply) throw new Error(`The test database gave no answer: ${sql}`);
	if (reply.error !== undefined) throw new Error(`${reply.error}\n${sql}`);
	return reply.rows ?? [];
}
