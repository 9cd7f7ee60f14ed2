/**
 * The daily backup to R2 (docs/guides/backups.md), run by its own Cron Trigger (BACKUP_CRON, every ten
 * minutes), apart from the hourly cleanup's, so that neither waits on the other. Each D1 database
 * of the deployment (the bindings DB, DB_1, DB_2, …) gets one backup a day, begun by the first run
 * after BACKUP_HOUR_UTC: `backups/{binding}/{YYYY-MM-DD}/` in the BACKUPS bucket, the same pieces and
 * manifest.json that `npm run backup` writes to a folder, which `npm run restore -- --from-r2 …` or a
 * copy of the folder restores.
 *
 * A run writes at most BACKUP_STEP_PIECES pieces (each at most 500 rows and about 512 KB) and begins
 * none after BACKUP_STEP_MS; where it stopped is kept in `backups/{binding}/progress.json`, and the
 * next run goes on from there: a database of any size is backed up in as many runs as it needs (at
 * 40 pieces a run and 144 runs a day, about 2.9 million rows a day). Each run also deletes the
 * backups older than BACKUP_KEEP_DAYS, at most PRUNE_KEYS objects a run.
 */
import { backupStep, startBackup, type BackupProgress, type PieceStore } from './export';
import type { PieceSource } from './restore';
import { database } from '@/server/platform/database';

/** The backup's Cron Trigger (wrangler.toml). */
export const BACKUP_CRON = '*/10 * * * *';
/** A day's backup begins with the first run at or after this hour (UTC). */
const BACKUP_HOUR_UTC = 3;
/** Backups older than this many days are deleted: beyond Time Travel's 30 days, three months back. */
export const BACKUP_KEEP_DAYS = 90;
/** Pieces a run writes at most, over all databases. */
export const BACKUP_STEP_PIECES = 40;
/** No piece is begun after this long in a run. */
const BACKUP_STEP_MS = 20_000;
/** Old backups' objects deleted in one run at most (one R2 list and one delete). */
const PRUNE_KEYS = 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What `progress.json` keeps between runs. */
interface BackupState {
	/** The day of the last finished backup (YYYY-MM-DD). */
	lastDay: string | null;
	/** The backup under way, and its folder's day. */
	current: { day: string; progress: BackupProgress } | null;
}

export interface BackupRun {
	database: string;
	/** Pieces written by this run. */
	pieces: number;
	/** The folder of a backup that this run finished. */
	finished: string | null;
}

/** The D1 bindings of the environment that hold a deployment's data: DB and DB_1, DB_2, … */
function backupBindings(env: object): string[] {
	return Object.keys(env)
		.filter((name) => /^DB(_\d+)?$/.test(name))
		.sort();
}

/** The folder of a database's backups in the bucket. */
const backupPrefix = (binding: string) => `backups/${binding}/`;

/** A folder of the bucket as the place a backup's pieces go and come from. */
export function bucketFolder(bucket: R2Bucket, folder: string): PieceStore & PieceSource {
	return {
		put: async (name, text) => void (await bucket.put(`${folder}${name}`, text)),
		get: async (name) => (await bucket.get(`${folder}${name}`))?.text() ?? null,
	};
}

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** One cron run: a step of each database's backup that is due, then the pruning of old backups. */
export async function runScheduledBackups(env: Env, now: number): Promise<BackupRun[]> {
	const backups = (env as { BACKUPS?: R2Bucket }).BACKUPS;
	if (!backups) {
		console.warn('No BACKUPS bucket is bound: the daily backup does not run (docs/guides/backups.md)');
		return [];
	}
	const deadline = Date.now() + BACKUP_STEP_MS;
	const runs: BackupRun[] = [];
	let budget = BACKUP_STEP_PIECES;
	for (const binding of backupBindings(env)) {
		const db = database((env as unknown as Record<string, D1Database>)[binding]!);
		const run = await backupDatabase(db, env.UPLOADS, backups, binding, now, { pieces: budget, deadline });
		budget -= run.pieces;
		runs.push(run);
		await pruneBackups(backups, binding, now);
		if (budget <= 0) break;
	}
	return runs;
}

/** A step of one database's daily backup, when one is due or under way. */
export async function backupDatabase(
	db: Db,
	uploads: R2Bucket | null,
	backups: R2Bucket,
	binding: string,
	now: number,
	budget: { pieces: number; deadline?: number },
): Promise<BackupRun> {
	const stateKey = `${backupPrefix(binding)}progress.json`;
	const state: BackupState = (await (await backups.get(stateKey))?.json<BackupState>()) ?? { lastDay: null, current: null };
	const today = dayOf(now);
	if (!state.current) {
		if (state.lastDay === today || new Date(now).getUTCHours() < BACKUP_HOUR_UTC) return { database: binding, pieces: 0, finished: null };
		state.current = { day: today, progress: await startBackup(db, binding, now) };
	}
	const folder = `${backupPrefix(binding)}${state.current.day}/`;
	const before = state.current.progress.manifest.pieces.length;
	const progress = await backupStep(db, uploads, state.current.progress, bucketFolder(backups, folder), budget);
	const pieces = progress.manifest.pieces.length - before;
	const finished = progress.done ? folder : null;
	await backups.put(stateKey, JSON.stringify(progress.done ? { lastDay: state.current.day, current: null } : state));
	if (finished) console.info(`Backed up ${binding} to ${finished} (${progress.manifest.pieces.length} pieces)`);
	return { database: binding, pieces, finished };
}

/** Deletes the objects of the backups older than BACKUP_KEEP_DAYS, at most PRUNE_KEYS of them. */
async function pruneBackups(backups: R2Bucket, binding: string, now: number): Promise<number> {
	const oldest = dayOf(now - BACKUP_KEEP_DAYS * DAY_MS);
	const { delimitedPrefixes } = await backups.list({ prefix: backupPrefix(binding), delimiter: '/' });
	const [old] = delimitedPrefixes.filter((prefix) => prefix.slice(backupPrefix(binding).length, -1) < oldest).sort();
	if (old === undefined) return 0;
	const { objects } = await backups.list({ prefix: old, limit: PRUNE_KEYS });
	if (objects.length > 0) await backups.delete(objects.map(({ key }) => key));
	return objects.length;
}
