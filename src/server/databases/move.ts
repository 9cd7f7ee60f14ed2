/**
 * Moving a community from the database that holds it to another (`npm run channel -- move DOMAIN/SLUG
 * --to DB_n`, docs/reference/databases.md#moving-a-community):
 *
 * 1. writes are refused: the directory's row and the source's row get `moving_to`; from that
 *    commit on, no write of the community commits (every write's statements carry the check:
 *    write-guard.ts), and an isolate that has seen the row answers CommunityMoving (503,
 *    Retry-After) before it sends anything;
 * 2. the destination loses whatever an earlier, interrupted run copied, then every row of the
 *    community is copied, ROWS_PER_BATCH rows a batch (in statements of at most COPY_BYTES), parents
 *    before children, and its search
 *    entries are written again there;
 * 3. the copy is verified: per table, the number of rows and a SHA-256 of them equal the source's,
 *    and so does the number of search entries; a difference stops the move (writes stay refused:
 *    run it again, or roll it back); then the source's floors are raised past the community's ids
 *    (ids.ts), so it never hands them out again;
 * 4. the switch: the destination's row, then the directory's, say the community lives there (writes
 *    allowed again); the source's row says so too, which refuses the writes of isolates that have
 *    not seen the switch yet; `settle` waits until no read is still under way on the source's rows
 *    with a channel's row from before the switch;
 * 5. the source's rows are removed, in batches (the directory keeps its row of the community).
 *
 * Readers read throughout: from the source until they see the switch, then from the destination.
 * Run again after an interruption, a move finishes (steps 1-3 are repeated from a clean
 * destination; after the switch only the removal is left); `rollbackMove` abandons one instead.
 */
import {
	clashingTables,
	communityTables,
	insertStatements,
	pages,
	removeCommunityRows,
	searchEntries,
	tableChecksum,
	writeSearchEntries,
	type CommunityTable,
} from './community-rows';
import { SEARCHED_LAST, SEARCHED_SPAN, databaseNumber, raiseFloors } from './ids';

/** The databases of a deployment: the directory, and each bound one by name (DB included). */
export interface BoundDatabases {
	directory: Db;
	names: string[];
	open(name: string): Db;
}

/** The steps a move reports as it goes (the operator's command prints them). */
export type MoveStep = 'writes refused' | 'destination cleared' | 'copied' | 'verified' | 'switched' | 'removed';

export interface MoveOptions {
	/**
	 * After the switch, before the source's rows go: waits until every isolate has seen the channel's
	 * row change (the channel memo's two seconds and a margin), so that no read still under way with the
	 * old row finds them gone. Writes need no wait: their own check refuses them (write-guard.ts).
	 */
	settle: () => Promise<void>;
	/** Told of each step once it is done. */
	onStep?: (step: MoveStep, detail: string) => void | Promise<void>;
}

export type MoveOutcome = { kind: 'moved'; from: string; to: string; rows: number; removed: number } | { kind: 'already there'; removed: number };

const DIRECTORY = 'DB';

interface Placement {
	id: number;
	database: string;
	moving_to: string | null;
}

export class MoveRefused extends Error {}

async function placementOf(directory: Db, domain: string, slug: string): Promise<Placement> {
	const row = await directory
		.prepare('SELECT id, database, moving_to FROM channels WHERE domain = ?1 AND slug = ?2')
		.bind(domain, slug)
		.first<Placement>();
	if (!row) throw new MoveRefused(`there is no community ${domain}/${slug}`);
	return row;
}

/** Moves the community at /{domain}/{slug} into the database bound as `to`. @throws MoveRefused */
export async function moveCommunity(dbs: BoundDatabases, domain: string, slug: string, to: string, options: MoveOptions): Promise<MoveOutcome> {
	if (!dbs.names.includes(to)) throw new MoveRefused(`no database is bound as ${to} (bound: ${dbs.names.join(', ')})`);
	if (databaseNumber(to) * SEARCHED_SPAN >= SEARCHED_LAST) throw new MoveRefused(`${to} has no range of ids for new posts and members`);
	const placement = await placementOf(dbs.directory, domain, slug);
	const step = async (name: MoveStep, detail = '') => options.onStep?.(name, detail);
	if (placement.database === to && placement.moving_to === null) {
		return { kind: 'already there', removed: await removeLeftovers(dbs, placement.id, to) };
	}
	if (placement.moving_to !== null && placement.moving_to !== to) {
		throw new MoveRefused(
			`a move to ${placement.moving_to} is under way: run it again with --to ${placement.moving_to}, or roll it back with --rollback`,
		);
	}
	const from = placement.database;
	const source = dbs.open(from);
	const destination = dbs.open(to);
	const id = placement.id;
	// Before anything changes: the community's ids must be free in the destination. New ids never clash
	// (ids.ts: a range per database); ids from before the ranges may (docs/decisions/decisions.md).
	const clashing = await clashingTables(source, destination, await communityTables(source), id);
	if (clashing.length > 0)
		throw new MoveRefused(`${to} holds other rows with some of the community's ids (${clashing.join(', ')}); nothing was changed`);
	// 1. Writes refused, everywhere the community's row is read.
	await markMoving(dbs, from, id, to);
	await step('writes refused', `${from} → ${to}`);
	// 2. A clean destination, then the copy.
	const tables = await communityTables(source);
	await removeCommunityRows(destination, tables, id, to === DIRECTORY);
	await step('destination cleared');
	let rows = 0;
	for (const table of tables) rows += await copyTable(source, destination, table, id, to === DIRECTORY);
	await writeSearchEntries(destination, id);
	await step('copied', `${rows} rows`);
	// 3. Verified table by table.
	await verifyCopy(source, destination, tables, id);
	// The source never hands out the community's ids again (src/server/databases/ids.ts).
	await raiseFloors(source, from, tables, id);
	await step('verified');
	// 4. The switch: the destination, the directory, then the source's row (still refusing writes).
	await destination.prepare('UPDATE channels SET database = ?2, moving_to = NULL WHERE id = ?1').bind(id, to).run();
	await dbs.directory.prepare('UPDATE channels SET database = ?2, moving_to = NULL WHERE id = ?1').bind(id, to).run();
	if (from !== DIRECTORY) await source.prepare('UPDATE channels SET database = ?2 WHERE id = ?1').bind(id, to).run();
	await options.settle();
	await step('switched');
	// 5. The source's rows go.
	const removed = await removeCommunityRows(source, tables, id, from === DIRECTORY);
	await step('removed', `${removed} rows`);
	return { kind: 'moved', from, to, rows, removed };
}

/** Abandons a move that was interrupted before its switch: the copy goes, and writes are allowed again. @throws MoveRefused */
export async function rollbackMove(dbs: BoundDatabases, domain: string, slug: string): Promise<{ to: string; removed: number } | null> {
	const placement = await placementOf(dbs.directory, domain, slug);
	const to = placement.moving_to;
	if (to === null) return null;
	if (!dbs.names.includes(to)) throw new MoveRefused(`the move goes to ${to}, which is not bound`);
	const destination = dbs.open(to);
	const removed = await removeCommunityRows(destination, await communityTables(dbs.open(placement.database)), placement.id, to === DIRECTORY);
	await markMoving(dbs, placement.database, placement.id, null);
	return { to, removed };
}

/** Sets (or clears) `moving_to` on the directory's row and the source's. */
async function markMoving(dbs: BoundDatabases, from: string, id: number, to: string | null): Promise<void> {
	const sql = 'UPDATE channels SET moving_to = ?2 WHERE id = ?1';
	if (from !== DIRECTORY) await dbs.open(from).prepare(sql).bind(id, to).run();
	await dbs.directory.prepare(sql).bind(id, to).run();
}

/** Copies the community's rows of `table`; into the directory, its row of the channel is updated instead. */
async function copyTable(source: Db, destination: Db, table: CommunityTable, id: number, intoDirectory: boolean): Promise<number> {
	let rows = 0;
	for await (const page of pages(source, table, id)) {
		if (table.name === 'channels' && intoDirectory) {
			const columns = table.columns.filter((column) => column !== 'id');
			await destination
				.prepare(`UPDATE channels SET ${columns.map((column, i) => `"${column}" = ?${i + 2}`).join(', ')} WHERE id = ?1`)
				.bind(id, ...columns.map((column) => page[0]![column] ?? null))
				.run();
		} else {
			await destination.batch(insertStatements(destination, table, page, table.name === 'identities'));
		}
		rows += page.length;
	}
	return rows;
}

async function verifyCopy(source: Db, destination: Db, tables: CommunityTable[], id: number): Promise<void> {
	const differences: string[] = [];
	for (const table of tables) {
		const [before, after] = await Promise.all([tableChecksum(source, table, id), tableChecksum(destination, table, id)]);
		if (before.rows !== after.rows || before.sha256 !== after.sha256) {
			differences.push(`${table.name}: ${before.rows} rows (${before.sha256.slice(0, 12)}) against ${after.rows} (${after.sha256.slice(0, 12)})`);
		}
	}
	const [indexed, copied] = await Promise.all([searchEntries(source, id), searchEntries(destination, id)]);
	if (indexed !== copied) differences.push(`search entries: ${indexed} against ${copied}`);
	if (differences.length > 0) {
		throw new MoveRefused(
			`the copy differs from the source, nothing was switched (run the move again, or --rollback):\n  ${differences.join('\n  ')}`,
		);
	}
}

/** After the switch: the community's rows in every database but its own (a removal that was interrupted). */
async function removeLeftovers(dbs: BoundDatabases, id: number, home: string): Promise<number> {
	let removed = 0;
	for (const name of dbs.names) {
		if (name === home) continue;
		const db = dbs.open(name);
		removed += await removeCommunityRows(db, await communityTables(db), id, name === DIRECTORY);
	}
	return removed;
}
