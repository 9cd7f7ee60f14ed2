/** What the workers tests' setup (setup.ts) starts a database from: nothing. */

/**
 * Drops every view, trigger and table an earlier file created, in one batch, the newest first. A
 * full-text table takes its shadow tables with it. Dropping a table deletes its rows and checks each
 * against the foreign keys that refer to it; a column with no index of its own (comments.parent_id)
 * would make that a scan a row, so each such column gets an index first.
 */
export async function dropEverything(db: Db): Promise<void> {
	const { results } = await db
		.prepare(
			"SELECT type, name, sql FROM sqlite_master WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY rowid DESC",
		)
		.all<{ type: string; name: string; sql: string | null }>();
	if (results.length === 0) return;
	const shadowPrefixes = results.filter(({ sql }) => sql?.startsWith('CREATE VIRTUAL')).map(({ name }) => `${name}_`);
	const objects = results.filter(({ type, name }) => type !== 'table' || !shadowPrefixes.some((prefix) => name.startsWith(prefix)));
	const tables = objects.filter(({ type, sql }) => type === 'table' && !sql?.startsWith('CREATE VIRTUAL')).map(({ name }) => name);
	const keys = await db.batch<{ table: string; from: string }>(
		tables.map((table) => db.prepare(`SELECT ?1 AS "table", "from" FROM pragma_foreign_key_list(?1)`).bind(table)),
	);
	const indexes = keys.flatMap(({ results: columns }) =>
		columns.map(({ table, from }) => db.prepare(`CREATE INDEX IF NOT EXISTS "reset_${table}_${from}" ON "${table}" ("${from}")`)),
	);
	const drops = objects.map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS "${name}"`));
	await db.batch([db.prepare('PRAGMA defer_foreign_keys = on'), ...indexes, ...drops]);
}

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
