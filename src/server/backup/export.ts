/**
 * A backup of one D1 database (docs/guides/backups.md), made in steps that each write a bounded number of
 * pieces, so that a database of any size is exported by a command or by cron runs one after another
 * (the progress, `BackupProgress`, is plain JSON to keep between them).
 *
 * What is exported: every table but the full-text tables (migrations/0010) and their shadow tables, which
 * D1's own export refuses and which a restore builds again from the posts and members; the schema
 * (tables, then indexes, triggers and views, created after the data so that no trigger fires on it);
 * each table's rows in the order of its key (rowid, or a WITHOUT ROWID table's primary key), parents'
 * tables before the tables that refer to them; and the R2 objects the uploads rows name (key, size,
 * etag). Each piece is at most PIECE_ROWS rows and about PIECE_BYTES bytes of SQL.
 *
 * The export reads table by table, not one snapshot: a backup taken while members write can hold a row
 * whose parent was made after the parent's table was read. For a point in time use D1 Time Travel.
 */
import { EMPTY_SUM, addRowToSum, insertLine, quoteName, sha256 } from './backup-sql';

/** Rows a piece holds at most. */
export const PIECE_ROWS = 500;
/** A piece is cut after the row that takes it past this many bytes. */
const PIECE_BYTES = 512 * 1024;
/** Upload rows whose R2 objects are looked up in one step (each row: its object and its thumbnail's). */
const OBJECT_PAGE = 100;

export interface TablePlan {
	name: string;
	columns: string[];
	/** The order of its rows and the cursor's columns: `rowid`, or a WITHOUT ROWID table's primary key. */
	key: string[];
}

export interface PieceEntry {
	name: string;
	/** The table whose rows it holds, or null for a piece of the R2 objects list. */
	table: string | null;
	rows: number;
	bytes: number;
	sha256: string;
}

interface TableSummary extends TablePlan {
	rows: number;
	/** The sum of its rows' hashes (backup-sql.ts `addRowToSum`). */
	checksum: string;
}

export interface BackupManifest {
	format: 1;
	/** The binding the backup was made from (DB, DB_1, …). */
	database: string;
	startedAt: string;
	finishedAt: string | null;
	/** The migrations applied (d1_migrations), oldest first. */
	migrations: string[];
	schema: {
		/** CREATE TABLE statements, run before the data. */
		tables: string[];
		/** Indexes, triggers and views, run after it. */
		after: string[];
		/** The full-text tables, created empty and filled by the search index's rebuild. */
		virtual: string[];
	};
	tables: TableSummary[];
	pieces: PieceEntry[];
	/** The R2 objects the uploads rows name (pieces of JSON lines: key, size, etag; null when missing). */
	objects: { count: number; missing: number };
}

/** A backup under way: its manifest so far, and where the next step starts. */
export interface BackupProgress {
	manifest: BackupManifest;
	/** The table being read (an index of `manifest.tables`; past the last: the objects), and the last key read. */
	cursor: { table: number; after: unknown[] | null; objectsAfter: number };
	done: boolean;
}

/** Where a backup's pieces go: files (npm run backup) or an R2 prefix (the cron). */
export interface PieceStore {
	put(name: string, text: string): Promise<void>;
}

/** What one step may do before it returns. */
export interface StepBudget {
	pieces: number;
	/** Milliseconds since the epoch after which no new piece is begun. */
	deadline?: number;
}

interface MasterRow {
	type: string;
	name: string;
	tbl_name: string;
	sql: string | null;
}

/** A name that holds the project's data, not SQLite's, D1's or a full-text table's own. */
const isInternal = (name: string) => name.startsWith('sqlite_') || name.startsWith('_cf_');

/** Begins a backup: reads the schema and the order of the tables; nothing is written yet. */
export async function startBackup(db: Db, database: string, now: number): Promise<BackupProgress> {
	const { results: master } = await db
		.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid')
		.all<MasterRow>();
	const virtual = master.filter((row) => row.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(row.sql ?? ''));
	const shadow = (name: string) => virtual.some((table) => name.startsWith(`${table.name}_`));
	const kept = master.filter((row) => !isInternal(row.name) && !isInternal(row.tbl_name) && !shadow(row.tbl_name) && !virtual.includes(row));
	const tables = kept.filter((row) => row.type === 'table');
	const plans = await tablePlans(db, tables);
	const migrations = tables.some((row) => row.name === 'd1_migrations')
		? (await db.prepare('SELECT name FROM d1_migrations ORDER BY id').all<{ name: string }>()).results.map((row) => row.name)
		: [];
	return {
		manifest: {
			format: 1,
			database,
			startedAt: new Date(now).toISOString(),
			finishedAt: null,
			migrations,
			schema: {
				tables: plans.map((plan) => tables.find((row) => row.name === plan.name)!.sql!),
				after: kept.filter((row) => row.type !== 'table').map((row) => row.sql!),
				virtual: virtual.map((row) => row.sql!),
			},
			tables: plans.map((plan) => ({ ...plan, rows: 0, checksum: EMPTY_SUM })),
			pieces: [],
			objects: { count: 0, missing: 0 },
		},
		cursor: { table: 0, after: null, objectsAfter: 0 },
		done: false,
	};
}

/** The tables' columns and keys, parents before the tables whose foreign keys name them. */
async function tablePlans(db: Db, tables: MasterRow[]): Promise<TablePlan[]> {
	if (tables.length === 0) return [];
	const answers = await db.batch<{ t: string; kind: string; name: string; pk: number }>(
		tables.flatMap(({ name }) => [
			db.prepare("SELECT ?1 AS t, 'column' AS kind, name, pk FROM pragma_table_info(?1) ORDER BY cid").bind(name),
			db.prepare('SELECT DISTINCT ?1 AS t, \'parent\' AS kind, "table" AS name, 0 AS pk FROM pragma_foreign_key_list(?1)').bind(name),
		]),
	);
	const plans = tables.map(({ name, sql }, index) => {
		const columns = answers[index * 2]!.results;
		const withoutRowid = /\)\s*WITHOUT\s+ROWID\s*$/i.test(sql ?? '');
		const key = withoutRowid
			? columns
					.filter((column) => column.pk > 0)
					.sort((a, b) => a.pk - b.pk)
					.map((column) => column.name)
			: ['rowid'];
		const parents = answers[index * 2 + 1]!.results.map((row) => row.name).filter((parent) => parent !== name);
		return { plan: { name, columns: columns.map((column) => column.name), key }, parents };
	});
	// Depth-first: each table after its parents, in the order the schema made them (a cycle is broken where met).
	const ordered: TablePlan[] = [];
	const state = new Map<string, 'visiting' | 'done'>();
	const visit = (entry: (typeof plans)[number]) => {
		if (state.has(entry.plan.name)) return;
		state.set(entry.plan.name, 'visiting');
		for (const parent of entry.parents) {
			const found = plans.find((candidate) => candidate.plan.name === parent);
			if (found) visit(found);
		}
		state.set(entry.plan.name, 'done');
		ordered.push(entry.plan);
	};
	plans.forEach(visit);
	return ordered;
}

/** The statement that reads a table's next page of rows in key order, with the key as __k0, __k1, … */
function pageStatement(db: Db, plan: TablePlan, after: unknown[] | null, limit: number): D1PreparedStatement {
	const keys = plan.key.map((column) => (column === 'rowid' ? 'rowid' : quoteName(column)));
	const select = [...keys.map((key, index) => `${key} AS "__k${index}"`), ...plan.columns.map(quoteName)].join(', ');
	const where = after ? `WHERE (${keys.join(', ')}) > (${keys.map((_, index) => `?${index + 1}`).join(', ')})` : '';
	return db
		.prepare(`SELECT ${select} FROM ${quoteName(plan.name)} ${where} ORDER BY ${keys.join(', ')} LIMIT ?${keys.length + 1}`)
		.bind(...(after ?? plan.key.map(() => null)), limit);
}

/** The next piece of a table from `after` on: its lines and the key of its last row (null when the table is read). */
export async function readPiece(db: Db, plan: TablePlan, after: unknown[] | null): Promise<{ lines: string[]; last: unknown[] | null }> {
	const { results } = await pageStatement(db, plan, after, PIECE_ROWS).all<Record<string, unknown>>();
	const lines: string[] = [];
	let bytes = 0;
	let last: unknown[] | null = null;
	for (const row of results) {
		const line = insertLine(plan.name, plan.columns, row);
		lines.push(line);
		bytes += line.length + 1;
		last = plan.key.map((_, index) => row[`__k${index}`]);
		if (bytes >= PIECE_BYTES) break;
	}
	return { lines, last: lines.length === results.length && results.length < PIECE_ROWS ? null : last };
}

/**
 * Writes pieces of the backup until it is done or the budget is spent; returns the progress to go on
 * from. `bucket` is the uploads' bucket, whose objects are listed (without it, none are).
 */
export async function backupStep(
	db: Db,
	bucket: R2Bucket | null,
	progress: BackupProgress,
	store: PieceStore,
	budget: StepBudget,
): Promise<BackupProgress> {
	const { manifest, cursor } = progress;
	const plans = manifest.tables;
	for (let written = 0; !progress.done && written < budget.pieces && (budget.deadline === undefined || Date.now() < budget.deadline); written += 1) {
		const plan = plans[cursor.table];
		if (plan) {
			const { lines, last } = await readPiece(db, plan, cursor.after);
			if (lines.length > 0) {
				for (const line of lines) plan.checksum = addRowToSum(plan.checksum, line);
				plan.rows += lines.length;
				await putPiece(manifest, store, plan.name, lines);
			}
			if (last === null) Object.assign(cursor, { table: cursor.table + 1, after: null });
			else cursor.after = last;
		} else if (bucket && plans.some((table) => table.name === 'uploads')) {
			const lines = await objectLines(db, bucket, cursor);
			if (lines === null) progress.done = true;
			else {
				manifest.objects.count += lines.length;
				manifest.objects.missing += lines.filter((line) => JSON.parse(line).size === null).length;
				await putPiece(manifest, store, null, lines);
			}
		} else progress.done = true;
	}
	if (progress.done) {
		manifest.finishedAt = new Date().toISOString();
		await store.put(
			'schema.sql',
			[...manifest.schema.tables, ...manifest.schema.after, ...manifest.schema.virtual].map((sql) => `${sql};\n`).join(''),
		);
		await store.put('manifest.json', `${JSON.stringify(manifest, null, '\t')}\n`);
	}
	return progress;
}

async function putPiece(manifest: BackupManifest, store: PieceStore, table: string | null, lines: string[]): Promise<void> {
	const text = `${lines.join('\n')}\n`;
	const name = `${String(manifest.pieces.length + 1).padStart(6, '0')}-${table ?? 'r2-objects'}.${table ? 'sql' : 'jsonl'}`;
	await store.put(name, text);
	manifest.pieces.push({ name, table, rows: lines.length, bytes: new TextEncoder().encode(text).byteLength, sha256: sha256(text) });
}

/** The next uploads rows' R2 objects as JSON lines (null when all are listed). */
async function objectLines(db: Db, bucket: R2Bucket, cursor: BackupProgress['cursor']): Promise<string[] | null> {
	const { results } = await db
		.prepare('SELECT id, r2_key, thumb_key FROM uploads WHERE id > ?1 ORDER BY id LIMIT ?2')
		.bind(cursor.objectsAfter, OBJECT_PAGE)
		.all<{ id: number; r2_key: string; thumb_key: string | null }>();
	if (results.length === 0) return null;
	cursor.objectsAfter = results.at(-1)!.id;
	const keys = results.flatMap((row) => (row.thumb_key ? [row.r2_key, row.thumb_key] : [row.r2_key]));
	const heads = await Promise.all(keys.map((key) => bucket.head(key)));
	return keys.map((key, index) => JSON.stringify({ key, size: heads[index]?.size ?? null, etag: heads[index]?.etag ?? null }));
}
