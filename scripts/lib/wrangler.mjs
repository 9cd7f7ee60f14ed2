/** Runs wrangler from the repo's own install, against the one local state folder. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parse } from 'smol-toml';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEFAULT_STATE = path.join(ROOT, '.wrangler', 'state');
const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

/**
 * The environment every wrangler run gets: no metrics, no account, and no lookup of `Request.cf`
 * on workers.cloudflare.com, which fails offline with an alarming ENOTFOUND stack trace.
 */
export const WRANGLER_ENV = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

/**
 * How long one wrangler command may take before it is stopped and named in an error: a local D1
 * command that hangs (it starts a workerd of its own) would otherwise hold its caller silently.
 * Seeding a million posts takes far less per command (each file is one batch).
 */
const WRANGLER_TIMEOUT_MS = 10 * 60_000;

/** Runs `wrangler …args` with the running Node; throws when it fails. Returns stdout. */
export function wrangler(args, { quiet = false } = {}) {
	const result = spawnSync(process.execPath, [WRANGLER, ...args], {
		cwd: ROOT,
		encoding: 'utf8',
		env: { ...process.env, ...WRANGLER_ENV, CLOUDFLARE_API_TOKEN: '' },
		maxBuffer: 256 * 1024 * 1024,
		stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'inherit'],
		timeout: WRANGLER_TIMEOUT_MS,
		killSignal: 'SIGKILL',
	});
	if (result.status !== 0) {
		const how = result.error ? result.error.message : result.signal ? `stopped by ${result.signal}` : `exit ${result.status}`;
		throw new Error(`wrangler ${args.join(' ')} failed (${how}):\n${result.stdout ?? ''}\n${result.stderr ?? ''}`);
	}
	return result.stdout;
}

/** The table in which wrangler records the migrations it applied (wrangler.toml sets no other). */
const MIGRATIONS_TABLE = 'd1_migrations';

/** The D1 bindings of wrangler.toml: DB (the directory) and the content databases DB_1, DB_2, ... (docs/reference/databases.md). */
function d1Bindings() {
	const config = parse(readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8'));
	return /** @type {{ binding: string }[]} */ (config.d1_databases ?? []).map(({ binding }) => binding);
}

/**
 * Applies the migrations of migrations/ that each local D1 in `persistTo` lacks (every binding of
 * wrangler.toml gets every migration: one schema), as `wrangler d1 migrations apply BINDING --local` does (each file's statements, then its name into
 * d1_migrations, so that wrangler sees it applied), in two wrangler commands: wrangler's own runs one
 * command, and starts one local runtime, per migration (31 CPU-seconds for 30 migrations on a busy
 * 2-core machine, against about 7). The pending ones run as one batch: all of them or none.
 */
export function migrate(persistTo = DEFAULT_STATE) {
	for (const binding of d1Bindings()) migrateOne(binding, persistTo);
}

/** `migrate` for the database bound as `binding`. */
function migrateOne(binding, persistTo) {
	const list = wrangler(
		[
			...['d1', 'execute', binding, '--local', '--persist-to', persistTo, '--json', '--command'],
			`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL); SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id;`,
		],
		{ quiet: true },
	);
	const applied = new Set(
		JSON.parse(list)
			.at(-1)
			.results.map((/** @type {{ name: string }} */ row) => row.name),
	);
	const sql = pendingMigrationsSql(applied);
	if (sql === null) return;
	const file = path.join(persistTo, `pending-migrations-${binding}.sql`);
	mkdirSync(persistTo, { recursive: true });
	writeFileSync(file, sql);
	try {
		executeFile(file, persistTo, binding);
	} finally {
		rmSync(file, { force: true });
	}
}

/**
 * The SQL that applies the migrations of `dir` not named in `applied`, in the order of their file
 * names: each file's statements, then its row in d1_migrations, as wrangler writes it. Null when
 * none is missing.
 *
 * @param {Set<string>} applied
 */
export function pendingMigrationsSql(applied, dir = path.join(ROOT, 'migrations')) {
	const pending = readdirSync(dir)
		.filter((name) => name.endsWith('.sql') && !applied.has(name))
		.sort();
	if (pending.length === 0) return null;
	return pending
		.map((name) => `${readFileSync(path.join(dir, name), 'utf8')}\nINSERT INTO ${MIGRATIONS_TABLE} (name) values ('${name.replace(/'/g, "''")}');\n`)
		.join('');
}

/** Runs one SQL query on the local D1 bound as `binding` (the directory, DB, unless named) and returns its rows. */
export function query(sql, persistTo = DEFAULT_STATE, binding = 'DB') {
	const out = wrangler(['d1', 'execute', binding, '--local', '--persist-to', persistTo, '--json', '--command', sql], { quiet: true });
	const parsed = JSON.parse(out);
	return parsed[0]?.results ?? [];
}

/**
 * The bindings of the local D1s that hold communities, as the directory names them
 * (`channels.database`, docs/reference/databases.md): the demo's DB_1 and DB_2, and DB for the bench's.
 */
export function communityDatabases(persistTo = DEFAULT_STATE) {
	return query('SELECT DISTINCT database FROM channels ORDER BY database', persistTo).map((/** @type {{ database: string }} */ row) => row.database);
}

/** Runs a SQL file on the local D1 bound as `binding` (the directory, DB, unless named). */
export function executeFile(file, persistTo = DEFAULT_STATE, binding = 'DB') {
	wrangler(['d1', 'execute', binding, '--local', '--persist-to', persistTo, '--file', file, '--yes'], { quiet: true });
}
