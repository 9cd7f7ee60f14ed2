/**
 * The Worker's D1 wrapper (src/server/platform/database.ts): statements and batches through it
 * behave as on the binding itself, on the real local D1, and a statement that meets another
 * process's lock (SQLITE_BUSY) is tried again, while any other failure is not; a request's round
 * trips are counted with their sequential depth.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import {
	BUSY_ATTEMPTS,
	asChannelLookup,
	countRoundTrips,
	database,
	isBusy,
	onD1Session,
	retryWhileBusy,
	uncounted,
} from '@/server/platform/database';
import { BOOKMARK_HEADER } from '@/server/platform/d1-session';

const noWait = async () => {};

describe('database', () => {
	it('is one session per request, and reads, binds, batches and rolls back as the binding does', async () => {
		// Outside a request (the queue, the cron) each is a session of its own, on the primary.
		expect(database(env.DB) === database(env.DB)).toBe(false);
		let db = database(env.DB);
		await onD1Session(new Request('http://localhost/starfall/global'), async () => {
			db = database(env.DB);
			expect(database(env.DB) === db).toBe(true);
			return new Response(null);
		});
		await db.prepare('CREATE TABLE IF NOT EXISTS wrapper_probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)').run();
		const insert = db.prepare('INSERT INTO wrapper_probe (v) VALUES (?)');
		const results = await db.batch([insert.bind('a'), insert.bind('b'), env.DB.prepare("INSERT INTO wrapper_probe (v) VALUES ('c')")]);
		expect(results).toHaveLength(3);
		expect(await db.prepare('SELECT count(*) AS n FROM wrapper_probe').first('n')).toBe(3);
		expect((await db.prepare('SELECT v FROM wrapper_probe ORDER BY id').raw()).flat()).toEqual(['a', 'b', 'c']);
		// A failing batch is still one transaction.
		await expect(db.batch([insert.bind('d'), db.prepare('INSERT INTO wrapper_probe (v) VALUES (NULL)')])).rejects.toThrow(/NOT NULL/);
		expect((await db.prepare('SELECT v FROM wrapper_probe WHERE v = ?').bind('d').all()).results).toEqual([]);
		await db.prepare('DROP TABLE wrapper_probe').run();
	});

	it('tries a busy statement again until it runs, and gives up after BUSY_ATTEMPTS', async () => {
		let calls = 0;
		const busy = new Error('D1_ERROR: database is locked: SQLITE_BUSY');
		expect(
			await retryWhileBusy(async () => {
				calls += 1;
				if (calls < 3) throw busy;
				return 'ran';
			}, noWait),
		).toBe('ran');
		expect(calls).toBe(3);

		calls = 0;
		await expect(
			retryWhileBusy(async () => {
				calls += 1;
				throw busy;
			}, noWait),
		).rejects.toBe(busy);
		expect(calls).toBe(BUSY_ATTEMPTS);
	});

	it('never repeats any other failure', async () => {
		let calls = 0;
		const unique = new Error('D1_ERROR: UNIQUE constraint failed: members.nickname_key');
		await expect(
			retryWhileBusy(async () => {
				calls += 1;
				throw unique;
			}, noWait),
		).rejects.toBe(unique);
		expect(calls).toBe(1);
		expect(isBusy(new Error('D1_ERROR', { cause: new Error('database is locked') }))).toBe(true);
		// The bookmark's read stopped by the lock, inside a session's rolled-back transaction (the local database).
		expect(isBusy(new Error('D1_ERROR: Failed to get session commit token: internal error; reference = x'))).toBe(true);
		expect(isBusy('SQLITE_BUSY')).toBe(false);
	});

	it("answers a write with its session's bookmark, in a cookie and a header, and a read without; opening a session costs no round trip", async () => {
		const write = new Request('http://localhost/v1/starfall/global/me/nickname', { method: 'PUT' });
		const trips = await countRoundTrips(async (counting) => {
			const answered = await onD1Session(write, async () => {
				// The API inside the Worker's entry: one session, and one bookmark sent, by the entry.
				const inner = await onD1Session(write, async () => {
					await database(env.DB).prepare('UPDATE channels SET content_version = content_version WHERE id = 1').run();
					return new Response('{}');
				});
				expect(inner.headers.has(BOOKMARK_HEADER)).toBe(false);
				return inner;
			});
			const bookmark = answered.headers.get(BOOKMARK_HEADER);
			expect(bookmark).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);
			expect(answered.headers.getSetCookie()).toEqual([`__Host-d1-bookmark=${bookmark}; Max-Age=300; Path=/; HttpOnly; Secure; SameSite=Lax`]);
			return counting;
		});
		expect(trips.count).toBe(1);
		// Over plain http elsewhere than loopback, neither Secure nor `__Host-`.
		const plain = await onD1Session(new Request('http://board.example/starfall/global/oauth?code=x'), async () => {
			await database(env.DB).prepare('SELECT 1').first();
			return new Response(null);
		});
		expect(plain.headers.getSetCookie()[0]).toMatch(/^d1-bookmark=[0-9a-f-]{59}; Max-Age=300; Path=\/; HttpOnly; SameSite=Lax$/);
		const read = await onD1Session(new Request('http://localhost/public/v1/starfall/global/posts'), async () => {
			await database(env.DB).prepare('SELECT 1').first();
			return new Response(null);
		});
		expect([read.headers.has(BOOKMARK_HEADER), read.headers.getSetCookie()]).toEqual([false, []]);
	});

	it("counts a request's round trips and how many of them waited one for another", async () => {
		const db = database(env.DB);
		const read = () => db.prepare('SELECT 1 AS one').first();
		const trips = await countRoundTrips(async (counting) => {
			// Two reads together, one after them, a batch of three after that: four round trips, three deep.
			await Promise.all([read(), read()]);
			await read();
			await db.batch([db.prepare('SELECT 1'), db.prepare('SELECT 2'), db.prepare('SELECT 3')]);
			// The channel's row, and a read the answer does not wait for, are counted apart or not at all.
			await asChannelLookup(read);
			await uncounted(read);
			return counting;
		});
		expect({ count: trips.count, depth: trips.depth, channelLookups: trips.channelLookups }).toEqual({ count: 4, depth: 3, channelLookups: 1 });
		// Outside a count, nothing is counted and nothing fails.
		expect(await read()).toEqual({ one: 1 });
	});

	it('counts nothing once the answer is made, and keeps requests apart', async () => {
		const db = database(env.DB);
		const read = () => db.prepare('SELECT 1 AS one').first();
		const [first, second] = await Promise.all([
			countRoundTrips(async (counting) => {
				await read();
				counting.answered = true;
				await read();
				return counting;
			}),
			countRoundTrips(async (counting) => {
				await Promise.all([read(), read(), read()]);
				return counting;
			}),
		]);
		expect([first.count, first.depth]).toEqual([1, 1]);
		expect([second.count, second.depth]).toEqual([3, 1]);
	});
});
