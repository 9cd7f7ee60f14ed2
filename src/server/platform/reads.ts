/**
 * Named reads. A read is one value: the D1 statement(s) it sends and the function that turns their
 * result(s) into its typed value. A page or a service asks for a record of reads
 * (`{ post: postRead(…), liked: likedRead(…) }`), they go to D1 in one batch (one round trip:
 * docs/decisions/performance.md#round-trips), and the answer is the record of their values, by name
 * (`read.post`, `read.liked`), typed from the record: nothing is taken from a batch by position.
 */

/** A read of one statement. */
export interface Read<T> {
	readonly statement: D1PreparedStatement;
	readonly parse: (result: D1Result) => T;
}

/** A read of several statements sent together (a page of rows and their count). */
export interface ReadGroup<T> {
	readonly statements: readonly D1PreparedStatement[];
	readonly parse: (results: readonly D1Result[]) => T;
}

type AnyRead<T> = Read<T> | ReadGroup<T>;

/** A record of reads; a key may be left out (a read not needed: a guest's like). */
export type Reads = Readonly<Record<string, AnyRead<unknown> | undefined>>;

/** The value of a read (never for a read left out). */
type ValueOf<R> = R extends AnyRead<infer T> ? T : never;

/** The value of each read of a record, by its name (a read left out has no value). */
export type ReadValues<R extends Reads> = { -readonly [K in keyof R]: ValueOf<R[K]> };

/** A read of one statement. */
export function read<T>(statement: D1PreparedStatement, parse: (result: D1Result) => T): Read<T> {
	return { statement, parse };
}

/** A read of several statements, sent together. */
export function readGroup<T>(statements: readonly D1PreparedStatement[], parse: (results: readonly D1Result[]) => T): ReadGroup<T> {
	return { statements, parse };
}

function statementsOfRead(one: AnyRead<unknown>): readonly D1PreparedStatement[] {
	return 'statements' in one ? one.statements : [one.statement];
}

/** The reads of a record as one group: their statements in the record's order, and their values by name. */
export function together<R extends Reads>(reads: R): ReadGroup<ReadValues<R>> {
	const entries = Object.entries(reads).filter((entry): entry is [string, AnyRead<unknown>] => entry[1] !== undefined);
	return readGroup(
		entries.flatMap(([, one]) => statementsOfRead(one)),
		(results) => {
			let at = 0;
			const values: Record<string, unknown> = {};
			for (const [name, one] of entries) {
				const count = statementsOfRead(one).length;
				const own = results.slice(at, at + count);
				at += count;
				values[name] = 'statements' in one ? one.parse(own) : one.parse(own[0]!);
			}
			return values as ReadValues<R>;
		},
	);
}

/** Runs a read: one statement alone, several in one batch (none when it has no statements). */
export async function run<T>(db: Db, one: AnyRead<T>): Promise<T> {
	if (!('statements' in one)) return one.parse(await one.statement.all());
	return one.parse(one.statements.length === 0 ? [] : await db.batch([...one.statements]));
}

/** Sends the reads of a record in one batch (no round trip when it is empty) and answers their values by name. */
export function readAll<R extends Reads>(db: Db, reads: R): Promise<ReadValues<R>> {
	return run(db, together(reads));
}

/**
 * The statements a write checks before its batch, sent in one batch (no round trip when every one
 * is null), answering each one's result in their order: undefined for a null, a read that was not
 * needed. A write that needs several independent rows (a board, the writer's uploads, the
 * nicknames it mentions…) asks for them all at once and then checks the answers in the order its
 * rules give, each with the check that may refuse the write.
 */
export async function readTogether(db: Db, reads: readonly (D1PreparedStatement | null)[]): Promise<(D1Result | undefined)[]> {
	const statements = reads.filter((one) => one !== null);
	const results = statements.length === 0 ? [] : await db.batch(statements);
	let at = 0;
	return reads.map((one) => (one === null ? undefined : results[at++]));
}

/** The first row of a result, or null. */
export function firstRowOf<T>(result: D1Result | undefined): T | null {
	return (result?.results[0] as T | undefined) ?? null;
}
