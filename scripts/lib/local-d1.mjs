/**
 * A local D1 held open for the whole of a script that asks it many questions (the bench): wrangler's
 * platform proxy, one workerd for the run. `query` (scripts/lib/wrangler.mjs) starts Node, wrangler
 * and a workerd for each statement, about 3.5 CPU-seconds; a statement here costs milliseconds.
 * The file may be open in a running server too: a statement that meets its write lock fails at once
 * with SQLITE_BUSY, having changed nothing, and is tried again after a short wait, as the Worker's own
 * D1 does (src/server/platform/database.ts).
 */
import path from 'node:path';
import { getPlatformProxy } from 'wrangler';
import { ROOT, WRANGLER_ENV } from './wrangler.mjs';

/**
 * @typedef {{ db: D1Database; rows: (sql: string) => Promise<any[]>; close: () => Promise<void> }} LocalD1
 */

/**
 * Opens the local D1 in `persistTo`.
 *
 * @param {string} persistTo
 * @returns {Promise<LocalD1>}
 */
export async function openLocalD1(persistTo) {
	Object.assign(process.env, WRANGLER_ENV);
	const proxy = await getPlatformProxy({
		configPath: path.join(ROOT, 'wrangler.toml'),
		persist: { path: path.join(persistTo, 'v3') },
		remoteBindings: false,
		envFiles: [],
	});
	/** @type {D1Database} */
	const db = /** @type {any} */ (proxy.env).DB;
	return {
		db,
		rows: (sql) => allRows(db, sql),
		close: () => proxy.dispose(),
	};
}

/**
 * The lock met: SQLITE_BUSY as D1 reports it, or, when the lock stops the statement's preparation,
 * workerd's opaque "internal error; reference = …" (its log names SQLITE_BUSY at `sqlite.c++`'s
 * prepare, where nothing ran: a browser test's INSERT failed so once on a fresh clone).
 */
const BUSY = /SQLITE_BUSY|database is locked|internal error; reference = /;

/**
 * The rows of `sql` on `db`, tried again while another process holds the file's write lock.
 *
 * @param {Pick<D1Database, 'prepare'>} db
 * @param {string} sql
 * @returns {Promise<any[]>}
 */
async function allRows(db, sql) {
	for (let attempt = 1; ; attempt += 1) {
		try {
			return (await db.prepare(sql).all()).results;
		} catch (error) {
			if (attempt >= 10 || !BUSY.test(error instanceof Error ? error.message : String(error))) throw error;
			await new Promise((resolve) => setTimeout(resolve, 2 ** (attempt + 1)));
		}
	}
}
