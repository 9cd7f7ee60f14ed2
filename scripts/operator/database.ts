/**
 * The D1 binding of an operator command, outside the Worker: wrangler's platform proxy over the
 * local database (the state folder of `npm start`, or --persist-to), or over the deployed one.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getPlatformProxy } from 'wrangler';
import { parse } from 'smol-toml';
import { database } from '@/server/platform/database';

const ROOT = process.cwd();

export interface OperatorDatabase {
	db: Db;
	/** The R2 buckets asked for (`buckets`), by binding. */
	buckets: Record<string, R2Bucket>;
	close(): Promise<void>;
}

/**
 * Opens the D1 database of `binding` (DB by default: another of wrangler.toml's D1 bindings by its name),
 * and the R2 buckets named in `buckets` beside it (local, or the deployed ones with `remote`).
 */
export async function openDatabase(options: {
	remote: boolean;
	persistTo: string | undefined;
	binding?: string;
	buckets?: string[];
}): Promise<OperatorDatabase> {
	let proxy;
	const binding = options.binding ?? 'DB';
	if (options.remote) {
		// The deployed database: the same configuration with the binding marked remote.
		const config = parse(readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8')) as {
			d1_databases: Record<string, unknown>[];
			r2_buckets?: Record<string, unknown>[];
		};
		config.d1_databases = config.d1_databases.map((entry) => ({ ...entry, remote: true }));
		if (config.r2_buckets)
			config.r2_buckets = config.r2_buckets.map((entry) => ({ ...entry, remote: options.buckets?.includes(entry['binding'] as string) ?? false }));
		const dir = path.join(ROOT, '.wrangler', 'operator');
		mkdirSync(dir, { recursive: true });
		const configPath = path.join(dir, 'wrangler.json');
		writeFileSync(configPath, JSON.stringify({ ...config, main: undefined, migrations_dir: undefined }));
		proxy = await getPlatformProxy<Record<string, unknown>>({ configPath, remoteBindings: true });
	} else {
		const state = path.resolve(options.persistTo ?? path.join(ROOT, '.wrangler', 'state'));
		proxy = await getPlatformProxy<Record<string, unknown>>({
			configPath: path.join(ROOT, 'wrangler.toml'),
			persist: { path: path.join(state, 'v3') },
			remoteBindings: false,
		});
	}
	const found = proxy.env[binding] as D1Database | undefined;
	if (!found || typeof found.prepare !== 'function') {
		await proxy.dispose();
		throw new Error(`wrangler.toml binds no D1 database ${binding}`);
	}
	const buckets = Object.fromEntries((options.buckets ?? []).map((name) => [name, proxy.env[name] as R2Bucket]));
	// A local database may be open in `npm start` too: a write that meets its lock is tried again.
	return { db: options.remote ? found : database(found), buckets, close: () => proxy.dispose() };
}
