/**
 * The D1 bindings of an operator command, outside the Worker: wrangler's platform proxy over the
 * local databases (the state folder of `npm start`, or --persist-to), or over the deployed ones:
 * the directory (DB) and every content database bound in wrangler.toml (docs/reference/databases.md).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getPlatformProxy } from 'wrangler';
import { parse } from 'smol-toml';
import { database } from '@/server/platform/database';
import { boundDatabaseNames, databaseNamed } from '@/server/platform/databases';
import { resolveCommunity, type Channel } from '@/server/channels/channels';
import type { BoundDatabases } from '@/server/databases/move';

const ROOT = process.cwd();

export interface OperatorDatabase {
	/** The database of `binding` (DB, the directory, by default). */
	db: Db;
	/** The R2 buckets asked for (`buckets`), by binding. */
	buckets: Record<string, R2Bucket>;
	/** Every bound database (docs/reference/databases.md), by binding name. */
	databases: BoundDatabases;
	/** The community at /{domain}/{slug} and the database that holds its rows, or null when there is none. */
	community(domain: string, slug: string): Promise<{ db: Db; channel: Channel } | null>;
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
	const env = proxy.env;
	const open = (name: string): Db => (options.remote ? databaseNamed(name, env) : database(databaseNamed(name, env)));
	const directory = open('DB');
	const databases: BoundDatabases = { directory, names: boundDatabaseNames(env), open: (name) => (name === 'DB' ? directory : open(name)) };
	return {
		db: binding === 'DB' ? directory : open(binding),
		buckets,
		databases,
		community: (domain, slug) =>
			resolveCommunity(
				(name) => databaseNamed(name, env),
				(found) => (found === env['DB'] ? directory : options.remote ? found : database(found)),
				domain,
				slug,
			),
		close: () => proxy.dispose(),
	};
}
