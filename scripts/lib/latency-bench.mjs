/**
 * `npm run bench -- --latency`: the site served with a delay added to every D1 round trip
 * (scripts/lib/d1-latency.mjs: the primary's delay for a write or a read on the primary, the
 * replica's for a read a session may take to a replica), and the time to first byte of six kinds of
 * request, one at a time (p50 and p95), with replicas (the replica's delay as given) and without
 * (every round trip the primary's), request by request on one server of the bench's copy of the build
 * with an entry of its own (`latencyConfig`); the build itself is checked to hold none of the layer
 * first (`assertNoLatencyLayer`).
 *
 * From the answers' Server-Timing (d1-trips and d1-depth of the Worker, bench-d1 of the model, bench-worker:
 * the Worker's own time to its answer's headers, as its clock reads it) it also
 * works out what Smart Placement would change: the Worker run beside the primary pays each round trip
 * about 1 ms instead of the model's delay, and every request one hop from the user's location to
 * the primary's (taken as one primary round trip).
 */
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serveBuild, waitFor } from './server.mjs';
import { query } from './wrangler.mjs';
import { LATENCY_HEADER, LATENCY_MARK } from './d1-latency.mjs';

const LAYER_FILE = 'bench-d1-latency.mjs';
const ENTRY_FILE = 'bench-latency-entry.mjs';
/** A round trip from a Worker placed in the database's region, in the Smart Placement estimate. */
const PLACED_TRIP_MS = 1;

/** Throws when a file of the build under `dir` holds the latency layer's code (its mark or its header's name). */
export function assertNoLatencyLayer(dir) {
	const traces = [LATENCY_MARK, LATENCY_HEADER];
	const walk = (folder) =>
		readdirSync(folder).flatMap((name) => {
			const file = path.join(folder, name);
			return statSync(file).isDirectory() ? walk(file) : [file];
		});
	const found = walk(dir).filter((file) => /\.(?:m?js|json|map)$/.test(file) && traces.some((trace) => readFileSync(file, 'utf8').includes(trace)));
	if (found.length > 0) throw new Error(`the build holds the bench's D1 latency layer: ${found.map((file) => path.relative(dir, file)).join(', ')}`);
}

/**
 * The bench's Worker configuration with the latency layer: beside the build's own `config`
 * (dist-bench/server/wrangler.json), the layer, an entry that wraps the built Worker in it, and a
 * configuration whose `main` is that entry. The build is checked for the layer before it is added.
 */
export function latencyConfig(config) {
	const dir = path.dirname(config);
	for (const file of [LAYER_FILE, ENTRY_FILE]) rmSync(path.join(dir, file), { force: true });
	assertNoLatencyLayer(path.dirname(dir));
	copyFileSync(new URL('./d1-latency.mjs', import.meta.url), path.join(dir, LAYER_FILE));
	writeFileSync(
		path.join(dir, ENTRY_FILE),
		[
			"import { withEnv } from 'cloudflare:workers';",
			"import worker from './entry.mjs';",
			`import { latencyWorker } from './${LAYER_FILE}';`,
			"export * from './entry.mjs';",
			'export default latencyWorker(worker, withEnv);',
			'',
		].join('\n'),
	);
	const file = path.join(dir, 'wrangler.latency.json');
	writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), main: ENTRY_FILE }));
	return file;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const median = (values) =>
	percentile(
		[...values].sort((a, b) => a - b),
		50,
	);

/** The figures of one Server-Timing header: `d1-trips`, `d1-depth` and the model's `bench-d1`. */
function serverTiming(header) {
	const figures = { trips: 0, depth: 0, modelledMs: 0, primary: 0, replica: 0, workerMs: 0 };
	for (const part of (header ?? '').split(',').map((text) => text.trim())) {
		const value = (name) => Number(new RegExp(`${name}=("?)([\\d.]+)`).exec(part)?.[2] ?? 0);
		if (part.startsWith('d1-trips;')) figures.trips = value('desc');
		else if (part.startsWith('d1-depth;')) figures.depth = value('desc');
		else if (part.startsWith('bench-worker;')) figures.workerMs = value('dur');
	}
	const model = /bench-d1;dur=([\d.]+);desc="primary (\d+), replica (\d+)"/.exec(header ?? '');
	if (model) Object.assign(figures, { modelledMs: Number(model[1]), primary: Number(model[2]), replica: Number(model[3]) });
	return figures;
}

/**
 * The requests of each kind, from what the bench data holds: `sessions` are members' (minted,
 * scripts/lib/bench-sessions.mjs), `state` the data's folder; `count` requests of each kind per configuration.
 */
function latencyPlan({ state, sessions, count, configurations }) {
	const need = count * configurations + 4;
	const posts = query(`SELECT id, title FROM posts WHERE channel_id = 9 AND board_seq IS NOT NULL ORDER BY random() LIMIT ${need * 3 + 1}`, state);
	const words = [
		...new Set(
			posts.flatMap((post) =>
				String(post.title)
					.toLowerCase()
					.split(/[^\p{L}\p{N}]+/u)
					.filter((word) => word.length >= 3),
			),
		),
	];
	return {
		sessions,
		hot: posts[0].id,
		fresh: posts.slice(1, need + 1).map((post) => post.id),
		others: posts.slice(need + 1).map((p) => p.id),
		words,
	};
}

/**
 * The measured requests, on one server of the bench's copy with the layer: for each kind, one
 * request after another, alternating the configurations (each request asks for its delays in
 * LATENCY_HEADER), so that both see the same load of a shared machine.
 */
async function measure({ state, port, config, running, configurations, count, plan }) {
	const origin = `http://127.0.0.1:${port}`;
	const server = running ?? serveBuild({ port, persistTo: state, stdio: 'ignore', config: latencyConfig(config) });
	let address = 0;
	let member = 0;
	const liked = new Set();
	const timed = async (delays, pathName, init = {}) => {
		address += 1;
		const started = performance.now();
		const response = await fetch(`${origin}${pathName}`, {
			...init,
			headers: {
				'cf-connecting-ip': `10.${40 + ((address >> 16) & 63)}.${(address >> 8) & 255}.${address & 255}`,
				[LATENCY_HEADER]: `${delays.primaryMs}/${delays.replicaMs}`,
				...init.headers,
			},
		});
		const ttfbMs = performance.now() - started;
		await response.arrayBuffer();
		return {
			ttfbMs,
			status: response.status,
			cache: response.headers.get('x-edge-cache') ?? '',
			...serverTiming(response.headers.get('server-timing')),
		};
	};
	const nextMember = () => plan.sessions[member++ % plan.sessions.length];
	const write = (delays, method, pathName, body = undefined) =>
		timed(delays, pathName, {
			method,
			headers: { cookie: nextMember().cookie, origin, 'content-type': 'application/json' },
			...(body ? { body: JSON.stringify(body) } : {}),
		});
	const pick = (list) => list[Math.floor(Math.random() * list.length)];
	const kinds = {
		guestHit: (delays) => timed(delays, `/bench/large/posts/${plan.hot}`),
		guestMiss: (delays) => timed(delays, `/bench/large/posts/${plan.fresh.shift()}`),
		memberPost: (delays) => timed(delays, `/bench/large/posts/${pick(plan.others)}`, { headers: { cookie: nextMember().cookie } }),
		comment: (delays) =>
			write(delays, 'POST', `/v1/bench/large/posts/${pick(plan.others)}/comments`, { content: `Latency bench comment ${address}` }),
		like: (delays) => {
			// A like the member has not given, so that every like writes.
			for (;;) {
				const session = plan.sessions[member % plan.sessions.length];
				const postId = pick(plan.others);
				if (liked.has(`${session.memberId}:${postId}`)) continue;
				liked.add(`${session.memberId}:${postId}`);
				return write(delays, 'PUT', `/v1/bench/large/posts/${postId}/like`);
			}
		},
		search: (delays) => timed(delays, `/bench/large/search?q=${encodeURIComponent(plan.words.shift() ?? `w${address}`)}`),
	};
	try {
		await waitFor(`${origin}/`);
		const results = Object.fromEntries(Object.keys(configurations).map((name) => [name, {}]));
		for (const [kind, send] of Object.entries(kinds)) {
			// Each kind once first (the isolate's first use of its modules; the hot post into the edge cache).
			if (kind !== 'guestMiss' && kind !== 'search') await send(configurations.withReplicas);
			const answers = Object.fromEntries(Object.keys(configurations).map((name) => [name, []]));
			for (let i = 0; i < count; i += 1) for (const [name, delays] of Object.entries(configurations)) answers[name].push(await send(delays));
			for (const name of Object.keys(configurations)) results[name][kind] = figuresOf(answers[name]);
		}
		return results;
	} finally {
		if (!running) {
			server.kill('SIGTERM');
			await new Promise((resolve) => server.once('exit', resolve));
		}
	}
}

/** One kind's figures over its answers. */
function figuresOf(answers) {
	const ttfb = answers.map((answer) => answer.ttfbMs).sort((a, b) => a - b);
	const tally = (key) => {
		const counts = {};
		for (const answer of answers) counts[answer[key] || 'none'] = (counts[answer[key] || 'none'] ?? 0) + 1;
		return counts;
	};
	return {
		p50Ms: Math.round(percentile(ttfb, 50)),
		p95Ms: Math.round(percentile(ttfb, 95)),
		trips: median(answers.map((answer) => answer.trips)),
		depth: median(answers.map((answer) => answer.depth)),
		primaryTrips: median(answers.map((answer) => answer.primary)),
		replicaTrips: median(answers.map((answer) => answer.replica)),
		modelledMs: median(answers.map((answer) => answer.modelledMs)),
		workerMs: median(answers.map((answer) => answer.workerMs)),
		cache: tally('cache'),
		statuses: tally('status'),
	};
}

/**
 * The latency run: with replicas (`replicaMs`) and without (every round trip `primaryMs`), on a
 * server of the bench's copy with the layer on `port`, or on `running`, one already serving there
 * from `latencyConfig` (the members' `sessions` written before it opened the database). Answers the figures by configuration and kind, the targets,
 * and the Smart Placement estimate.
 */
export async function latencyRun({ state, port, config, running = undefined, primaryMs, replicaMs, count, sessions }) {
	const started = Date.now();
	const plan = latencyPlan({ state, sessions, count, configurations: 2 });
	const configurations = { withReplicas: { primaryMs, replicaMs }, withoutReplicas: { primaryMs, replicaMs: primaryMs } };
	const { withReplicas, withoutReplicas } = await measure({ state, port, config, running, configurations, count, plan });
	const targets = {
		guestMiss: { withReplicasP50Below: 60 },
		memberPost: { withReplicasP50Below: 60 },
		comment: { withReplicasP50Below: primaryMs + 50 },
	};
	// Smart Placement: the Worker beside the primary (replicas there are the primary's region too).
	const placement = {};
	for (const [name, figures] of Object.entries(withReplicas)) {
		const placedMs = figures.p50Ms - figures.modelledMs + figures.depth * PLACED_TRIP_MS + primaryMs;
		placement[name] = { edgeP50Ms: figures.p50Ms, placedP50Ms: Math.round(placedMs), savedMs: Math.round(figures.p50Ms - placedMs) };
	}
	const seconds = Math.round((Date.now() - started) / 1000);
	console.log(`Latency run: ${count} requests of each kind in each configuration, ${seconds} s`);
	const [{ posts }] = query("SELECT listed_count AS posts FROM channels WHERE domain = 'bench' AND slug = 'large'", state);
	return { posts, primaryMs, replicaMs, requestsPerKind: count, seconds, withReplicas, withoutReplicas, targets, placement };
}

const LABELS = {
	guestHit: 'guest, cache hit',
	guestMiss: 'guest, cache miss (post page)',
	memberPost: "member's post page",
	comment: 'comment (POST)',
	like: 'like (PUT)',
	search: 'search (guest, new keyword)',
};

/** Prints the latency run's tables (markdown). */
export function printLatency(latency) {
	const { primaryMs, replicaMs, withReplicas, withoutReplicas, targets, placement } = latency;
	console.log(
		`\nTime to first byte, D1 ${primaryMs} ms to the primary, ${replicaMs} ms to a replica (${latency.requestsPerKind} requests of each kind, one at a time):`,
	);
	console.log(
		'| request | with replicas p50 / p95 ms | without replicas p50 / p95 ms | d1 trips / depth | with replicas: primary / replica trips, D1 wait ms | with replicas: in the Worker ms | target (with replicas) |',
	);
	console.log('|---|---|---|---|---|---|---|');
	for (const [name, label] of Object.entries(LABELS)) {
		const a = withReplicas[name];
		const b = withoutReplicas[name];
		const target = targets[name];
		const verdict = target ? `p50 < ${target.withReplicasP50Below} ms: ${a.p50Ms < target.withReplicasP50Below ? 'met' : 'not met'}` : '';
		console.log(
			`| ${label} | ${a.p50Ms} / ${a.p95Ms} | ${b.p50Ms} / ${b.p95Ms} | ${a.trips} / ${a.depth} | ${a.primaryTrips} / ${a.replicaTrips}, ${a.modelledMs} | ${a.workerMs} | ${verdict} |`,
		);
	}
	console.log(
		`\nSmart Placement (the Worker beside the primary: a round trip ${PLACED_TRIP_MS} ms, one ${primaryMs} ms hop to reach it), p50 with replicas:`,
	);
	console.log('| request | at the edge ms | placed ms (estimate) | saved ms |');
	console.log('|---|---|---|---|');
	for (const [name, label] of Object.entries(LABELS)) {
		const figures = placement[name];
		console.log(`| ${label} | ${figures.edgeP50Ms} | ${figures.placedP50Ms} | ${figures.savedMs} |`);
	}
}

/** What a smoke run fails on: an answer that is not a success, or a kind that did not take the path it measures. */
export function latencyProblems(latency) {
	const problems = [];
	for (const configuration of ['withReplicas', 'withoutReplicas']) {
		for (const [name, figures] of Object.entries(latency[configuration])) {
			for (const [status, n] of Object.entries(figures.statuses))
				if (status !== '200') problems.push(`latency ${configuration} ${name}: ${n} × ${status}`);
		}
		const { guestHit, guestMiss } = latency[configuration];
		if (!guestHit.cache.HIT) problems.push(`latency ${configuration}: no cache hit among the guest's hits (${JSON.stringify(guestHit.cache)})`);
		if (!guestMiss.cache.MISS) problems.push(`latency ${configuration}: no miss among the guest's misses (${JSON.stringify(guestMiss.cache)})`);
	}
	return problems;
}
