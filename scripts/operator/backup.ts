/**
 * `npm run backup` and `npm run restore` (docs/guides/backups.md): a backup of one D1 database to a folder,
 * and its restore into an empty database, with the services' own code (src/server/backup/).
 *
 *   npm run backup  -- [--database DB] [--local|--remote] [--persist-to DIR] [--out DIR]
 *   npm run restore -- --from DIR [--database DB] [--local|--remote] [--persist-to DIR] [--force]
 *   npm run restore -- --from-r2 backups/DB/2026-11-02/ [--r2-persist-to DIR] …   a backup of the daily cron, in the BACKUPS bucket
 *
 * With --from-r2 on local state, the buckets (BACKUPS, which holds the backup, and UPLOADS, whose
 * objects the restore checks) are those of --r2-persist-to's state folder: the one the local cron
 * wrote to (`npm start`'s, .wrangler/state), while --persist-to names the folder of the empty
 * database restored into. Without it, both are --persist-to's.
 *
 * Exit codes: 0 done; 1 the restored database differs from the backup (each difference printed);
 * 2 refused before anything was written (a wrong option, a folder that is not empty, a database that
 * is not empty without --force, a piece missing or altered).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backupStep, startBackup } from '@/server/backup/export';
import { RestoreMismatch, RestoreRefused, restoreBackup } from '@/server/backup/restore';
import { bucketFolder } from '@/server/backup/scheduled-backup';
import { openDatabase } from './database';

const USAGE = `Usage:
  npm run backup  -- [--database DB] [--local|--remote] [--persist-to DIR] [--out DIR]
  npm run restore -- --from DIR | --from-r2 PREFIX [--r2-persist-to DIR] [--database DB] [--local|--remote] [--persist-to DIR] [--force]`;

/** Pieces written between two lines of progress. */
const STEP_PIECES = 20;

export async function main(argv: string[]): Promise<number> {
	const [command, ...rest] = argv;
	let values;
	try {
		({ values } = parseArgs({
			args: rest,
			options: {
				database: { type: 'string', default: 'DB' },
				local: { type: 'boolean', default: false },
				remote: { type: 'boolean', default: false },
				'persist-to': { type: 'string' },
				out: { type: 'string' },
				from: { type: 'string' },
				'from-r2': { type: 'string' },
				'r2-persist-to': { type: 'string' },
				force: { type: 'boolean', default: false },
				help: { type: 'boolean', short: 'h', default: false },
			},
		}));
	} catch (error) {
		console.error(`${(error as Error).message}\n${USAGE}`);
		return 2;
	}
	if (values.help) {
		console.log(USAGE);
		return 0;
	}
	const refuse = (reason: string) => (console.error(`${reason}\n${USAGE}`), 2);
	if (values.local && values.remote) return refuse('Give --local or --remote, not both.');
	if (!/^DB(_\w+)?$/.test(values.database)) return refuse(`--database ${values.database}: a D1 binding of wrangler.toml, like DB or DB_1`);
	if (command === 'backup') {
		if (values.from !== undefined || values['from-r2'] !== undefined || values['r2-persist-to'] !== undefined || values.force)
			return refuse('--from, --from-r2, --r2-persist-to and --force are options of npm run restore.');
		const out = path.resolve(values.out ?? path.join('backups', `${values.database}-${new Date().toISOString().replace(/[:.]/g, '-')}`));
		if (existsSync(out) && readdirSync(out).length > 0) return refuse(`${out} is not empty: give a new folder with --out`);
		return backup(values.database, values.remote, values['persist-to'], out);
	}
	if (command === 'restore') {
		if (values.out !== undefined) return refuse('--out is an option of npm run backup.');
		if ((values.from === undefined) === (values['from-r2'] === undefined)) return refuse('Give the backup with --from DIR or --from-r2 PREFIX.');
		if (values['r2-persist-to'] !== undefined && (values['from-r2'] === undefined || values.remote))
			return refuse('--r2-persist-to names the local state whose buckets hold a --from-r2 backup.');
		const from =
			values.from === undefined
				? { r2: values['from-r2']!.replace(/\/?$/, '/'), r2PersistTo: values['r2-persist-to'] ?? values['persist-to'] }
				: { dir: path.resolve(values.from) };
		return restore(values.database, values.remote, values['persist-to'], from, values.force);
	}
	return refuse(`Unknown command ${command ?? ''}`);
}

async function backup(binding: string, remote: boolean, persistTo: string | undefined, out: string): Promise<number> {
	const { db, buckets, close } = await openDatabase({ remote, persistTo, binding, buckets: ['UPLOADS'] });
	try {
		mkdirSync(out, { recursive: true });
		const store = { put: async (name: string, text: string) => writeFileSync(path.join(out, name), text) };
		let progress = await startBackup(db, binding, Date.now());
		while (!progress.done) {
			progress = await backupStep(db, buckets['UPLOADS'] ?? null, progress, store, { pieces: STEP_PIECES });
			const table = progress.manifest.tables[progress.cursor.table]?.name ?? 'the R2 objects';
			if (!progress.done) console.log(`${progress.manifest.pieces.length} pieces; now ${table}`);
		}
		const { manifest } = progress;
		const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
		console.log(
			`Backed up ${binding}: ${manifest.tables.length} tables, ${rows} rows, ${manifest.objects.count} R2 objects listed (${manifest.objects.missing} missing) in ${manifest.pieces.length} pieces to ${out}`,
		);
		return 0;
	} finally {
		await close();
	}
}

async function restore(
	binding: string,
	remote: boolean,
	persistTo: string | undefined,
	from: { dir?: string; r2?: string; r2PersistTo?: string | undefined },
	force: boolean,
): Promise<number> {
	const { dir, r2 } = from;
	if (dir && !existsSync(path.join(dir, 'manifest.json'))) {
		console.error(`${dir} holds no manifest.json: not a backup folder`);
		return 2;
	}
	const { db, buckets, close } = await openDatabase({ remote, persistTo, binding, buckets: ['UPLOADS', 'BACKUPS'] });
	// The buckets of another local state folder: where the local cron wrote the backup.
	const elsewhere =
		r2 && !remote && path.resolve(from.r2PersistTo ?? '.wrangler/state') !== path.resolve(persistTo ?? '.wrangler/state')
			? await openDatabase({ remote, persistTo: from.r2PersistTo, buckets: ['UPLOADS', 'BACKUPS'] })
			: null;
	const { BACKUPS: backups, UPLOADS: uploads = null } = elsewhere?.buckets ?? buckets;
	const source = dir
		? { get: async (name: string) => (existsSync(path.join(dir, name)) ? readFileSync(path.join(dir, name), 'utf8') : null) }
		: bucketFolder(backups!, r2!);
	try {
		const report = await restoreBackup(db, source, { bucket: uploads, force, log: (line) => console.log(line) });
		console.log(
			`Restored ${binding} from ${dir ?? r2}: ${report.tables} tables, ${report.rows} rows; search index rebuilt (${report.search.listed} listed posts of ${report.search.posts}, ${report.search.members} members); every table's rows and checksum and ${report.objects} R2 objects verified.`,
		);
		return 0;
	} catch (error) {
		if (error instanceof RestoreRefused) {
			console.error(error.message);
			return 2;
		}
		if (error instanceof RestoreMismatch) {
			console.error(error.message);
			return 1;
		}
		throw error;
	} finally {
		await elsewhere?.close();
		await close();
	}
}
