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
	/** The directory (binding DB). */
	db: Db;
	/** Every bound database (docs/reference/databases.md), by binding name. */
	databases: BoundDatabases;
	/** The community at /{domain}/{slug} and the database that holds its rows, or null when there is none. */
	community(domain: string, slug: string): Promise<{ db: Db; channel: Channel } | null>;
	close(): Promise<void>;
}

export async function openDatabase(options: { remote: boolean; persistTo: string | undefined }): Promise<OperatorDatabase> {
	let proxy;
	if (options.remote) {
		// The deployed database: the same configuration with the binding marked remote.
		const config = parse(readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8')) as { d1_databases: Record<string, unknown>[] };
		config.d1_databases = config.d1_databases.map((binding) => ({ ...binding, remote: true }));
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
	// A local database may be open in `npm start` too: a write that meets its lock is tried again.
	const env = proxy.env;
	const open = (name: string): Db => (options.remote ? databaseNamed(name, env) : database(databaseNamed(name, env)));
	const directory = open('DB');
	const databases: BoundDatabases = { directory, names: boundDatabaseNames(env), open: (name) => (name === 'DB' ? directory : open(name)) };
	return {
		db: directory,
		databases,
		community: (domain, slug) =>
			resolveCommunity(
				(name) => databaseNamed(name, env),
				(binding) => (binding === env['DB'] ? directory : options.remote ? binding : database(binding)),
				domain,
				slug,
			),
		close: () => proxy.dispose(),
	};
}
