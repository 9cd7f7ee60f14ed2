/**
 * The Worker's D1, with one rule for a database that is a local file. Under `wrangler dev` the
 * database is a SQLite file that other processes open too: operator commands (`npm run member`),
 * `wrangler d1 execute`, the browser tests' helpers. A statement or batch that meets their write
 * lock fails at once with SQLITE_BUSY, having changed nothing (a batch is one transaction), and is
 * tried again a few times here instead of failing a reader's request. On Cloudflare a database has
 * one writer and never answers so; the rule then costs nothing.
 */
const BUSY = /SQLITE_BUSY|database is locked/;
/** Tries in all; the waits between them are 4, 8, 16, 32 and 64 ms (124 ms at most). */
export const BUSY_ATTEMPTS = 6;

const EXECUTE = new Set<PropertyKey>(['run', 'all', 'first', 'raw']);
const wrapped = new WeakMap<D1Database, D1Database>();
const originals = new WeakMap<object, D1PreparedStatement>();

/** Whether `error` is a local database's lock held by another process. */
export function isBusy(error: unknown): boolean {
	return error instanceof Error && (BUSY.test(error.message) || (error.cause instanceof Error && BUSY.test(error.cause.message)));
}

/** Runs `work`, again after a short wait while it fails with SQLITE_BUSY. */
export async function retryWhileBusy<T>(work: () => Promise<T>, wait: (ms: number) => Promise<void> = sleep): Promise<T> {
	for (let attempt = 1; ; attempt += 1) {
		try {
			return await work();
		} catch (error) {
			if (attempt >= BUSY_ATTEMPTS || !isBusy(error)) throw error;
			await wait(2 ** (attempt + 1));
		}
	}
}

/** `db` with every statement and batch run through `retryWhileBusy`: one wrapper per binding. */
export function database(db: D1Database): D1Database {
	let found = wrapped.get(db);
	if (!found) {
		found = new Proxy(db, {
			get(target, key) {
				if (key === 'prepare') return (query: string) => statement(target.prepare(query));
				if (key === 'batch') {
					return <T>(statements: D1PreparedStatement[]) => retryWhileBusy(() => target.batch<T>(statements.map((one) => originals.get(one) ?? one)));
				}
				const value: unknown = Reflect.get(target, key, target);
				return typeof value === 'function' ? value.bind(target) : value;
			},
		});
		wrapped.set(db, found);
	}
	return found;
}

function statement(original: D1PreparedStatement): D1PreparedStatement {
	const proxy = new Proxy(original, {
		get(target, key) {
			if (key === 'bind') return (...values: unknown[]) => statement(target.bind(...values));
			const value: unknown = Reflect.get(target, key, target);
			if (typeof value !== 'function') return value;
			if (EXECUTE.has(key)) return (...args: unknown[]) => retryWhileBusy(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
			return value.bind(target);
		},
	});
	originals.set(proxy, original);
	return proxy;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
