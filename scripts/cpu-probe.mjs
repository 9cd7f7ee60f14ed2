/**
 * `node scripts/cpu-probe.mjs`: the server's CPU milliseconds per request for a few URLs of the
 * bench data (/bench/large in .wrangler/bench, seeded by `npm run bench`, or by the probe itself
 * when there is none: `--posts`, 20,000 by default; `--help` lists the options), for quick iterations
 * on what a page costs. It serves the last `npm run build` under `wrangler dev` on BENCH_PORT
 * (default 8830) and sends each URL `--requests` times (10 connections), `--rounds` times, and
 * prints every round and the median: other work on the machine moves single rounds a lot.
 *
 * `--profile` also records a V8 CPU profile of the Worker over the uncached post page (another
 * target with `--profile-target NAME`), through
 * wrangler's inspector, Chrome DevTools Protocol), saves it to bench-results/worker.cpuprofile
 * (open it in Chrome DevTools) and prints the functions with the most self and total time.
 * `postGuestMiss` asks a post no one read at each request (a guest's miss: the render and its reads).
 * `postUncached`, `boardUncached` and `allPostsUncached` are a member's pages (also named `postMember`,
 * `boardMember`, `allPostsMember`), answered from the guest's page; the probe prints how each target
 * was answered (X-Member-Page, X-Member-Parts: SPLICED or REWRITER, X-Edge-Cache).
 * `--only NAME,…` measures some targets only. `--against DIR` also serves the build of another
 * checkout (DIR/dist, e.g. the commit before a change) on the next port, on the same data, and
 * alternates the two round by round, so both see the same load from the rest of the machine.
 * `--direct` also measures each server past wrangler's dev proxy, straight from the Worker's runtime
 * (scripts/lib/direct-port.mjs, on BENCH_PORT + 4 and + 5), alternating with the proxy's rounds: the
 * proxy is a second HTTP hop in a workerd process of its own, which passes every HTML answer through
 * an HTMLRewriter (docs/decisions/performance.md), and a deployment has none. A direct round counts
 * the CPU of the runtime's workerd process alone (what a deployment runs: the Worker, its assets and
 * the local D1 in it); what the rest of wrangler's tree spent meanwhile is printed beside it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
// Node's own WebSocket is refused by wrangler's inspector proxy; ws (a dependency of wrangler's) is not.
import WebSocket from 'ws';
import { ROOT, migrate, query } from './lib/wrangler.mjs';
import { localSessionSecret, serveBuild, waitFor } from './lib/server.mjs';
import { withServerCpu } from './lib/cpu.mjs';
import { fromOwnAddresses } from './lib/reader-addresses.mjs';
import { forwardToWorker } from './lib/direct-port.mjs';
import { mintSessionToken } from '../src/server/sign-in/session-token.ts';
import { hashToken } from '../src/server/platform/tokens.ts';

const { values } = parseArgs({
	options: {
		requests: { type: 'string', default: '600' },
		rounds: { type: 'string', default: '3' },
		profile: { type: 'boolean', default: false },
		'profile-target': { type: 'string', default: 'postUncached' },
		only: { type: 'string' },
		against: { type: 'string' },
		direct: { type: 'boolean', default: false },
		posts: { type: 'string', default: '20000' },
		help: { type: 'boolean', short: 'h', default: false },
	},
});
if (values.help) {
	console.log(`node scripts/cpu-probe.mjs [options]: the server's CPU milliseconds per request, by target

  --only NAME,…         measure these targets only (default: all of them, listed below)
  --requests N          requests per target and round (default 600, 10 connections)
  --rounds N            rounds; each round's figure and the median are printed (default 3)
  --direct              also measure past wrangler's dev proxy, straight from the Worker's runtime
  --against DIR         also serve DIR/dist (another checkout's build) on the next port, alternating rounds
  --profile             record a V8 CPU profile of the Worker (bench-results/worker.cpuprofile)
  --profile-target NAME the target profiled (default postUncached)
  --posts N             posts seeded into .wrangler/bench when it has no bench data yet (default 20000)

Serves the last \`npm run build\` on BENCH_PORT (default 8830). Targets: static, postCached, postUncached
(postMember), postAuthor, sessionRead, postGuestMiss, postMadeUpCookie, postJsonUncached, notFoundUncached,
boardCached, boardUncached (boardMember), allPostsUncached (allPostsMember).`);
	process.exit(0);
}
const PORT = Number(process.env.BENCH_PORT ?? 8830);
const INSPECTOR_PORT = PORT + 7;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const STATE = path.join(ROOT, '.wrangler', 'bench');
/** Whether .wrangler/bench holds the bench's community (a folder without its tables does not). */
function hasBenchData() {
	try {
		return existsSync(STATE) && query("SELECT count(*) AS n FROM channels WHERE domain = 'bench' AND slug = 'large'", STATE)[0]?.n > 0;
	} catch {
		return false;
	}
}
if (!hasBenchData()) {
	// No bench data yet (a fresh clone): the demo data and the bench's posts, as `npm run bench` seeds them.
	console.log(`Seeding ${values.posts} posts into ${path.relative(ROOT, STATE)}…`);
	const seeded = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'seed.mjs'), '--persist-to', STATE, '--fresh', '--posts', values.posts], {
		cwd: ROOT,
		stdio: 'inherit',
	});
	if (seeded.status !== 0) throw new Error('seeding the bench data failed');
}
// Data seeded by an earlier build: bring its schema up to this one's migrations (a missing column answers 500).
migrate(STATE);
const requests = Number(values.requests);
const rounds = Math.max(1, Number(values.rounds));

/** A static file of about 1 KB (from public/, so every build has it), the floor each page is compared with. */
const SMALL_ASSET = '/demo/starfall-icon.svg';

const [{ postId }] = query('SELECT max(id) AS postId FROM posts WHERE channel_id = 9 AND board_seq IS NOT NULL', STATE);
const secret = localSessionSecret(STATE);
/**
 * A member's session of /bench/large with its row (the session read finds a member, as a signed-in
 * reader's does). Members sign in, so the community offers a provider: the seed gives it none,
 * which the member pages' rule renders in full (functions/shell/member-pages.ts).
 */
async function memberSession(memberId) {
	query("INSERT OR IGNORE INTO channel_providers (channel_id, provider, sort_order) VALUES (9, 'GOOGLE', 0)", STATE);
	const token = await mintSessionToken(secret, 9);
	const now = Date.now();
	const day = 86_400_000;
	query(
		`INSERT INTO sessions (token_hash, member_id, channel_id, created_at, last_seen_at, idle_expires_at, expires_at)
		 VALUES ('${await hashToken(token)}', ${Number(memberId)}, 9, ${now}, ${now}, ${now + day}, ${now + day})`,
		STATE,
	);
	return token;
}
const [{ memberId: reader }] = query(
	`SELECT min(id) AS memberId FROM members WHERE channel_id = 9 AND role = 'MEMBER' AND id <> (SELECT member_id FROM posts WHERE id = ${Number(postId)})`,
	STATE,
);
const [{ memberId: author }] = query(`SELECT member_id AS memberId FROM posts WHERE id = ${Number(postId)}`, STATE);
const minted = `__Host-session_bench_large=${await memberSession(reader)}`;
/** The post's author: their page keeps the full render (their Edit and Delete). */
const authorCookie = `__Host-session_bench_large=${await memberSession(author)}`;
const madeUp = `__Host-session_bench_large=${'A'.repeat(43)}.${'B'.repeat(43)}`;
const post = `/bench/large/posts/${postId}`;
/** Posts a guest reads, each asked once by postGuestMiss: every answer is a miss (a render and its reads). */
const unread = query(
	`SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.channel_id = 9 AND p.board_seq IS NOT NULL AND b.is_public = 1
	 AND p.is_private = 0 AND p.hidden_by_admin = 0 AND p.deleted_at IS NULL AND p.id < ${Number(postId)} ORDER BY p.id DESC LIMIT 20000`,
	STATE,
).map((row) => `/bench/large/posts/${row.id}`);
const targets = {
	static: { path: SMALL_ASSET },
	postUncached: { path: post, cookie: minted },
	postCached: { path: post },
	postAuthor: { path: post, cookie: authorCookie },
	// The session's read and a small JSON answer: what a member's request costs beyond its page.
	sessionRead: { path: '/public/v1/bench/large/auth/status', cookie: minted },
	postGuestMiss: { path: post, pathOf: () => unread.shift() ?? post },
	postMadeUpCookie: { path: post, cookie: madeUp },
	postJsonUncached: { path: `/public/v1/bench/large/posts/${postId}`, cookie: minted },
	notFoundUncached: { path: '/bench/large/nothing-here', cookie: minted },
	boardCached: { path: '/bench/large/boards/91' },
	boardUncached: { path: '/bench/large/boards/91', cookie: minted },
	allPostsUncached: { path: '/bench/large/boards', cookie: minted },
};
/** The member's pages by what they are now (made from the guest's page, not uncached): the same targets. */
const ALIASES = { postMember: 'postUncached', boardMember: 'boardUncached', allPostsMember: 'allPostsUncached' };
const chosen = values.only ? Object.fromEntries(values.only.split(',').map((name) => [name, targets[ALIASES[name] ?? name]])) : targets;

/** `amount` requests to the target, each from an address of its own (the read limits count per address). */
function load(target, amount = requests, origin = ORIGIN) {
	const headers = target.cookie ? { cookie: target.cookie } : {};
	return new Promise((resolve, reject) => {
		autocannon(
			{ url: `${origin}${target.path}`, connections: 10, amount, headers, requests: [fromOwnAddresses({ pathOf: target.pathOf })] },
			(error, result) => (error ? reject(error) : resolve(result)),
		);
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
	const rank = (map) =>
		[...map]
			.sort((a, b) => b[1] - a[1])
			.slice(0, count)
			.map(([name, n]) => `${percent(n).padStart(6)}  ${name}`);
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

const servers = [
	{
		name: 'this',
		origin: ORIGIN,
		// Each server its own inspector port: two started together would otherwise race for wrangler's default.
		child: serveBuild({ port: PORT, persistTo: STATE, stdio: 'ignore', inspectorPort: INSPECTOR_PORT }),
	},
];
if (values.against) {
	const origin = `http://127.0.0.1:${PORT + 1}`;
	servers.push({
		name: 'against',
		origin,
		child: serveBuild({ port: PORT + 1, persistTo: STATE, stdio: 'ignore', root: path.resolve(values.against), inspectorPort: INSPECTOR_PORT + 1 }),
	});
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
try {
	for (const server of servers) await waitFor(`${server.origin}/`);
	// Past wrangler's dev proxy: each server also answers straight from its Worker's runtime (what a
	// deployment runs), a target of its own alternating with the proxy's round by round.
	if (values.direct) {
		for (const [index, server] of [...servers].entries()) {
			const port = PORT + 4 + index;
			const proxyPort = Number(new URL(server.origin).port);
			const forwarder = await forwardToWorker({ port, wranglerPid: server.child.pid, proxyPort, readyPath: '/bench/large/boards', log: console.log });
			servers.push({ name: `${server.name}, direct`, origin: `http://127.0.0.1:${port}`, child: server.child, forwarder });
			await waitFor(`http://127.0.0.1:${port}/`);
		}
	}
	for (const [name, target] of Object.entries(chosen)) {
		const perRequest = new Map(servers.map((server) => [server, []]));
		/** @type {Map<object, number[]>} */
		const rest = new Map();
		// How the target is answered: a member's page rewritten from the guest's, or rendered in full.
		const asked = await fetch(`${servers[0].origin}${target.path}`, { headers: target.cookie ? { cookie: target.cookie } : {} });
		await asked.arrayBuffer();
		const how = ['x-member-page', 'x-member-parts', 'x-edge-cache'].map((header) => `${header}: ${asked.headers.get(header) ?? '-'}`).join(', ');
		console.log(`${name.padEnd(28)} ${asked.status} ${how}`);
		// Warm each isolate (and, for a cached target, the cache) first.
		for (const server of servers) await load(target, 100, server.origin);
		for (let i = 0; i < rounds; i += 1) {
			for (const server of servers) {
				// A direct round counts the runtime's process alone, and the whole tree around it.
				const runtime = server.forwarder ? await server.forwarder.runtime() : null;
				const {
					result: { result, cpuMs },
					cpuMs: treeMs,
				} = await withServerCpu(server.child.pid, () => withServerCpu(runtime?.pid ?? server.child.pid, () => load(target, requests, server.origin)));
				if (result.non2xx > 0 && !name.startsWith('notFound')) console.warn(`${name}: ${result.non2xx} answers were not 2xx`);
				const total = Math.max(1, result.requests.total);
				perRequest.get(server).push(cpuMs / total);
				if (runtime) (rest.get(server) ?? rest.set(server, []).get(server)).push((treeMs - cpuMs) / total);
			}
		}
		for (const server of servers) {
			const list = perRequest.get(server);
			const label = servers.length > 1 ? `${name} (${server.name})` : name;
			const others = rest.has(server) ? `  (rest of wrangler's tree ${median(rest.get(server)).toFixed(2)} ms)` : '';
			console.log(`${label.padEnd(28)} median ${median(list).toFixed(2)} ms  rounds ${list.map((n) => n.toFixed(2)).join(' ')}${others}`);
		}
	}
	if (values.profile) {
		const profile = await profileOf(targets[values['profile-target']]);
		mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
		writeFileSync(path.join(ROOT, 'bench-results', 'worker.cpuprofile'), JSON.stringify(profile));
		const { self, total } = topFunctions(profile);
		console.log('\nSelf time (share of samples):');
		console.log(self.join('\n'));
		console.log('\nTotal time (share of samples):');
		console.log(total.join('\n'));
	}
} finally {
	for (const server of servers) {
		server.forwarder?.server.close();
		if (!server.forwarder) server.child.kill('SIGTERM');
	}
}
process.exit(0);
