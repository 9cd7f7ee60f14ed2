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
		proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath, remoteBindings: true });
	} else {
		const state = path.resolve(options.persistTo ?? path.join(ROOT, '.wrangler', 'state'));
		proxy = await getPlatformProxy<{ DB: D1Database }>({
			configPath: path.join(ROOT, 'wrangler.toml'),
			persist: { path: path.join(state, 'v3') },
			remoteBindings: false,
		});
	}
	// A local database may be open in `npm start` too: a write that meets its lock is tried again.
	return { db: options.remote ? proxy.env.DB : database(proxy.env.DB), close: () => proxy.dispose() };
}
