/**
 * A community's rows in one database, table by table, for `npm run channel -- move`
 * (move.ts, docs/reference/databases.md#moving-a-community): which tables hold them, read in pages,
 * copied in bounded batches, checksummed, and removed in bounded batches.
 *
 * The tables are found in the database's own schema, so a table a later migration adds is moved
 * without a change here: every table with a `channel_id` column holds a community's rows by it.
 * The few that hold them otherwise are the one list below (COMMUNITY_ROWS_WITHOUT_CHANNEL_ID); a
 * new table without `channel_id` that holds a community's rows goes there. The search index
 * (FTS5, migrations/0010) is not copied: its entries are written again in the destination with the
 * services' own statements (search-index.ts), and its shadow tables are never read as tables.
 */
import { channelRange, memberSearchStatements, postSearchStatements } from '@/server/search-index/search-index';

/** Rows read, or removed, per statement. */
export const ROWS_PER_BATCH = 200;
/**
 * The most bytes of rows one copying statement carries: its rows go as one bound JSON text (D1
 * takes a string of up to 2 MB, and at most 100 bound values, so a row a value is no way to copy
 * 200 rows of 20 columns), and its SQL text stays far below D1's 100 KB.
 */
const COPY_BYTES = 1_000_000;

/** A table and the rows of it that belong to the community: `where` binds the channel id as ?1. */
export interface CommunityTable {
	name: string;
	where: string;
	/** The columns, in the schema's order (every database has the same schema). */
	columns: string[];
	/** The columns that order its rows (rowid, or a WITHOUT ROWID table's primary key). */
	order: string[];
	/**
	 * Its INTEGER PRIMARY KEY (the rowid under a name: ids that URLs and other rows carry, kept by a
	 * copy), or null: another table's hidden rowid is nobody's id, and a copy gets new ones.
	 */
	idColumn: string | null;
}

/**
 * Tables that hold a community's rows without a `channel_id` column, and how they are found.
 * Identities are global: copied into the destination (the ones its members and sign-ups name),
 * never removed from the source (other communities there may name them).
 */
const COMMUNITY_ROWS_WITHOUT_CHANNEL_ID: Record<string, string> = {
	channels: 'id = ?1',
	identities: 'id IN (SELECT identity_id FROM members WHERE channel_id = ?1 UNION SELECT identity_id FROM signups WHERE channel_id = ?1)',
	// kind 1: a board's list, 2: a category's, 3: the channel's All Posts (migrations/0004).
	list_gaps:
		'(kind = 1 AND list_id IN (SELECT id FROM boards WHERE channel_id = ?1)) OR (kind = 2 AND list_id IN (SELECT id FROM board_subjects WHERE channel_id = ?1)) OR (kind = 3 AND list_id = ?1)',
	push_subscriptions: 'member_id IN (SELECT id FROM members WHERE channel_id = ?1)',
};

/** Tables that are kept by the removal: shared with the database's other communities. */
const SHARED_TABLES = new Set(['identities']);

/**
 * The community's tables in `db`, parents before children (by the schema's foreign keys), so that
 * a copy in this order meets every reference it makes.
 */
export async function communityTables(db: Db): Promise<CommunityTable[]> {
	const { results } = await db
		.prepare(
			`SELECT m.name, m.sql, (SELECT json_group_array(name) FROM (SELECT name FROM pragma_table_info(m.name) ORDER BY cid)) AS columns,
			 (SELECT json_group_array("table") FROM pragma_foreign_key_list(m.name)) AS parents,
			 (SELECT json_group_array(name) FROM (SELECT name FROM pragma_table_info(m.name) WHERE pk > 0 ORDER BY pk)) AS keys,
			 (SELECT name FROM pragma_table_info(m.name) WHERE pk = 1 AND upper(type) = 'INTEGER'
			  AND (SELECT count(*) FROM pragma_table_info(m.name) WHERE pk > 0) = 1) AS id_column
			 FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT GLOB 'sqlite_*' AND m.name NOT GLOB '_cf_*' AND m.name NOT GLOB 'd1_*'
			 AND NOT EXISTS (SELECT 1 FROM sqlite_master v WHERE v.type = 'table' AND v.sql LIKE 'CREATE VIRTUAL TABLE%' AND m.name GLOB v.name || '*')`,
		)
		.all<{ name: string; sql: string; columns: string; parents: string; keys: string; id_column: string | null }>();
	const tables = results.flatMap((row) => {
		const columns = JSON.parse(row.columns) as string[];
		const where = COMMUNITY_ROWS_WITHOUT_CHANNEL_ID[row.name] ?? (columns.includes('channel_id') ? 'channel_id = ?1' : null);
		if (where === null) return [];
		const withoutRowid = /WITHOUT\s+ROWID/i.test(row.sql);
		const order = withoutRowid ? (JSON.parse(row.keys) as string[]) : ['rowid'];
		const idColumn = withoutRowid ? null : row.id_column;
		return [{ name: row.name, where, columns, order, idColumn, parents: new Set(JSON.parse(row.parents) as string[]) }];
	});
	const sorted: CommunityTable[] = [];
	const placed = new Set<string>();
	while (sorted.length < tables.length) {
		const ready = tables.filter(
			(table) =>
				!placed.has(table.name) &&
				[...table.parents].every((parent) => parent === table.name || placed.has(parent) || !tables.some((t) => t.name === parent)),
		);
		if (ready.length === 0) throw new Error('The schema has a cycle of foreign keys between tables');
		for (const { parents: _parents, ...table } of ready) {
			sorted.push(table);
			placed.add(table.name);
		}
	}
	return sorted;
}

type Row = Record<string, unknown>;

/** A page of the community's rows of `table`, from `offset` in its order (writes are refused meanwhile, so pages do not shift). */
async function readPage(db: Db, table: CommunityTable, channelId: number, offset: number): Promise<Row[]> {
	const { results } = await db
		.prepare(
			`SELECT ${table.columns.map(quote).join(', ')} FROM ${quote(table.name)} WHERE ${table.where} ORDER BY ${table.order.map(quote).join(', ')} LIMIT ?2 OFFSET ?3`,
		)
		.bind(channelId, ROWS_PER_BATCH, offset)
		.all<Row>();
	return results;
}

/** Every page of the community's rows of `table`, in order. */
export async function* pages(db: Db, table: CommunityTable, channelId: number): AsyncGenerator<Row[]> {
	for (let offset = 0; ; offset += ROWS_PER_BATCH) {
		const rows = await readPage(db, table, channelId, offset);
		if (rows.length === 0) return;
		yield rows;
		if (rows.length < ROWS_PER_BATCH) return;
	}
}

/** Ids checked against the destination per round trip (one bound JSON array). */
const IDS_PER_CHECK = 1000;

/**
 * The tables of which some of the community's ids (INTEGER PRIMARY KEYs) are taken in `destination` by other
 * rows: a copy there would clash. The community's own rows there (an earlier, interrupted copy)
 * do not count.
 */
export async function clashingTables(source: Db, destination: Db, tables: CommunityTable[], channelId: number): Promise<string[]> {
	const clashing: string[] = [];
	for (const table of tables) {
		const id = table.idColumn;
		if (id === null || SHARED_TABLES.has(table.name) || table.name === 'channels') continue;
		for (let after = -Infinity; ; ) {
			const { results } = await source
				.prepare(`SELECT ${quote(id)} AS id FROM ${quote(table.name)} WHERE (${table.where}) AND ${quote(id)} > ?2 ORDER BY ${quote(id)} LIMIT ?3`)
				.bind(channelId, after === -Infinity ? Number.MIN_SAFE_INTEGER : after, IDS_PER_CHECK)
				.all<{ id: number }>();
			if (results.length === 0) break;
			const taken = await destination
				.prepare(`SELECT count(*) AS n FROM ${quote(table.name)} WHERE ${quote(id)} IN (SELECT value FROM json_each(?2)) AND NOT (${table.where})`)
				.bind(channelId, JSON.stringify(results.map((row) => row.id)))
				.first<number>('n');
			if (taken) {
				clashing.push(table.name);
				break;
			}
			after = results.at(-1)!.id;
		}
	}
	return clashing;
}

/**
 * Statements that write `rows` of `table` into `db` as they are: each a JSON array of rows of at
 * most COPY_BYTES, unpacked by SQLite (json_each), or a row alone when it is larger. `orIgnore`
 * keeps a row that is there (identities).
 */
export function insertStatements(db: Db, table: CommunityTable, rows: Row[], orIgnore = false): D1PreparedStatement[] {
	const head = `INSERT ${orIgnore ? 'OR IGNORE ' : ''}INTO ${quote(table.name)} (${table.columns.map(quote).join(', ')})`;
	const fromJson = `${head} SELECT ${table.columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ')} FROM json_each(?1) ORDER BY key`;
	const statements: D1PreparedStatement[] = [];
	let chunk: string[] = [];
	let bytes = 0;
	const flush = () => {
		if (chunk.length > 0) statements.push(db.prepare(fromJson).bind(`[${chunk.join(',')}]`));
		chunk = [];
		bytes = 0;
	};
	for (const row of rows) {
		const values = table.columns.map((column) => row[column] ?? null);
		const json = JSON.stringify(values);
		if (json.length > COPY_BYTES) {
			flush();
			statements.push(db.prepare(`${head} VALUES (${table.columns.map((_, i) => `?${i + 1}`).join(', ')})`).bind(...values));
			continue;
		}
		if (bytes + json.length > COPY_BYTES) flush();
		chunk.push(json);
		bytes += json.length + 1;
	}
	flush();
	return statements;
}

/** The number of the community's rows of `table` and a SHA-256 of them all, column by column, in order. */
export async function tableChecksum(db: Db, table: CommunityTable, channelId: number): Promise<{ rows: number; sha256: string }> {
	let text = '';
	let rows = 0;
	for await (const page of pages(db, table, channelId)) {
		rows += page.length;
		for (const row of page) text += `${JSON.stringify(table.columns.map((column) => row[column] ?? null))}\n`;
	}
	const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
	return { rows, sha256: [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('') };
}

/** The community's search entries in `db` (posts and members' nicknames): their number. */
export async function searchEntries(db: Db, channelId: number): Promise<number> {
	const [low, high] = channelRange(channelId);
	const counts = await db.batch<{ n: number }>([
		db.prepare('SELECT count(*) AS n FROM post_search WHERE rowid BETWEEN ?1 AND ?2').bind(low, high),
		db.prepare('SELECT count(*) AS n FROM member_search WHERE rowid BETWEEN ?1 AND ?2').bind(low, high),
	]);
	return counts.reduce((sum, result) => sum + (result.results[0]?.n ?? 0), 0);
}

/** Writes the community's search entries in `db` from its posts and members there, in bounded batches (as `npm run search -- reindex`). */
export async function writeSearchEntries(db: Db, channelId: number): Promise<void> {
	for (let after = 0; ; ) {
		const { results } = await db
			.prepare('SELECT id, title, content_text FROM posts WHERE channel_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3')
			.bind(channelId, after, ROWS_PER_BATCH)
			.all<{ id: number; title: string; content_text: string }>();
		if (results.length === 0) break;
		await db.batch(results.flatMap((row) => postSearchStatements(db, channelId, row.id, { title: row.title, body: row.content_text })));
		after = results.at(-1)!.id;
	}
	for (let after = 0; ; ) {
		const { results } = await db
			.prepare('SELECT id, nickname, withdrawn_at FROM members WHERE channel_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3')
			.bind(channelId, after, ROWS_PER_BATCH)
			.all<{ id: number; nickname: string | null; withdrawn_at: number | null }>();
		if (results.length === 0) break;
		await db.batch(results.flatMap((row) => memberSearchStatements(db, channelId, row.id, row.withdrawn_at === null ? row.nickname : null)));
		after = results.at(-1)!.id;
	}
}

/**
 * Removes the community's rows from `db`: its search entries, then each table's rows, children
 * before parents, ROWS_PER_BATCH at a time. `keepChannelRow` keeps the channel's row (the
 * directory's); shared tables (identities) keep theirs.
 */
export async function removeCommunityRows(db: Db, tables: CommunityTable[], channelId: number, keepChannelRow: boolean): Promise<number> {
	const [low, high] = channelRange(channelId);
	let removed = 0;
	for (const index of ['post_search', 'member_search']) {
		for (;;) {
			const result = await db
				.prepare(`DELETE FROM ${index} WHERE rowid IN (SELECT rowid FROM ${index} WHERE rowid BETWEEN ?1 AND ?2 LIMIT ?3)`)
				.bind(low, high, ROWS_PER_BATCH)
				.run();
			if (result.meta.changes === 0) break;
		}
	}
	// Rows found through other tables (list_gaps through boards) go before those tables; then
	// children before parents; the channel's row last.
	const found = (table: CommunityTable) => table.where !== 'channel_id = ?1' && table.name !== 'channels';
	const order = [...tables.filter(found), ...[...tables].reverse().filter((table) => !found(table))];
	for (const table of order) {
		if (SHARED_TABLES.has(table.name) || (keepChannelRow && table.name === 'channels')) continue;
		const key = table.order.map(quote).join(', ');
		for (;;) {
			const result = await db
				// The newest first: a row that refers to another of its table (a reply, a subtree) is newer than it.
				.prepare(
					`DELETE FROM ${quote(table.name)} WHERE (${key}) IN (SELECT ${key} FROM ${quote(table.name)} WHERE ${table.where} ORDER BY ${key} DESC LIMIT ?2)`,
				)
				.bind(channelId, ROWS_PER_BATCH)
				.run();
			removed += result.meta.changes;
			if (result.meta.changes === 0) break;
		}
	}
	return removed;
}

/**
 * Writes the channel's row of `from` into `to` as it is (an update of the row there, or a new one):
 * the directory's copy of a community that lives in a content database, after `channel apply`.
 */
export async function copyChannelRow(from: Db, to: Db, channelId: number): Promise<void> {
	const row = await from.prepare('SELECT * FROM channels WHERE id = ?1').bind(channelId).first<Row>();
	if (!row) throw new Error(`No channel ${channelId} to copy`);
	const columns = Object.keys(row);
	await to
		.prepare(
			`INSERT INTO channels (${columns.map(quote).join(', ')}) VALUES (${columns.map((_, i) => `?${i + 1}`).join(', ')})
			 ON CONFLICT (id) DO UPDATE SET ${columns
					.filter((column) => column !== 'id')
					.map((column) => `${quote(column)} = excluded.${quote(column)}`)
					.join(', ')}`,
		)
		.bind(...columns.map((column) => row[column] ?? null))
		.run();
}

function quote(name: string): string {
	return `"${name.replace(/"/g, '""')}"`;
}
