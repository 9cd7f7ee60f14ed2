/**
 * Reads sent together. A write that needs several independent rows before its batch (a board, the
 * writer's uploads, the nicknames it mentions…) asks for them all in one D1 batch, one round trip
 * (docs/performance.md#round-trips), and then checks the answers in the order its rules give.
 */

/**
 * Sends the statements of `reads` in one batch (no round trip when every one is null) and answers
 * each one's result in their order: undefined for a null, a read that was not needed.
 */
export async function readTogether(db: D1Database, reads: readonly (D1PreparedStatement | null)[]): Promise<(D1Result | undefined)[]> {
	const statements = reads.filter((read) => read !== null);
	const results = statements.length === 0 ? [] : await db.batch(statements);
	let at = 0;
	return reads.map((read) => (read === null ? undefined : results[at++]));
}

/** The first row of a result, or null. */
export function firstRowOf<T>(result: D1Result | undefined): T | null {
	return (result?.results[0] as T | undefined) ?? null;
}
