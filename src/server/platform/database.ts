/**
 * The Worker's D1, with one rule for a database that is a local file, and a count of each request's
 * round trips. Under `wrangler dev` the
 * database is a SQLite file that other processes open too: operator commands (`npm run member`),
 * `wrangler d1 execute`, the browser tests' helpers. A statement or batch that meets their write
 * lock fails at once with SQLITE_BUSY, having changed nothing (a batch is one transaction), and is
 * tried again a few times here instead of failing a reader's request. On Cloudflare a database has
 * one writer and never answers so; the rule then costs nothing.
 *
 * Round trips: a statement run or a batch is one round trip to the database, however many rows or
 * statements it holds. Inside `countRoundTrips` each is counted with its sequential depth: one
 * more than the deepest round trip that had settled when it began (reads run together share a
 * depth; a read that waits for another's answer is one deeper). The Worker sends each answer's
 * figures in its Server-Timing header (functions/shell/round-trips.ts) and tests/e2e/round-trips.spec.ts
 * holds every route to its budget (docs/decisions/performance.md#round-trips).
 *
 * Sessions: every request queries one D1 session (`withSession`), opened by `onD1Session` where
 * the request enters, started where src/server/platform/d1-session.ts says (`sessionStart`), and
 * handed to whatever asks `database(env.DB)` during that request; work outside a request (the
 * queue's consumer, the cron) gets a session on the primary. Opening a session sends nothing: its
 * first query is the first round trip (docs/reference/consistency.md).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { bookmarkHeaders, channelLookupStart, handsOutBookmark, newerBookmark, sessionStart } from './d1-session';

/** What one request asked the database, so far. */
export interface RoundTrips {
	/** Statements run and batches sent, the channel lookup not included. */
	count: number;
	/** The longest chain of round trips each of which began after the one before had settled. */
	depth: number;
	/** The channel's row read from the database (most requests find it in the isolate's memory). */
	channelLookups: number;
	/** Set once the answer is made: what runs after it (work handed to waitUntil) is not the answer's. */
	answered: boolean;
	/** The depth of the deepest round trip settled so far. */
	settled: number;
}

const tally = new AsyncLocalStorage<RoundTrips>();
/** Set while the channel's row is read: that round trip is counted apart. */
const lookingUpChannel = new AsyncLocalStorage<boolean>();

/** Runs `work` with the database's round trips counted into the object it is handed. */
export function countRoundTrips<T>(work: (trips: RoundTrips) => T): T {
	const trips: RoundTrips = { count: 0, depth: 0, channelLookups: 0, answered: false, settled: 0 };
	return tally.run(trips, () => work(trips));
}

/** Runs `work` (a read of the channel's row) with its round trips counted as the channel lookup. */
export function asChannelLookup<T>(work: () => T): T {
	return lookingUpChannel.run(true, work);
}

/** Runs `work` outside the request's count: a read made again in the background, which the answer does not wait for. */
export function uncounted<T>(work: () => T): T {
	return tally.exit(work);
}

/** Counts one round trip of the current request (if it is counted) around `send`. */
function counted<T>(send: () => Promise<T>): Promise<T> {
	const trips = tally.getStore();
	if (!trips || trips.answered) return send();
	if (lookingUpChannel.getStore()) {
		trips.channelLookups += 1;
		return send();
	}
	const depth = trips.settled + 1;
	trips.count += 1;
	trips.depth = Math.max(trips.depth, depth);
	return send().finally(() => {
		trips.settled = Math.max(trips.settled, depth);
	});
}

/**
 * The lock held by another process, as the local database reports it. A session's query also reads
 * the database's bookmark inside its transaction; when the lock stops that read, the local database
 * answers "Failed to get session commit token" (the transaction rolled back, nothing written), which
 * is tried again as SQLITE_BUSY is.
 */
const BUSY = /SQLITE_BUSY|database is locked|Failed to get session commit token/;
/** Tries in all; the waits between them are 4, 8, 16, 32 and 64 ms (124 ms at most). */
export const BUSY_ATTEMPTS = 6;

const EXECUTE = new Set<PropertyKey>(['run', 'all', 'first', 'raw']);
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

/** One request's sessions: the request (where each starts), and the one opened on each binding so far. */
interface RequestSessions {
	request: Request;
	opened: Map<D1Database, { session: D1DatabaseSession; db: Db; name: string }>;
}

/** The bookmark of the newest write this isolate served, by binding: where a write's channel lookup starts. */
const newestWrites = new WeakMap<D1Database, D1SessionBookmark>();

const requestSessions = new AsyncLocalStorage<RequestSessions>();

/**
 * Answers `request` with `answer`, whose every `database(...)` is the request's session. After a
 * request that wrote (but for the writes no one reads back: d1-session.ts `handsOutBookmark`), its
 * answer carries the session's bookmark (`bookmarkHeaders`).
 * Inside another request's sessions (the API under the Worker's entry) it only runs `answer`: the
 * entry opened them and sends the bookmark.
 */
export async function onD1Session(request: Request, answer: () => Promise<Response>): Promise<Response> {
	if (requestSessions.getStore()) return answer();
	const sessions: RequestSessions = { request, opened: new Map() };
	const response = await requestSessions.run(sessions, answer);
	if (!handsOutBookmark(request)) return response;
	for (const [binding, { session }] of sessions.opened) {
		const newest = newerBookmark(newestWrites.get(binding) ?? null, session.getBookmark());
		if (newest !== null) newestWrites.set(binding, newest);
	}
	// The community's database is what a writer reads back: a content database's bookmark before the
	// directory's (the directory is written only by a sign-in's identity, which no page reads back).
	const opened = [...sessions.opened.values()].sort((a, b) => Number(a.name === 'DB') - Number(b.name === 'DB'));
	const written = opened.map(({ session, name }) => ({ bookmark: session.getBookmark(), name })).find((found) => found.bookmark !== null);
	if (!written?.bookmark) return response;
	const headers = bookmarkHeaders(new URL(request.url), written.bookmark, written.name);
	const add = (to: Response) => {
		for (const [name, value] of headers) to.headers.append(name, value);
		return to;
	};
	try {
		return add(response);
	} catch {
		// Headers that cannot change (an answer of fetch or the Cache API): a copy takes them.
		return add(new Response(response.body, response));
	}
}

/**
 * The request's session on `binding`, its statements and batches run through `retryWhileBusy` and
 * counted: one per binding and request. Outside a request, a new session on the primary.
 */
export function database(binding: D1Database): Db {
	const sessions = requestSessions.getStore();
	if (!sessions) return wrap(binding.withSession('first-primary'));
	let found = sessions.opened.get(binding);
	if (!found) {
		const name = bindingName(binding);
		const session = binding.withSession(sessionStart(sessions.request, name));
		const lookupStart = channelLookupStart(sessions.request, name, newestWrites.get(binding) ?? null);
		// A write's channel lookup on a session of its own (d1-session.ts channelLookupStart), opened when it first reads.
		const lookup = lookupStart === null ? null : () => binding.withSession(lookupStart);
		found = { session, db: wrap(session, lookup), name };
		sessions.opened.set(binding, found);
	}
	return found.db;
}

/** The binding names of the content databases, as databases.ts `databaseNamed` found them. */
const bindingNames = new WeakMap<D1Database, string>();

/** Records that `binding` is bound as `name` (databases.ts does, for every binding it hands out). */
export function nameBinding(binding: D1Database, name: string): void {
	bindingNames.set(binding, name);
}

/** The name `binding` is bound under in the Worker's env (DB when no other was recorded: the directory, or a test's stand-in). */
function bindingName(binding: D1Database): string {
	return bindingNames.get(binding) ?? 'DB';
}

function wrap(session: D1DatabaseSession, lookup: (() => D1DatabaseSession) | null = null): Db {
	return new Proxy(session, {
		get(target, key) {
			if (key === 'prepare') return (query: string) => statement((lookup !== null && lookingUpChannel.getStore() ? lookup() : target).prepare(query));
			if (key === 'batch') {
				return <T>(statements: D1PreparedStatement[]) =>
					counted(() => retryWhileBusy(() => target.batch<T>(statements.map((one) => originals.get(one) ?? one))));
			}
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === 'function' ? value.bind(target) : value;
		},
	});
}

function statement(original: D1PreparedStatement): D1PreparedStatement {
	const proxy = new Proxy(original, {
		get(target, key) {
			if (key === 'bind') return (...values: unknown[]) => statement(target.bind(...values));
			const value: unknown = Reflect.get(target, key, target);
			if (typeof value !== 'function') return value;
			if (EXECUTE.has(key))
				return (...args: unknown[]) => counted(() => retryWhileBusy(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)));
			return value.bind(target);
		},
	});
	originals.set(proxy, original);
	return proxy;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
