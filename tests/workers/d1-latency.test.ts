/**
 * The bench's latency model of D1 (scripts/lib/d1-latency.mjs), on the real local D1: which delay
 * each round trip waits (the primary's for a write or a read on the primary, the replica's for a
 * read a session may take to a replica), that the answers are the database's own, that it composes
 * with the Worker's own wrapper (src/server/platform/database.ts), and that the built Worker wrapped
 * in it sees the delayed binding both as its handler's argument and as `env` of `cloudflare:workers`.
 * The waits are recorded, not slept.
 */
import { describe, expect, it } from 'vitest';
import { env, withEnv } from 'cloudflare:workers';
import { createExecutionContext } from 'cloudflare:test';
import { LATENCY_HEADER, LATENCY_MARK, latencyWorker, withD1Latency, writes } from '../../scripts/lib/d1-latency.mjs';
import { countRoundTrips, database } from '@/server/platform/database';

const PRIMARY = 150;
const REPLICA = 10;

/** The binding behind the model, with the delay of each round trip recorded instead of waited. */
function modelled() {
	const waits: number[] = [];
	const db = withD1Latency(env.DB, {
		primaryMs: PRIMARY,
		replicaMs: REPLICA,
		wait: async (ms: number) => {
			waits.push(ms);
		},
	});
	return { db, waits };
}

describe('the bench D1 latency model', () => {
	it('tells writes from reads by the statement', () => {
		for (const sql of [
			'INSERT INTO t VALUES (1)',
			'  update t SET v = 1',
			'DELETE FROM t',
			'REPLACE INTO t VALUES (1)',
			'-- a note\nINSERT INTO t VALUES (1)',
			'/* a note */ UPDATE t SET v = 2',
			'WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x',
			'CREATE TABLE t (v)',
		])
			expect(writes(sql), sql).toBe(true);
		for (const sql of ['SELECT 1', ' select * from t', 'WITH x AS (SELECT 1) SELECT * FROM x', "SELECT 'INSERT'"])
			expect(writes(sql), sql).toBe(false);
	});

	it('costs every round trip of the binding without a session the primary delay, and answers as the database does', async () => {
		const { db, waits } = modelled();
		await db.prepare('CREATE TABLE IF NOT EXISTS latency_probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)').run();
		await db.prepare('INSERT INTO latency_probe (v) VALUES (?)').bind('a').run();
		expect(await db.prepare('SELECT v FROM latency_probe').first('v')).toBe('a');
		const [count] = await db.batch<{ n: number }>([db.prepare('SELECT count(*) AS n FROM latency_probe')]);
		expect(count?.results).toEqual([{ n: 1 }]);
		expect(waits).toEqual([PRIMARY, PRIMARY, PRIMARY, PRIMARY]);
		await env.DB.prepare('DROP TABLE latency_probe').run();
	});

	it('costs a read of a first-unconstrained session or of a bookmark the replica delay, and a write or a batch that writes the primary delay', async () => {
		await env.DB.prepare('CREATE TABLE IF NOT EXISTS latency_probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)').run();
		const { db, waits } = modelled();
		const session = db.withSession('first-unconstrained');
		await session.prepare('SELECT count(*) AS n FROM latency_probe').first();
		await session.prepare('INSERT INTO latency_probe (v) VALUES (?)').bind('b').run();
		const insert = session.prepare('INSERT INTO latency_probe (v) VALUES (?)');
		await session.batch([session.prepare('SELECT 1'), insert.bind('c')]);
		const [read] = await session.batch<{ v: string }>([session.prepare('SELECT v FROM latency_probe ORDER BY id')]);
		expect(read?.results.map((row) => row.v)).toEqual(['b', 'c']);
		expect(waits).toEqual([REPLICA, PRIMARY, PRIMARY, REPLICA]);

		const bookmark = session.getBookmark();
		waits.length = 0;
		const resumed = db.withSession(bookmark ?? 'first-unconstrained');
		expect(await resumed.prepare('SELECT count(*) AS n FROM latency_probe').first('n')).toBe(2);
		expect(waits).toEqual([REPLICA]);
		await env.DB.prepare('DROP TABLE latency_probe').run();
	});

	it('costs the first query of a first-primary session the primary delay, and its later reads the replica delay', async () => {
		const { db, waits } = modelled();
		const session = db.withSession('first-primary');
		await session.prepare('SELECT 1').first();
		await session.prepare('SELECT 2').first();
		await session.batch([session.prepare('SELECT 3')]);
		expect(waits).toEqual([PRIMARY, REPLICA, REPLICA]);
	});

	it("sits under the Worker's own wrapper: its statements batch and count as on the binding", async () => {
		const { db: delayed, waits } = modelled();
		const db = database(delayed);
		const answers = await countRoundTrips(async (trips) => {
			const [one, two] = await db.batch<{ n: number }>([db.prepare('SELECT 1 AS n'), db.prepare('SELECT ? AS n').bind(2)]);
			const three = await db.prepare('SELECT 3 AS n').first('n');
			return { values: [one?.results[0]?.n, two?.results[0]?.n, three], count: trips.count, depth: trips.depth };
		});
		expect(answers).toEqual({ values: [1, 2, 3], count: 2, depth: 2 });
		// Outside a request, database() opens a `first-primary` session: its first round trip goes to
		// the primary, the next may be answered by a replica that has caught up with it.
		expect(waits).toEqual([PRIMARY, REPLICA]);
	});

	it("hands the wrapped Worker the delayed binding as its argument and as cloudflare:workers' env, and says what it waited", async () => {
		const seen: boolean[] = [];
		const inner = {
			async fetch(_request: Request, given: { DB: D1Database }) {
				const imported = (await import('cloudflare:workers')).env as Env;
				seen.push(LATENCY_MARK in given.DB, LATENCY_MARK in imported.DB);
				await given.DB.prepare('SELECT 1').first();
				await given.DB.withSession('first-unconstrained').prepare('SELECT 1').first();
				return new Response('ok', { headers: { 'Server-Timing': 'd1-trips;desc=2' } });
			},
		};
		const worker = latencyWorker(inner, withEnv);
		// The delays its header asks for: the primary's round trip, then the replica's, in sequence.
		const response = await worker.fetch(new Request('http://localhost/', { headers: { [LATENCY_HEADER]: '30/5' } }), env, createExecutionContext());
		expect(await response.text()).toBe('ok');
		expect(seen).toEqual([true, true]);
		// And the Worker's own time to its headers, at least the waits in sequence.
		const timing = response.headers.get('Server-Timing') ?? '';
		expect(timing).toMatch(/^d1-trips;desc=2, bench-d1;dur=35;desc="primary 1, replica 1", bench-worker;dur=\d+$/);
		expect(Number(/bench-worker;dur=(\d+)/.exec(timing)?.[1])).toBeGreaterThanOrEqual(35);
		// Outside the wrapped Worker the binding is the plain one.
		expect(LATENCY_MARK in env.DB).toBe(false);
	});
});
