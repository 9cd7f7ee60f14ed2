/**
 * `node scripts/cpu-probe.mjs`: the server's CPU milliseconds per request for a few URLs of the
 * bench data (/bench/large in .wrangler/bench, seeded by `npm run bench`), for quick iterations
 * on what a page costs. It serves the last `npm run build` under `wrangler dev` on BENCH_PORT
 * (default 8830) and sends each URL `--requests` times (10 connections), `--rounds` times, and
 * prints every round and the median: other work on the machine moves single rounds a lot.
 *
 * `--profile` also records a V8 CPU profile of the Worker over the uncached post page (through
 * wrangler's inspector, Chrome DevTools Protocol), saves it to bench-results/worker.cpuprofile
 * (open it in Chrome DevTools) and prints the functions with the most self and total time.
 * `--only NAME,…` measures some targets only.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
// Node's own WebSocket is refused by wrangler's inspector proxy; ws (a dependency of wrangler's) is not.
import WebSocket from 'ws';
import { ROOT, query } from './lib/wrangler.mjs';
import { localSessionSecret, serveBuild, waitFor } from './lib/server.mjs';
import { withServerCpu } from './lib/cpu.mjs';
import { mintSessionToken } from '../src/server/sign-in/session-token.ts';

const { values } = parseArgs({
	options: {
		requests: { type: 'string', default: '600' },
		rounds: { type: 'string', default: '3' },
		profile: { type: 'boolean', default: false },
		only: { type: 'string' },
	},
});
const PORT = Number(process.env.BENCH_PORT ?? 8830);
const INSPECTOR_PORT = PORT + 7;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const STATE = path.join(ROOT, '.wrangler', 'bench');
const requests = Number(values.requests);
const rounds = Math.max(1, Number(values.rounds));

/** A built asset of about 1 KB, the static file each page is compared with. */
function smallAsset() {
	const dir = path.join(ROOT, 'dist', 'client', '_astro');
	const files = readdirSync(dir).map((name) => ({ name, size: statSync(path.join(dir, name)).size }));
	files.sort((a, b) => Math.abs(a.size - 1024) - Math.abs(b.size - 1024));
	return `/_astro/${files[0].name}`;
}

const [{ postId }] = query('SELECT max(id) AS postId FROM posts WHERE channel_id = 9 AND board_seq IS NOT NULL', STATE);
const secret = localSessionSecret(STATE);
const minted = `__Host-session_bench_large=${await mintSessionToken(secret, 9)}`;
const madeUp = `__Host-session_bench_large=${'A'.repeat(43)}.${'B'.repeat(43)}`;
const post = `/bench/large/posts/${postId}`;
const targets = {
	static: { path: smallAsset() },
	postUncached: { path: post, cookie: minted },
	postCached: { path: post },
	postMadeUpCookie: { path: post, cookie: madeUp },
	postJsonUncached: { path: `/public/v1/bench/large/posts/${postId}`, cookie: minted },
	notFoundUncached: { path: '/bench/large/nothing-here', cookie: minted },
	boardUncached: { path: '/bench/large/boards/91', cookie: minted },
};
const chosen = values.only ? Object.fromEntries(values.only.split(',').map((name) => [name, targets[name]])) : targets;

function load(target, amount = requests) {
	const headers = target.cookie ? { cookie: target.cookie } : {};
	return new Promise((resolve, reject) => {
		autocannon({ url: `${ORIGIN}${target.path}`, connections: 10, amount, headers }, (error, result) => (error ? reject(error) : resolve(result)));
	});
}

/** Sends one DevTools Protocol command and answers its result. */
function devtools(socket) {
	let next = 1;
	const waiting = new Map();
	socket.on('message', (data) => {
		const message = JSON.parse(String(data));
		if (message.id && waiting.has(message.id)) {
			waiting.get(message.id)(message);
			waiting.delete(message.id);
		}
	});
	return (method, params = {}) =>
		new Promise((resolve, reject) => {
			const id = next++;
			waiting.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)));
			socket.send(JSON.stringify({ id, method, params }));
		});
}

/** Self and total sampled time per function of a V8 CPU profile, the heaviest first. */
function topFunctions(profile, count = 30) {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const selfSamples = new Map();
	for (const id of profile.samples) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
	const total = profile.samples.length;
	const key = (node) => {
		const frame = node.callFrame;
		const file = frame.url ? frame.url.split('/').slice(-2).join('/') : '';
		return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
	};
	const self = new Map();
	const inclusive = new Map();
	for (const [id, samples] of selfSamples) {
		const node = byId.get(id);
		self.set(key(node), (self.get(key(node)) ?? 0) + samples);
		// Count each function once per sample, however deep its recursion.
		const seen = new Set();
		for (let at = id; at !== undefined; at = parent.get(at)) {
			const name = key(byId.get(at));
			if (seen.has(name)) continue;
			seen.add(name);
			inclusive.set(name, (inclusive.get(name) ?? 0) + samples);
		}
	}
	const percent = (n) => `${((100 * n) / total).toFixed(1)}%`;
	const rank = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, n]) => `${percent(n).padStart(6)}  ${name}`);
	return { self: rank(self), total: rank(inclusive) };
}

async function profileOf(target) {
	const list = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json();
	const socket = new WebSocket(list[0].webSocketDebuggerUrl);
	await new Promise((resolve, reject) => {
		socket.once('open', resolve);
		socket.once('error', reject);
	});
	const send = devtools(socket);
	await send('Profiler.enable');
	await send('Profiler.setSamplingInterval', { interval: 100 });
	await send('Profiler.start');
	await load(target, requests * 2);
	const { profile } = await send('Profiler.stop');
	socket.close();
	return profile;
}

const server = serveBuild({ port: PORT, persistTo: STATE, stdio: 'ignore', inspectorPort: values.profile ? INSPECTOR_PORT : undefined });
try {
	await waitFor(`${ORIGIN}/`);
	for (const [name, target] of Object.entries(chosen)) {
		// Warm the isolate (and, for a cached target, the cache) first.
		await load(target, 100);
		const perRequest = [];
		for (let i = 0; i < rounds; i += 1) {
			const { result, cpuMs } = await withServerCpu(server.pid, () => load(target));
			if (result.non2xx > 0 && !name.startsWith('notFound')) console.warn(`${name}: ${result.non2xx} answers were not 2xx`);
			perRequest.push(cpuMs / Math.max(1, result.requests.total));
		}
		const sorted = [...perRequest].sort((a, b) => a - b);
		console.log(`${name.padEnd(18)} median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} ms  rounds ${perRequest.map((n) => n.toFixed(2)).join(' ')}`);
	}
	if (values.profile) {
		const profile = await profileOf(targets.postUncached);
		mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
		writeFileSync(path.join(ROOT, 'bench-results', 'worker.cpuprofile'), JSON.stringify(profile));
		const { self, total } = topFunctions(profile);
		console.log('\nSelf time (share of samples):');
		console.log(self.join('\n'));
		console.log('\nTotal time (share of samples):');
		console.log(total.join('\n'));
	}
} finally {
	server.kill('SIGTERM');
}
process.exit(0);
