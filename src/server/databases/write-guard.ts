/**
 * The move's check inside every write (docs/reference/databases.md#writes-during-a-move). A move
 * marks the community's row `moving_to` before it copies; a write that read the channel's row
 * before the mark (or from a replica that had not seen it) would otherwise commit after the copy
 * read its tables, and be lost. So every statement that writes, and every batch that holds one,
 * goes to D1 with a guard at its head: a statement of the same transaction that fails (rolling the
 * whole batch back) unless, in the database written to, the community's row says it lives there and
 * is not moving. A write that committed did so before the mark, which the copy then sees; none
 * commits after it, whatever its timing. A statement alone becomes a batch of two: still one round
 * trip, and its answer is the statement's own.
 *
 * `communityWrites` guards one community's writes (the API's, the sign-in return's, the email
 * links', the notification consumer's): refused, the write answers CommunityMoving. `databaseWrites`
 * guards work over a whole database (the cron's steps), which stops while a move copies from or
 * into it: refused with MoveUnderWay.
 */
import { AppError, isAppError } from '@/server/platform/errors';
import { MOVING_RETRY_SECONDS } from '@/server/channels/community';

/** What `unlessMoving` answers for a write the move's check refused. */
export const MOVING = Symbol('moving');

/** What `write` answers, or MOVING when the move's check in its statements refused it (CommunityMoving). */
export async function unlessMoving<T>(write: () => Promise<T>): Promise<T | typeof MOVING> {
	try {
		return await write();
	} catch (error) {
		if (isAppError(error) && error.codeName === 'CommunityMoving') return MOVING;
		throw error;
	}
}

/** A batch's work over a whole database refused: a move copies from or into it. */
export class MoveUnderWay extends Error {}

/**
 * The text the guard's failure carries: an invalid JSON path, which SQLite names in its error
 * ("bad JSON path: '…'"), so that no other failure of the batch (a service's own assertions:
 * src/server/platform/batch.ts) is taken for it.
 */
const REFUSED = 'a community of this database is moving';

/** Statements that write: INSERT, UPDATE, DELETE, REPLACE, alone or after a WITH. */
const WRITES = /^\s*(?:INSERT|UPDATE|DELETE|REPLACE)\b|^\s*WITH\b[\s\S]*\b(?:INSERT|UPDATE|DELETE|REPLACE)\b/i;

/** Whether `sql` writes. */
function writes(sql: string): boolean {
	return WRITES.test(sql);
}

/** One community's writes in the database bound as `binding`: refused (CommunityMoving) unless it lives there and is not moving. */
export function communityWrites(db: Db, channel: { id: number; database: string }): Db {
	return guarded(
		db,
		'EXISTS (SELECT 1 FROM channels WHERE id = ?1 AND database = ?2 AND moving_to IS NULL)',
		[channel.id, channel.database],
		() => new AppError('CommunityMoving', undefined, { retryAfter: MOVING_RETRY_SECONDS }),
	);
}

/**
 * Writes over the whole database bound as `binding`: refused (MoveUnderWay) while a move copies
 * from it (its row there, moving, still or already names it) or into it (the copied row names the
 * destination in `moving_to`).
 */
export function databaseWrites(db: Db, binding: string): Db {
	return guarded(db, `NOT ${MOVE_TOUCHES}`, [binding], () => new MoveUnderWay(`a move copies from or into ${binding}`));
}

/** SQL that holds while a move copies from or into the database bound as ?1 (its rows of moving communities). */
const MOVE_TOUCHES = 'EXISTS (SELECT 1 FROM channels WHERE moving_to IS NOT NULL AND (database = ?1 OR moving_to = ?1))';

/** Whether a move copies from or into the database bound as `binding`, read before work over it begins. */
export async function moveTouches(db: Db, binding: string): Promise<boolean> {
	return (await db.prepare(`SELECT ${MOVE_TOUCHES} AS touched`).bind(binding).first<number>('touched')) === 1;
}

/** `db` whose writes carry the guard `condition` (over `values`, bound as ?1, ?2, ...), refused with `refusal()`. */
function guarded(db: Db, condition: string, values: unknown[], refusal: () => Error): Db {
	const guard = () => db.prepare(`SELECT json_extract('{}', CASE WHEN ${condition} THEN '$' ELSE '${REFUSED}' END)`).bind(...values);
	const inner = new WeakMap<D1PreparedStatement, D1PreparedStatement>();
	const unwrap = (statement: D1PreparedStatement) => inner.get(statement) ?? statement;
	/** Sends `statements` after the guard, and answers their results. */
	const send = async <T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> => {
		try {
			return (await db.batch<T>([guard(), ...statements])).slice(1);
		} catch (error) {
			if (error instanceof Error && (error.message.includes(REFUSED) || String(error.cause).includes(REFUSED))) throw refusal();
			throw error;
		}
	};
	const statement = (sql: string, original: D1PreparedStatement): D1PreparedStatement => {
		const one = async <T>() => (await send<T>([original]))[0]!;
		const proxy = new Proxy(original, {
			get(target, key) {
				if (key === 'bind') return (...bound: unknown[]) => statement(sql, target.bind(...bound));
				if (key === 'run' || key === 'all') return one;
				if (key === 'first') {
					return async (column?: string) => {
						const row = ((await one()).results[0] ?? null) as Record<string, unknown> | null;
						return column === undefined ? row : (row?.[column] ?? null);
					};
				}
				if (key === 'raw') {
					return async (options?: { columnNames?: boolean }) => {
						const rows = (await one()).results as Record<string, unknown>[];
						const arrays = rows.map((row) => Object.values(row));
						return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...arrays] : arrays;
					};
				}
				const value: unknown = Reflect.get(target, key, target);
				return typeof value === 'function' ? value.bind(target) : value;
			},
		});
		inner.set(proxy, original);
		return proxy;
	};
	return {
		prepare: (sql: string) => (writes(sql) ? statement(sql, db.prepare(sql)) : db.prepare(sql)),
		batch: <T>(statements: D1PreparedStatement[]) => {
			const unwrapped = statements.map(unwrap);
			return statements.some((one) => inner.has(one)) ? send<T>(unwrapped) : db.batch<T>(unwrapped);
		},
	} as Db;
}
