/**
 * A fresh set of local D1s with the demo data (the directory and the content databases it names), for the browser tests' server, the Pages smoke's and the
 * bench's: seeded by scripts/seed.mjs the first time, and kept in .wrangler/seeded/KEY, KEY a hash of
 * what makes that database (the migrations, the demo seed's SQL, the seed script and wrangler.toml).
 * The next fresh database of the same KEY is a copy of it: the seed holds no clock, so it writes the
 * same rows every time. A seed costs about 14 CPU-seconds on a busy 2-core machine; a copy, none to
 * speak of. Only the latest KEY is kept.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './wrangler.mjs';
import { demoSqlByDatabase } from '../seed/demo.mjs';

const SEEDED = path.join(ROOT, '.wrangler', 'seeded');

/** The hash of everything the seeded database is made of. */
function seedKey() {
	const hash = createHash('sha256');
	const migrations = path.join(ROOT, 'migrations');
	for (const name of readdirSync(migrations).sort()) hash.update(name).update(readFileSync(path.join(migrations, name)));
	for (const file of ['scripts/seed.mjs', 'scripts/lib/wrangler.mjs', 'wrangler.toml']) hash.update(file).update(readFileSync(path.join(ROOT, file)));
	for (const [binding, statements] of Object.entries(demoSqlByDatabase())) hash.update(binding).update(statements.join('\n'));
	return hash.digest('hex').slice(0, 16);
}

/**
 * Makes `persistTo` a new state folder holding the migrated demo database and nothing else (a real
 * seed when there is no copy to take, which prints as it goes).
 *
 * @param {string} persistTo
 */
export function freshDemoState(persistTo) {
	rmSync(persistTo, { recursive: true, force: true });
	const snapshot = path.join(SEEDED, seedKey());
	if (existsSync(snapshot)) {
		cpSync(snapshot, persistTo, { recursive: true });
		return;
	}
	const seeded = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'seed.mjs'), '--persist-to', persistTo], { cwd: ROOT, stdio: 'inherit' });
	if (seeded.status !== 0) throw new Error(`seeding ${path.relative(ROOT, persistTo)} failed`);
	mkdirSync(SEEDED, { recursive: true });
	for (const name of readdirSync(SEEDED)) if (!name.includes('.')) rmSync(path.join(SEEDED, name), { recursive: true, force: true });
	// Copied aside, then moved into place: another process making the same copy meanwhile loses nothing.
	const copy = `${snapshot}.${process.pid}`;
	cpSync(persistTo, copy, { recursive: true });
	try {
		renameSync(copy, snapshot);
	} catch {
		rmSync(copy, { recursive: true, force: true });
	}
}
