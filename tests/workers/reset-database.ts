/** What the workers tests' setup (setup.ts) starts a database from: nothing. */

export { dropEverything } from '@/server/backup/empty-database';

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
