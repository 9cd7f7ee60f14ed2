/**
 * Guarded D1 batches. A batch is one transaction, but what a service read before it may have
 * changed by the time it runs; an assertion statement at the head of the batch re-checks it inside
 * the transaction and rolls everything back when it no longer holds.
 */
import { AppError, type ResultCodeName } from './errors';

const ASSERTION_FAILED = /CHECK constraint failed: (?:batch_assertions|ok = 1)/;
const OTHER_ASSERTION_FAILED = /NOT NULL constraint failed: batch_assertions\.ok/;

/**
 * A statement that fails (and so rolls back its batch) unless `condition`, an SQL expression over
 * the bound values, holds.
 */
export function assertion(db: Db, condition: string, ...values: unknown[]): D1PreparedStatement {
	return db.prepare(`INSERT INTO batch_assertions (ok) SELECT 0 WHERE NOT (${condition})`).bind(...values);
}

/**
 * An assertion whose failure guardedBatch tells apart from `assertion`'s (the row it would insert
 * fails NOT NULL rather than CHECK): for a batch whose checks answer different errors, so that no
 * read after the failed batch has to ask which one failed.
 */
export function otherAssertion(db: Db, condition: string, ...values: unknown[]): D1PreparedStatement {
	return db.prepare(`INSERT INTO batch_assertions (ok) SELECT NULL WHERE NOT (${condition})`).bind(...values);
}

/**
 * Runs `statements` as one transaction; a failed assertion becomes AppError(`onConflict`), a failed
 * otherAssertion AppError(`onOtherConflict`). Statements run in order: the first that fails answers.
 */
export async function guardedBatch(
	db: Db,
	statements: D1PreparedStatement[],
	onConflict: ResultCodeName,
	onOtherConflict: ResultCodeName = onConflict,
): Promise<D1Result[]> {
	try {
		return await db.batch(statements);
	} catch (error) {
		if (error instanceof Error && ASSERTION_FAILED.test(error.message)) throw new AppError(onConflict);
		if (error instanceof Error && OTHER_ASSERTION_FAILED.test(error.message)) throw new AppError(onOtherConflict);
		throw error;
	}
}

/** Whether `error` is a UNIQUE constraint failure on `index` (or on any index when omitted). */
export function isUniqueViolation(error: unknown, index?: string): boolean {
	if (!(error instanceof Error) || !/UNIQUE constraint failed/.test(error.message)) return false;
	return index === undefined || error.message.includes(index);
}
