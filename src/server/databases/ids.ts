/**
 * Ids unique across databases (docs/reference/databases.md#ids): each database hands out the ids of
 * its tables in a range of its own, so a community moved from one database into another never meets
 * another row with one of its ids, and no URL changes.
 *
 * The database bound as `DB` (the directory, and the one database of a deployment of one) has range
 * 0; `DB_n` has range n: ids in (n × span, (n + 1) × span]. A table's span is ID_SPAN, but for the
 * tables whose ids go into the search index's rowids (channel × 2^32 + id, search-index.ts), which
 * must stay below 2^32: SEARCHED_SPAN, and no id of theirs past SEARCHED_LAST. So a deployment of
 * one keeps ids 1, 2, 3 as before, and bindings up to DB_42 get ranges of every table (DB_42's of
 * posts and members is 95 % of one; a move refuses a database past it).
 *
 * A new row's id is given in its INSERT (`newIdSql`), computed in the same statement: one past the
 * largest of the table's ids in the range (one seek, backwards, on the primary key), of the
 * database's floor for the table (`id_floors`, migrations/0045: raised by a move to the largest id
 * that left, so a database never hands out again an id that now lives elsewhere), and of the range's
 * start. The range comes from the channel's row in that database (`channels.database` names the
 * binding). So an INSERT reads three rows more: the channel's row, the seek's row, the floor's.
 * A range used up fails the write (an invalid JSON path naming it) instead of clashing.
 */
import type { CommunityTable } from './community-rows';

/** The rows a new id reads: the channel's row, the seek's, the floor's. */
export const NEW_ID_ROWS_READ = 3;

/** Ids per table per database: far more rows than a 10 GB database holds. */
export const ID_SPAN = 1_000_000_000;
/** Ids per database of the tables whose ids go into the search index's rowids. */
export const SEARCHED_SPAN = 100_000_000;
/** Those tables' largest possible id: the search index gives each channel 2^32 rowids. */
export const SEARCHED_LAST = 2 ** 32 - 1;
const SEARCHED = new Set(['posts', 'members']);

/** The tables whose ids the services' INSERTs have handed out in a range. */
export type IdTable =
	| 'posts'
	| 'comments'
	| 'members'
	| 'boards'
	| 'board_subjects'
	| 'board_tree_nodes'
	| 'bans'
	| 'reports'
	| 'drafts'
	| 'uploads'
	| 'revisions'
	| 'notifications'
	| 'moderation_log'
	| 'push_subscriptions';

/** The number of the database bound as `binding`: 0 for DB, n for DB_n. */
export function databaseNumber(binding: string): number {
	if (binding === 'DB') return 0;
	const match = /^DB_([1-9][0-9]*)$/.exec(binding);
	if (!match) throw new RangeError(`${binding} is no database binding`);
	return Number(match[1]);
}

/** The range of `table`'s ids in the database bound as `binding`: (lo, hi]. @throws RangeError beyond the last binding a range fits */
export function idRange(binding: string, table: string): { lo: number; hi: number } {
	const n = databaseNumber(binding);
	const span = SEARCHED.has(table) ? SEARCHED_SPAN : ID_SPAN;
	const hi = SEARCHED.has(table) ? Math.min((n + 1) * span, SEARCHED_LAST) : (n + 1) * span;
	if (n * span >= hi) throw new RangeError(`${binding} has no range of ${table} ids (the last is DB_${Math.floor(SEARCHED_LAST / SEARCHED_SPAN)})`);
	return { lo: n * span, hi };
}

/** SQL: the start and end of `table`'s range in the database whose binding `binding` (SQL) names, as columns lo, hi. */
function rangeSql(table: IdTable, binding: string): string {
	const span = SEARCHED.has(table) ? SEARCHED_SPAN : ID_SPAN;
	const n = `(CASE ${binding} WHEN 'DB' THEN 0 ELSE CAST(substr(${binding}, 4) AS INTEGER) END)`;
	const hi = SEARCHED.has(table) ? `min((${n} + 1) * ${span}, ${SEARCHED_LAST})` : `(${n} + 1) * ${span}`;
	return `${n} * ${span} AS lo, ${hi} AS hi`;
}

/** SQL over columns lo and hi: the largest id `table` holds or held in the range, or lo (a seek and a floor's row). */
function lastIdSql(table: IdTable): string {
	return `max(lo, coalesce((SELECT id FROM ${table} WHERE id > lo AND id <= hi ORDER BY id DESC LIMIT 1), 0),
		coalesce((SELECT floor FROM id_floors WHERE name = '${table}' AND floor > lo AND floor <= hi), 0))`;
}

/**
 * SQL, a value: the id of a new row of `table` of the channel whose id `channel` (SQL: a parameter,
 * a column of the INSERT's SELECT is not allowed) gives, in its database's range. An INSERT that
 * makes several rows adds `row_number() OVER () - 1` to it. Fails the statement when the range is used up.
 */
export function newIdSql(table: IdTable, channel: string): string {
	const full = `'ids of ${table} used up in this database'`;
	// LIMIT … OFFSET 0: SQLite does not flatten the inner query into the outer one, where `next`, used
	// twice, would be computed (and its rows read) twice.
	return `(SELECT next + json_extract('0', CASE WHEN next <= hi THEN '$' ELSE ${full} END) FROM
		(SELECT ${lastIdSql(table)} + 1 AS next, hi FROM (SELECT ${rangeSql(table, 'database')} FROM channels WHERE id = ${channel}) LIMIT 1 OFFSET 0))`;
}

/** SQL, a value: the largest id of `table` held or once held in the range of the database bound as `binding`, or the range's start: a new id goes past it. */
export function lastIdValueSql(binding: string, table: IdTable): string {
	const { lo, hi } = idRange(binding, table);
	return `(SELECT ${lastIdSql(table)} FROM (SELECT ${lo} AS lo, ${hi} AS hi))`;
}

/**
 * Raises `db`'s floors (the database bound as `binding`, which a community leaves) to the largest of
 * the community's ids in its range, table by table: once its rows are removed, those ids are never
 * handed out there again (a move copies first, so this goes before the removal). Ids of other
 * ranges (rows moved in earlier) are other databases' to keep. One read and one write a table.
 */
export async function raiseFloors(db: Db, binding: string, tables: CommunityTable[], channelId: number): Promise<void> {
	const statements: D1PreparedStatement[] = [];
	for (const table of tables) {
		if (table.idColumn === null || KEPT_IDS.has(table.name)) continue;
		const { lo, hi } = idRange(binding, table.name);
		const id = `"${table.idColumn}"`;
		const largest = await db
			.prepare(`SELECT max(${id}) AS id FROM "${table.name}" WHERE (${table.where}) AND ${id} > ?2 AND ${id} <= ?3`)
			.bind(channelId, lo, hi)
			.first<number | null>('id');
		if (largest !== null) statements.push(raiseFloorStatement(db, table.name, largest));
	}
	if (statements.length > 0) await db.batch(statements);
}

/** Tables whose ids a move never takes from a database: the channel's (the directory's id) and identities (kept there). */
const KEPT_IDS = new Set(['channels', 'identities']);

/** A statement that raises `table`'s floor in `db` to `id` (never lowers it). */
function raiseFloorStatement(db: Db, table: string, id: number): D1PreparedStatement {
	return db
		.prepare('INSERT INTO id_floors (name, floor) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET floor = max(floor, excluded.floor)')
		.bind(table, id);
}
