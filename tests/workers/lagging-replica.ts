/**
 * A D1 with a read replica that lags, over two real local databases, for the read-your-writes test
 * (docs/reference/consistency.md#how-it-is-tested). Local D1 has no replicas; this plays one as D1
 * routes a session's queries:
 *
 * - every write (any statement that is not a read: see `isRead`) goes to the primary, the real
 *   database, and is logged in order; its position in the log is the bookmark it hands out;
 * - the replica is a second real database (DB_REPLICA, migrated and seeded as DB) to which the
 *   logged writes are applied only when the test says `catchUp()`;
 * - a session's read goes to the replica when the session has no bookmark yet and did not start on
 *   the primary (`first-unconstrained`), or when its bookmark is one the replica has applied;
 *   otherwise (`first-primary`, or a bookmark newer than the replica) to the primary. Either way
 *   the session's bookmark becomes what that database had applied.
 *
 * It is installed as `env.DB`, where the product reads its binding, and takes itself out with `remove()`.
 */
import { env } from 'cloudflare:workers';
import { applyD1Migrations } from 'cloudflare:test';
import { dropEverything } from './reset-database';
import { seedTestDatabase } from './seed';

interface Logged {
	sql: string;
	params: unknown[];
}

/** A statement of the layer: its SQL and parameters, run on whichever database its session chooses. */
interface Statement {
	sql: string;
	params: unknown[];
	session: Session;
}

/** Whether `sql` only reads: a SELECT, or a WITH … SELECT that names no writing keyword. Anything else is logged as a write. */
function isRead(sql: string): boolean {
	const text = sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ').trim();
	if (/^(SELECT|EXPLAIN)\b/i.test(text)) return true;
	return /^WITH\b/i.test(text) && !/\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(text);
}

/** The bookmark of log position `position`, in D1's form (they sort as positions do). */
export function bookmarkAt(position: number): string {
	return `00000000-${position.toString(16).padStart(8, '0')}-00000000-${'0'.repeat(32)}`;
}

/** The log position of `bookmark`; one not made here counts as the oldest. */
function positionOf(bookmark: string): number {
	const match = /^[0-9a-f]{8}-([0-9a-f]{8})-/.exec(bookmark);
	return match ? parseInt(match[1]!, 16) : 0;
}

export interface LaggingReplica {
	/** Applies every logged write to the replica. */
	catchUp(): Promise<void>;
	/** How many logged writes the replica has not applied. */
	lag(): number;
	/** Reads each database answered, so far. */
	reads: { primary: number; replica: number };
	/** Puts the real binding back as `env.DB`. */
	remove(): void;
}

class Session {
	/** The log position this session has seen, or null before its first query. */
	position: number | null;
	constructor(
		readonly layer: Layer,
		private readonly primaryFirst: boolean,
		start: number | null,
	) {
		this.position = start;
	}

	prepare(sql: string): D1PreparedStatement {
		return preparedStatement({ sql, params: [], session: this });
	}

	/** The database a read of this session goes to: the replica when it has applied what the session saw. */
	readFrom(): D1Database {
		const { layer } = this;
		const onReplica = this.position === null ? !this.primaryFirst : this.position <= layer.applied;
		if (onReplica) {
			layer.reads.replica += 1;
			this.position = layer.applied;
			return layer.replica;
		}
		layer.reads.primary += 1;
		this.position = layer.log.length;
		return layer.primary;
	}

	async batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
		const list = statements.map((one) => (one as unknown as { layered: Statement }).layered);
		if (list.every(({ sql }) => isRead(sql))) {
			const target = this.readFrom();
			return target.batch<T>(list.map(({ sql, params }) => target.prepare(sql).bind(...params)));
		}
		const results = await this.layer.primary.batch<T>(list.map(({ sql, params }) => this.layer.primary.prepare(sql).bind(...params)));
		this.layer.log.push(...list.filter(({ sql }) => !isRead(sql)).map(({ sql, params }) => ({ sql, params })));
		this.position = this.layer.log.length;
		return results;
	}

	getBookmark(): string | null {
		return this.position === null ? null : bookmarkAt(this.position);
	}
}

function preparedStatement(layered: Statement): D1PreparedStatement {
	const run = async <R>(use: (statement: D1PreparedStatement) => Promise<R>): Promise<R> => {
		const { sql, params, session } = layered;
		if (isRead(sql)) {
			const target = session.readFrom();
			return use(target.prepare(sql).bind(...params));
		}
		const { layer } = session;
		const result = await use(layer.primary.prepare(sql).bind(...params));
		layer.log.push({ sql, params });
		session.position = layer.log.length;
		return result;
	};
	const statement = {
		layered,
		bind: (...values: unknown[]) => preparedStatement({ ...layered, params: values }),
		first: (column?: string) => run((one) => (column === undefined ? one.first() : one.first(column))),
		all: () => run((one) => one.all()),
		run: () => run((one) => one.run()),
		raw: (options?: { columnNames: true }) => run((one) => (options ? one.raw(options) : one.raw())),
	};
	return statement as unknown as D1PreparedStatement;
}

class Layer {
	readonly log: Logged[] = [];
	applied = 0;
	readonly reads = { primary: 0, replica: 0 };
	constructor(
		readonly primary: D1Database,
		readonly replica: D1Database,
	) {}

	withSession(start: string = 'first-unconstrained'): Session {
		if (start === 'first-primary') return new Session(this, true, null);
		if (start === 'first-unconstrained') return new Session(this, false, null);
		return new Session(this, false, positionOf(start));
	}

	/** The binding used without a session: D1 sends it to the primary. */
	prepare(sql: string): D1PreparedStatement {
		return this.withSession('first-primary').prepare(sql);
	}

	batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
		return this.withSession('first-primary').batch<T>(statements);
	}
}

/** Installs the lagging replica as `env.DB`: the primary is the real DB, the replica DB_REPLICA as it is now. */
export function installLaggingReplica(): LaggingReplica {
	const real = env.DB;
	const layer = new Layer(real, env.DB_REPLICA);
	(env as { DB: unknown }).DB = layer;
	return {
		async catchUp() {
			const pending = layer.log.slice(layer.applied);
			if (pending.length > 0) await layer.replica.batch(pending.map(({ sql, params }) => layer.replica.prepare(sql).bind(...params)));
			layer.applied = layer.log.length;
		},
		lag: () => layer.log.length - layer.applied,
		reads: layer.reads,
		remove() {
			(env as { DB: unknown }).DB = real;
		},
	};
}

/** The replica's database as DB is now: dropped, migrated, seeded, with the content versions setup.ts gave DB. */
export async function startReplica(): Promise<void> {
	await dropEverything(env.DB_REPLICA);
	await applyD1Migrations(env.DB_REPLICA, env.TEST_MIGRATIONS);
	await seedTestDatabase(env.DB_REPLICA);
	const { results } = await env.DB.prepare('SELECT id, content_version FROM channels').all<{ id: number; content_version: number }>();
	await env.DB_REPLICA.batch(
		results.map(({ id, content_version }) =>
			env.DB_REPLICA.prepare('UPDATE channels SET content_version = ?1 WHERE id = ?2').bind(content_version, id),
		),
	);
}
