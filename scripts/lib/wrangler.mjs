/** Runs wrangler from the repo's own install, against the one local state folder. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

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

/** Applies every migration in migrations/ to the local D1 in `persistTo`. */
export function migrate(persistTo = DEFAULT_STATE) {
	wrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo], { quiet: true });
}

/** Runs one SQL query on the local D1 and returns its rows. */
export function query(sql, persistTo = DEFAULT_STATE) {
	const out = wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--json', '--command', sql], { quiet: true });
	const parsed = JSON.parse(out);
	return parsed[0]?.results ?? [];
}

/** Runs a SQL file on the local D1. */
export function executeFile(file, persistTo = DEFAULT_STATE) {
	wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--file', file, '--yes'], { quiet: true });
}
