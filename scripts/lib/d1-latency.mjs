/**
 * The bench's latency model of D1 (`npm run bench -- --latency`, scripts/lib/latency-bench.mjs): every
 * round trip to the database waits first, as it would for a database in another region. A statement
 * or a batch that writes waits the primary's delay; a read waits the replica's delay when it runs in a
 * session that may read a replica (`withSession('first-unconstrained')`, `withSession()`, a bookmark,
 * or any query after the first of `withSession('first-primary')`), else the primary's. The binding
 * used without a session is the primary. "Without replicas" is a replica delay equal to the primary's.
 *
 * This module runs only in the bench's copy of the build: the bench writes an entry of its own beside
 * dist-bench/server/entry.mjs (scripts/lib/latency-bench.mjs `latencyConfig`) that hands the built
 * Worker an `env` whose DB is wrapped here with the delays the request asks for (`latencyWorker`), both
 * as the handler's argument and as the `env` of `cloudflare:workers` (its `withEnv`, which that entry
 * passes in: this module imports nothing, so the bench's Node side can read its mark). Nothing in
 * src/ or functions/ imports it, and the bench checks that the build it serves holds none of it before
 * it adds its entry (`assertNoLatencyLayer`), so a normal build cannot reach a delay.
 */
/** The name that marks this layer's code; the bench looks for it in the normal build, which must not hold it. */
export const LATENCY_MARK = 'benchD1LatencyLayer';

const WRITE = /^(?:INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i;
const WRITE_IN_WITH = /\b(?:INSERT|UPDATE|DELETE|REPLACE)\b/i;

/** Whether a statement writes: by its first keyword, or a WITH that ends in a write. Comments before it are skipped. */
export function writes(sql) {
	const text = sql.replace(/^(?:\s+|--[^\n]*\n|\/\*[\s\S]*?\*\/)*/, '');
	return WRITE.test(text) || (/^WITH\b/i.test(text) && WRITE_IN_WITH.test(text));
}

/**
 * @typedef {{ kind: 'primary' | 'replica'; ms: number; writes: boolean }} Trip
 * @typedef {{ primaryMs: number; replicaMs: number; wait?: (ms: number) => Promise<void>; onTrip?: (trip: Trip) => (() => void) | void }} LatencyOptions
 *   `onTrip` is told of each round trip as it begins; the function it returns, if any, when it settles.
 */

/** Each statement the layer made, by its proxy: what a batch of the binding or of any of its sessions sends. */
const originals = new WeakMap();

function sleep(ms) {
	// workerd's scheduler.wait where there is one (the Worker), else a timer.
	const scheduler = /** @type {{ scheduler?: { wait?: (ms: number) => Promise<void> } }} */ (globalThis).scheduler;
	return ms <= 0 ? Promise.resolve() : scheduler?.wait ? scheduler.wait(ms) : new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `db` with every round trip delayed by the model. `route` says where a session's reads go:
 * 'primary' (the binding without a session), 'replica', or 'replica-after-first' (first-primary).
 *
 * @param {D1Database | D1DatabaseSession} db
 * @param {LatencyOptions} options
 * @param {'primary' | 'replica' | 'replica-after-first'} [route]
 */
function wrap(db, options, route = 'primary') {
	const { primaryMs, replicaMs, wait = sleep, onTrip } = options;
	let started = 0;
	/** One round trip: waits the model's delay, then sends. */
	const trip = async (isWrite, send) => {
		const mayReadReplica = route === 'replica' || (route === 'replica-after-first' && started > 0);
		started += 1;
		const kind = isWrite || !mayReadReplica ? 'primary' : 'replica';
		const ms = kind === 'primary' ? primaryMs : replicaMs;
		const settled = onTrip?.({ kind, ms, writes: isWrite });
		try {
			await wait(ms);
			return await send();
		} finally {
			if (settled) settled();
		}
	};
	const statement = (original, sql) => {
		const proxy = new Proxy(original, {
			get(target, key) {
				if (key === 'bind') return (...values) => statement(target.bind(...values), sql);
				const value = Reflect.get(target, key, target);
				if (typeof value !== 'function') return value;
				if (key === 'run' || key === 'all' || key === 'first' || key === 'raw')
					return (...args) => trip(writes(sql), () => value.apply(target, args));
				return value.bind(target);
			},
		});
		originals.set(proxy, { original, sql });
		return proxy;
	};
	const wrapped = new Proxy(db, {
		has: (target, key) => key === LATENCY_MARK || Reflect.has(target, key),
		get(target, key) {
			if (key === LATENCY_MARK) return true;
			if (key === 'prepare') return (sql) => statement(target.prepare(sql), sql);
			if (key === 'batch')
				return (list) => {
					const known = list.map((one) => originals.get(one) ?? { original: one, sql: '' });
					return trip(
						known.some((one) => writes(one.sql)),
						() => target.batch(known.map((one) => one.original)),
					);
				};
			if (key === 'exec' && 'exec' in target) return (sql) => trip(true, () => target.exec(sql));
			if (key === 'withSession' && 'withSession' in target)
				return (constraint) => wrap(target.withSession(constraint), options, constraint === 'first-primary' ? 'replica-after-first' : 'replica');
			const value = Reflect.get(target, key, target);
			return typeof value === 'function' ? value.bind(target) : value;
		},
	});
	return wrapped;
}

/**
 * The D1 binding with the model's delays.
 *
 * @param {D1Database} db
 * @param {LatencyOptions} options
 * @returns {D1Database}
 */
export function withD1Latency(db, options) {
	return /** @type {D1Database} */ (wrap(db, options));
}

/** The request header that asks the bench's Worker for the model's delays: `primary/replica` in ms, as `150/10`. */
export const LATENCY_HEADER = 'Bench-D1-Latency';

/**
 * The built Worker with its D1 behind the model: for each request, `env.DB` is wrapped (in its
 * handler's argument and in the `env` of `cloudflare:workers`) with the delays its LATENCY_HEADER asks
 * for (none without it), so one server answers with replicas and without, request by request. Each
 * answer says in its Server-Timing header what the model made it wait before the answer: `bench-d1;dur=`
 * the delays in sequence (a round trip that began after another had settled adds its delay; of those
 * that ran together, the longest counts), with the primary's and the replicas' round trips counted.
 * The queue and scheduled handlers run as built.
 *
 * @param {ExportedHandler<{ DB: D1Database }>} worker
 * @param {(env: unknown, work: () => unknown) => unknown} withEnv `withEnv` of `cloudflare:workers`
 */
export function latencyWorker(worker, withEnv) {
	return {
		...worker,
		async fetch(request, env, ctx) {
			const started = Date.now();
			const [primaryMs = 0, replicaMs = primaryMs] = (request.headers.get(LATENCY_HEADER) ?? '0').split('/').map(Number);
			const counts = { primary: 0, replica: 0 };
			// The delays in sequence: a round trip starts after what had settled when it began.
			let settled = 0;
			let chain = 0;
			let answered = false;
			const onTrip = (trip) => {
				if (answered) return;
				counts[trip.kind] += 1;
				const end = settled + trip.ms;
				chain = Math.max(chain, end);
				return () => (settled = Math.max(settled, end));
			};
			const local = { ...env, DB: withD1Latency(env.DB, { primaryMs, replicaMs, onTrip }) };
			const response = /** @type {Response} */ (await withEnv(local, () => worker.fetch(request, local, ctx)));
			answered = true;
			const sent = new Response(response.body, response);
			sent.headers.append('Server-Timing', `bench-d1;dur=${chain};desc="primary ${counts.primary}, replica ${counts.replica}"`);
			// The Worker's own time to its answer's headers, as its clock reads it (workerd's clock moves on I/O, not while it computes).
			sent.headers.append('Server-Timing', `bench-worker;dur=${Date.now() - started}`);
			return sent;
		},
	};
}
