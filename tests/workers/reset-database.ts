/** What the workers tests' setup (setup.ts) starts a database from: nothing. */

import { dropEverything } from '@/server/backup/empty-database';

export { dropEverything };

/**
 * The migrations on an empty database in one batch, as `applyD1Migrations` of cloudflare:test
 * leaves it (each migration's statements, then its row in `d1_migrations`), but one round trip to
 * D1 instead of one a migration: the setup runs before every file.
 */
export async function migrateEmpty(db: Db, migrations: readonly { name: string; queries: string[] }[]): Promise<void> {
	const record = db.prepare('INSERT INTO d1_migrations (name) VALUES (?1)');
	await db.batch([
		db.prepare(
			'CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)',
		),
		...migrations.flatMap(({ name, queries }) => [...queries.map((query) => db.prepare(query)), record.bind(name)]),
	]);
}

/**
 * A content database (DB_1, DB_2, ...) migrated and empty: dropped and migrated again when an
 * earlier file left a row in it (or it is not migrated to the end), otherwise left as it is, which
 * costs one query instead of a reset (most files never write there).
 */
export async function resetContentDatabase(db: D1Database, migrations: readonly { name: string; queries: string[] }[]): Promise<void> {
	const last = migrations.at(-1)?.name ?? '';
	const state = await db
		.prepare(
			`SELECT (SELECT count(*) FROM sqlite_master WHERE name = 'd1_migrations') AS migrated,
			 (SELECT count(*) FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT GLOB 'sqlite_*' AND m.name NOT GLOB '_cf_*') AS tables`,
		)
		.first<{ migrated: number; tables: number }>();
	if (state?.migrated) {
		const clean = await db
			.prepare(
				`SELECT (SELECT max(name) FROM d1_migrations) = ?1 AND NOT EXISTS (SELECT 1 FROM channels) AND NOT EXISTS (SELECT 1 FROM identities) AS clean`,
			)
			.bind(last)
			.first<number>('clean');
		if (clean) return;
	}
	if (state?.tables) await dropEverything(db);
	await migrateEmpty(db, migrations);
}
