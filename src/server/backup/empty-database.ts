/**
 * Empties a database: the workers tests' reset before each file (tests/workers/reset-database.ts) and a
 * restore with --force (restore.ts).
 */

/**
 * Drops every view, trigger and table, in one batch, the newest first. A
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
