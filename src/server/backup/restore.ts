/**
 * Loads a backup (export.ts) into an empty D1 database (docs/guides/backups.md): the tables, each piece's
 * rows (checked against the piece's SHA-256 first), then the indexes, triggers and views, the full-text
 * tables empty, and the search index rebuilt from the posts and members. Then it verifies: every table's
 * row count and checksum must equal the manifest's, and, given the uploads' bucket, every R2 object the
 * manifest lists must be there with its size and etag.
 *
 * A database that holds a table already is refused (`RestoreRefused`) unless `force`, which empties it
 * first; so is a backup with a piece missing or altered, before anything is written.
 */
import { EMPTY_SUM, addRowToSum, insertStatements, sha256 } from './backup-sql';
import { readPiece, type BackupManifest, type PieceEntry } from './export';
import { dropEverything } from './empty-database';
import { rebuildSearchIndex, type Reindexed } from '@/server/search-index/rebuild';

/** Where a backup is read from: a folder (npm run restore) or an R2 prefix. */
export interface PieceSource {
	get(name: string): Promise<string | null>;
}

/** A restore that was refused before it wrote anything. */
export class RestoreRefused extends Error {}

/** A restore whose result differs from the manifest. */
export class RestoreMismatch extends Error {
	constructor(readonly differences: string[]) {
		super(`The restored database differs from the backup:\n${differences.join('\n')}`);
	}
}

export interface RestoreReport {
	tables: number;
	rows: number;
	objects: number;
	search: Reindexed;
}

/** The manifest of the backup in `source`; a missing, unfinished or unknown one is refused. */
async function readManifest(source: PieceSource): Promise<BackupManifest> {
	const text = await source.get('manifest.json');
	if (text === null) throw new RestoreRefused('No manifest.json: not a finished backup');
	const manifest = JSON.parse(text) as BackupManifest;
	if (manifest.format !== 1 || !manifest.finishedAt) throw new RestoreRefused(`manifest.json is not a finished backup of format 1`);
	return manifest;
}

/** A piece's text, refused when it is missing or is not the one the manifest names. */
async function pieceText(source: PieceSource, piece: PieceEntry): Promise<string> {
	const text = await source.get(piece.name);
	if (text === null) throw new RestoreRefused(`The piece ${piece.name} is missing`);
	if (sha256(text) !== piece.sha256) throw new RestoreRefused(`The piece ${piece.name} is not the one the manifest names (its SHA-256 differs)`);
	return text;
}

/** The tables a database holds, SQLite's and D1's own not counted. */
async function tableCount(db: Db): Promise<number> {
	const found = await db
		.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
		.first<number>('n');
	return found ?? 0;
}

export async function restoreBackup(
	db: Db,
	source: PieceSource,
	options: { bucket?: R2Bucket | null; force?: boolean; log?: (line: string) => void } = {},
): Promise<RestoreReport> {
	const log = options.log ?? (() => {});
	const manifest = await readManifest(source);
	const existing = await tableCount(db);
	if (existing > 0) {
		if (!options.force)
			throw new RestoreRefused(`The database holds ${existing} tables: restore into an empty one, or give --force to drop them first`);
	}
	// Every piece is checked (its SHA-256, each line read) before anything is written: a backup with a missing or altered piece changes nothing.
	const pieces = manifest.pieces.filter((entry) => entry.table !== null);
	for (const piece of pieces) insertStatements((await pieceText(source, piece)).split('\n').filter((line) => line !== ''));
	if (existing > 0) await dropEverything(db);
	await db.batch(manifest.schema.tables.map((sql) => db.prepare(sql)));
	let rows = 0;
	for (const piece of pieces) {
		const statements = insertStatements((await pieceText(source, piece)).split('\n').filter((line) => line !== '')).map(({ sql, values }) =>
			db.prepare(sql).bind(...values),
		);
		// One batch a piece (at most PIECE_ROWS rows, about PIECE_BYTES), its foreign keys checked at its end.
		await db.batch([db.prepare('PRAGMA defer_foreign_keys = on'), ...statements]);
		rows += piece.rows;
		log(`${piece.name}: ${piece.rows} rows`);
	}
	const after = [...manifest.schema.after, ...manifest.schema.virtual];
	if (after.length > 0) await db.batch(after.map((sql) => db.prepare(sql)));
	const hasSearch = manifest.schema.virtual.some((sql) => /\bpost_search\b/.test(sql)) && manifest.tables.some((table) => table.name === 'posts');
	const search = hasSearch ? await rebuildSearchIndex(db) : { posts: 0, listed: 0, members: 0 };
	const differences = [
		...(await tableDifferences(db, manifest)),
		...(options.bucket ? await objectDifferences(options.bucket, manifest, source) : []),
	];
	if (differences.length > 0) throw new RestoreMismatch(differences);
	return { tables: manifest.tables.length, rows, objects: manifest.objects.count, search };
}

/** Each table whose rows or checksum in `db` differ from the manifest's. */
async function tableDifferences(db: Db, manifest: BackupManifest): Promise<string[]> {
	const differences: string[] = [];
	for (const expected of manifest.tables) {
		let found = { rows: 0, checksum: EMPTY_SUM };
		for (let after: unknown[] | null = null, first = true; first || after !== null; first = false) {
			const piece: { lines: string[]; last: unknown[] | null } = await readPiece(db, expected, after);
			for (const line of piece.lines) found = { rows: found.rows + 1, checksum: addRowToSum(found.checksum, line) };
			after = piece.last;
		}
		if (found.rows !== expected.rows || found.checksum !== expected.checksum)
			differences.push(
				`${expected.name}: ${found.rows} rows, checksum ${found.checksum}; the backup has ${expected.rows} rows, checksum ${expected.checksum}`,
			);
	}
	return differences;
}

/** Each R2 object the manifest lists that the bucket lacks, or holds with another size or etag. */
export async function objectDifferences(bucket: R2Bucket, manifest: BackupManifest, source: PieceSource): Promise<string[]> {
	const differences: string[] = [];
	for (const piece of manifest.pieces.filter((entry) => entry.table === null)) {
		const text = (await source.get(piece.name)) ?? '';
		const listed = text
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => JSON.parse(line) as { key: string; size: number | null; etag: string | null });
		const heads = await Promise.all(listed.map(({ key }) => bucket.head(key)));
		listed.forEach(({ key, size, etag }, index) => {
			const head = heads[index];
			if ((head?.size ?? null) !== size || (head?.etag ?? null) !== etag)
				differences.push(
					`R2 object ${key}: ${head ? `size ${head.size}, etag ${head.etag}` : 'missing'}; the backup lists ${size === null ? 'none' : `size ${size}, etag ${etag}`}`,
				);
		});
	}
	return differences;
}
