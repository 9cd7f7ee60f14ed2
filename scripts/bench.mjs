/**
 * `npm run bench`: measures the built site on the 100,000-post demo (/bench/large), served locally
 * by wrangler (workerd) on loopback.
 *
 * - autocannon (10 connections, 10 s each) on the post page, a board's first and 2,000th page and
 *   the board tree API, each uncached (a cookie makes the edge cache step aside) and cached, and on
 *   a static asset of the post page's size as the ceiling; every figure is also given as a ratio to
 *   the static asset.
 * - Lighthouse (mobile preset, Debian Chromium) on the post page and the board's first page, and on
 *   a post and a board of the demo community /starfall/global: the performance, accessibility,
 *   best-practices and SEO scores, with LCP, FCP, CLS and TBT.
 *
 * - A mixed run: guests read 1,000 post pages and 50 board pages of /bench/large, picked at random
 *   for each request (autocannon, keep-alive), while members write 10 comments, 20 likes, 1 new post
 *   and 2 edits a second through the member API on those same posts and boards (sessions made for
 *   many members, each write from its own client address so that the rate limits count per member
 *   as they would; an edit is its author's, one in four a new title, the others the body only). It gives the cache
 *   hit rate (X-Edge-Cache of the readers' answers: HIT, or STALE, an entry older than a comment
 *   answered while it is made again; the STALE share is given too), the readers' requests per second and the
 *   server's CPU ms per reader request (the writes' own CPU included), beside the same readers with
 *   no writes, and the ratio of the two.
 * - A removal: the oldest, a middle and the newest post of the large board deleted through the
 *   posts service (scripts/operator/bench-removal.ts), with the rows D1 wrote and read for each,
 *   then what page 1 and page 2,000 read. It runs last, after the server stops; the next run seeds
 *   the bench data again.
 *
 * Each run is repeated (--rounds, default 3) and the median round is kept (for Lighthouse, the round
 * of the median performance score), since autocannon, Lighthouse and the server share the machine's cores. Results go to bench-results/latest.json and to the terminal.
 * Options: --duration SECONDS, --rounds N, --posts N (default 100000), --skip-lighthouse,
 * --lighthouse-only (no autocannon runs), --mixed-only (only the mixed run, on the bench data as it
 * is: no seeding unless there is none, no removal), --search-only (only the search bench below),
 * --smoke (for CI: 2,000 posts in a state folder of its own, .wrangler/bench-smoke, one second per
 * target, one round, no Lighthouse, a mixed run on 100 posts and 10 board pages, the comment cost
 * with the queue only and on the same server, the search bench on 20 queries and 3 runs; exits 1
 * when a reader's answer is not a success or a write is refused). The build goes to dist-bench/,
 * never to the dist/ a running `npm start` serves; --reuse-build copies dist/ there instead of
 * building again (`npm test`, which has just built dist/ from the same checkout).
 * The server listens on BENCH_PORT (default 8830). --persist-to DIR: the bench data in DIR instead of
 * .wrangler/bench (a million posts: `--posts 1000000 --persist-to /tmp/bench-1m`; docs/decisions/performance.md).
 * --latency (only the latency run, on the bench data as it is, like --mixed-only): the site served with
 * a delay added to every D1 round trip, --primary-ms (default 150) to the primary and --replica-ms
 * (default 10) to a replica, in the bench's copy of the build only (scripts/lib/d1-latency.mjs), and
 * the time to first byte (p50, p95) of a guest's cache hit and miss, a member's post page, a comment, a
 * like and a search, --requests (default 40) of each one at a time, with and without replicas, beside
 * the targets, and what Smart Placement would change (scripts/lib/latency-bench.mjs). Saved to
 * bench-results/latest-latency.json. A smoke run ends with a small one (20 and 2 ms, 3 requests each).
 * - The newer routes (scripts/operator/bench-routes.ts), with the comment's rows (one start of the runtime): a save and an unsave, My Page →
 *   Saved, a block, the blocks list and an unblock, a post's and a comment's edit history, a comment's like
 *   and unlike, Popular (a board's and All Posts', first page and after the 10,000th post), All Posts'
 *   first and 2,000th page, Best-ordered comments, an avatar upload and its serving, and the live room's
 *   check of the post: for each, the rows D1 read and wrote and its round trips, through the services.
 * - Search (scripts/operator/bench-search.ts), on the same data after the removal: recall of 200
 *   sampled queries against a plain scan, and per kind of query the database's time and the whole
 *   call's (p50/p95), the rows read, and the index's size.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { build } from './lib/build.mjs';
import { ROOT, communityDatabases, migrate, query } from './lib/wrangler.mjs';
import { openLocalD1 } from './lib/local-d1.mjs';
import { localSessionSecret, serveBuild, waitFor } from './lib/server.mjs';
import { mintSessionToken } from '../src/server/sign-in/session-token.ts';
import { withServerCpu } from './lib/cpu.mjs';
import { demoMemberCookies, memberSessions } from './lib/bench-sessions.mjs';
import { commentCost, configWithoutQueues } from './lib/comment-cost.mjs';
import { fromOwnAddresses, readerAddress } from './lib/reader-addresses.mjs';
import { latencyConfig, latencyProblems, latencyRun, printLatency } from './lib/latency-bench.mjs';

const { values } = parseArgs({
	options: {
		duration: { type: 'string', default: '10' },
		rounds: { type: 'string', default: '3' },
		posts: { type: 'string', default: '100000' },
		'skip-lighthouse': { type: 'boolean', default: false },
		'lighthouse-only': { type: 'boolean', default: false },
		'mixed-only': { type: 'boolean', default: false },
		'search-only': { type: 'boolean', default: false },
		latency: { type: 'boolean', default: false },
		'primary-ms': { type: 'string', default: '150' },
		'replica-ms': { type: 'string', default: '10' },
		requests: { type: 'string', default: '40' },
		smoke: { type: 'boolean', default: false },
		'reuse-build': { type: 'boolean', default: false },
		'persist-to': { type: 'string' },
	},
});
// A smoke run (CI): a small community of its own, one second per target and one round, no
// Lighthouse; it fails when a reader gets anything but a success or a write is refused.
const smoke = values.smoke;
if (smoke) {
	values.posts = values.posts === '100000' ? '2000' : values.posts;
	values.duration = '1';
	values.rounds = '1';
	values['skip-lighthouse'] = true;
}
// Away from the ports `npm start` and the browser tests use (8788 to 8791) and their identity providers.
const PORT = Number(process.env.BENCH_PORT ?? 8830);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const STATE = values['persist-to'] ? path.resolve(values['persist-to']) : path.join(ROOT, '.wrangler', smoke ? 'bench-smoke' : 'bench');
/** Above this many posts the search bench's scan reads only the newest 8,000 (scripts/operator/bench-search.ts). */
const SCAN_ALL_UP_TO = 200_000;
const RESULTS = path.join(ROOT, 'bench-results');
/**
 * The bench's own build, beside dist/: building into dist/ would replace the scripts and images a
 * running `npm start` serves (404 until it restarts).
 */
const OUT_DIR = 'dist-bench';
const STATIC_DIR = path.join(ROOT, OUT_DIR, 'client', '__bench');
/** The bench build's Worker configuration. */
const CONFIG = path.join(ROOT, OUT_DIR, 'server', 'wrangler.json');
const duration = Number(values.duration);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const rounds = Math.max(1, Number(values.rounds));

const mixedOnly = values['mixed-only'];
const latencyOnly = values.latency;

function ensureData() {
	const seeded = existsSync(STATE) && query("SELECT listed_count AS n FROM channels WHERE domain = 'bench' AND slug = 'large'", STATE)[0]?.n;
	if (seeded === Number(values.posts) || ((mixedOnly || latencyOnly || values['search-only']) && seeded > 0)) {
		// Data seeded by an earlier build: bring its schema up to this one's migrations.
		migrate(STATE);
		return;
	}
	console.log(`Seeding ${values.posts} posts into ${path.relative(ROOT, STATE)}…`);
	// A fresh database with the demo data (a copy of the last one seeded: scripts/lib/seeded.mjs), then the bench's posts.
	const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'seed.mjs'), '--persist-to', STATE, '--fresh', '--posts', values.posts], {
		cwd: ROOT,
		stdio: 'inherit',
	});
	if (result.status !== 0) throw new Error('seeding failed');
}

async function start() {
	// A smoke run serves the build through the latency layer (no delay unless a request asks for one:
	// scripts/lib/d1-latency.mjs), so that its small latency run needs no server of its own.
	const child = serveBuild({ port: PORT, persistTo: STATE, stdio: 'ignore', config: smoke ? latencyConfig(CONFIG) : CONFIG });
	await waitFor(`${ORIGIN}/`);
	return child;
}

/** Resolves once `url` answers 200 (a new static asset, once wrangler has reloaded its assets), or throws after a minute. */
async function waitForSuccess(url) {
	for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
		const status = await fetch(url).then(
			async (response) => (await response.arrayBuffer(), response.status),
			() => 0,
		);
		if (status === 200) return;
	}
	throw new Error(`${url} did not answer 200 within a minute`);
}

async function stop(child) {
	child.kill('SIGTERM');
	await new Promise((resolve) => child.once('exit', resolve));
}

/** One autocannon run on `url`, each request from an address of its own (as many readers: scripts/lib/reader-addresses.mjs). */
function once(url, headers) {
	return new Promise((resolve, reject) => {
		autocannon({ url, connections: 10, duration, headers, requests: [fromOwnAddresses()] }, (error, result) =>
			error ? reject(error) : resolve(result),
		);
	});
}

/**
 * The median of `rounds` runs, by requests per second, with the server's CPU milliseconds per
 * request (the median of the rounds' own figures: the steadier measure on a shared machine).
 */
async function run(url, headers = {}) {
	const results = [];
	const cpu = [];
	for (let i = 0; i < rounds; i += 1) {
		const { result, cpuMs } = await withServerCpu(server.pid, () => once(url, headers));
		results.push(result);
		cpu.push(cpuMs / Math.max(1, result.requests.total));
	}
	results.sort((a, b) => a.requests.average - b.requests.average);
	cpu.sort((a, b) => a - b);
	return { ...results[Math.floor(results.length / 2)], cpuMsPerRequest: Number(cpu[Math.floor(cpu.length / 2)].toFixed(2)) };
}

function summary(result) {
	return {
		requestsPerSecond: Math.round(result.requests.average),
		cpuMsPerRequest: result.cpuMsPerRequest,
		p50Ms: result.latency.p50,
		p99Ms: result.latency.p99,
		non2xx: result.non2xx,
		errors: result.errors,
	};
}

/**
 * The mixed run's readers and writers: 10 comments, 20 likes, 1 new post (on the bench's three
 * boards as the seed spreads them: 60% on the board the readers read) and 2 edits (one in four a
 * new title, which changes its board's list) a second, on the posts and board readers read.
 */
const MIXED = {
	// A smoke run reads 100 posts and 10 board pages: warming 1,050 pages twice took it 20 s.
	posts: smoke ? 100 : 1000,
	boardPages: smoke ? 10 : 50,
	commentsPerSecond: 10,
	likesPerSecond: 20,
	newPostsPerSecond: 1,
	editsPerSecond: 2,
	retitledShare: 0.25,
	members: 150,
	maxWritesInFlight: 8,
};

/**
 * Members writing while the readers read: each tick of 100 ms sends its share of comments and
 * likes, each from a client address of its own. A write due while MIXED.maxWritesInFlight are
 * still unanswered is skipped (counted): a local D1 that commits fewer writes a second than asked
 * would otherwise queue them without end, and every read behind them. Answers a stop function
 * that tells what was sent, the rates reached and how the server answered.
 */
function startWriters(sessions, postIds, editable) {
	const outcomes = {};
	const bySession = new Map(sessions.map((session) => [session.memberId, session]));
	let edits = 0;
	let newPosts = 0;
	const liked = new Set();
	let sent = 0;
	let address = 0;
	let inFlight = 0;
	const send = async (kind, method, pathName, session, body, onSuccess) => {
		if (inFlight >= MIXED.maxWritesInFlight) {
			outcomes[`${kind} skipped`] = (outcomes[`${kind} skipped`] ?? 0) + 1;
			return;
		}
		inFlight += 1;
		address += 1;
		try {
			const response = await fetch(`${ORIGIN}${pathName}`, {
				method,
				headers: {
					cookie: session.cookie,
					origin: ORIGIN,
					'content-type': 'application/json',
					'cf-connecting-ip': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
				},
				...(body === undefined ? {} : { body: JSON.stringify(body) }),
			});
			await response.arrayBuffer();
			outcomes[`${kind} ${response.status}`] = (outcomes[`${kind} ${response.status}`] ?? 0) + 1;
			if (response.status === 200) onSuccess?.();
		} catch {
			outcomes[`${kind} failed`] = (outcomes[`${kind} failed`] ?? 0) + 1;
		} finally {
			inFlight -= 1;
		}
	};
	const pick = (list) => list[Math.floor(Math.random() * list.length)];
	const started = Date.now();
	const timer = setInterval(() => {
		for (let i = 0; i < MIXED.commentsPerSecond / 10; i += 1) {
			sent += 1;
			void send('comment', 'POST', `/v1/bench/large/posts/${pick(postIds)}/comments`, pick(sessions), { content: `Bench comment ${sent}` });
		}
		for (let i = 0; i < MIXED.likesPerSecond / 10; i += 1) {
			// A like a member has not given yet, so that every like writes.
			let session;
			let postId;
			do {
				session = pick(sessions);
				postId = pick(postIds);
			} while (liked.has(`${session.memberId}:${postId}`));
			liked.add(`${session.memberId}:${postId}`);
			void send('like', 'PUT', `/v1/bench/large/posts/${postId}/like`, session);
		}
		const doc = (text) => ({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });
		// Fractions of a write per tick add up across ticks.
		for (newPosts += MIXED.newPostsPerSecond / 10; newPosts >= 1; newPosts -= 1) {
			sent += 1;
			const roll = Math.random();
			const boardId = roll < 0.6 ? 91 : roll < 0.8 ? 92 : 93;
			void send('post', 'POST', '/v1/bench/large/posts', pick(sessions), {
				boardId,
				subjectId: null,
				title: `Bench post ${sent}`,
				content: doc(`Written during the bench, ${sent}.`),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			});
		}
		for (edits += MIXED.editsPerSecond / 10; edits >= 1; edits -= 1) {
			// Its author's edit of a post the readers read; an edit in flight is not edited again (its version would be old).
			const post = pick(editable);
			if (post.editing) continue;
			post.editing = true;
			sent += 1;
			const retitle = Math.random() < MIXED.retitledShare;
			const title = retitle ? `${post.title.slice(0, 60)} (${sent})` : post.title;
			const body = {
				boardId: post.boardId,
				subjectId: post.subjectId,
				title,
				content: doc(`Edited during the bench, ${sent}.`),
				isPrivate: false,
				isNotice: false,
				version: post.version,
			};
			void send(retitle ? 'edit (title)' : 'edit (body)', 'PUT', `/v1/bench/large/posts/${post.id}`, bySession.get(post.memberId), body, () => {
				post.version += 1;
				post.title = title;
			}).finally(() => (post.editing = false));
		}
	}, 100);
	return () => {
		clearInterval(timer);
		const seconds = (Date.now() - started) / 1000;
		const count = (kind) => outcomes[`${kind} 200`] ?? 0;
		const rate = (n) => Number((n / seconds).toFixed(1));
		return {
			outcomes,
			commentsPerSecond: rate(count('comment')),
			likesPerSecond: rate(count('like')),
			newPostsPerSecond: rate(count('post')),
			editsPerSecond: rate(count('edit (body)') + count('edit (title)')),
		};
	};
}

/** One readers' run over `paths`, picked at random per request, counting X-Edge-Cache of the answers. */
function readers(paths) {
	const states = {};
	return new Promise((resolve, reject) => {
		autocannon(
			{
				url: ORIGIN,
				connections: 10,
				duration,
				requests: [
					fromOwnAddresses({
						pathOf: () => paths[Math.floor(Math.random() * paths.length)],
						onResponse: (_status, _body, _context, headers) => {
							const state = headers['x-edge-cache'] ?? headers['X-Edge-Cache'] ?? 'none';
							states[state] = (states[state] ?? 0) + 1;
						},
					}),
				],
			},
			(error, result) => (error ? reject(error) : resolve({ ...result, edgeCache: states })),
		);
	});
}

/** The readers with and without the members' writes: the median round of each, and their ratio. */
async function mixedRun({ posts, sessions, editable }) {
	const paths = [
		...posts.map((id) => `/bench/large/posts/${id}`),
		...Array.from({ length: MIXED.boardPages }, (_, i) => `/bench/large/boards/91${i === 0 ? '' : `?page=${i + 1}`}`),
	];
	// Every page read once, as a community's pages are before a busy minute: before each measure
	// (what the writes made cold is made again for the readers-only measure).
	const warm = async () => {
		for (let i = 0; i < paths.length; i += 20)
			await Promise.all(
				paths
					.slice(i, i + 20)
					.map(async (pagePath) => (await fetch(`${ORIGIN}${pagePath}`, { headers: { 'cf-connecting-ip': readerAddress() } })).arrayBuffer()),
			);
	};
	const measure = async (withWrites) => {
		await warm();
		const runs = [];
		for (let i = 0; i < rounds; i += 1) {
			const stopWriters = withWrites ? startWriters(sessions, posts, editable) : null;
			const { result, cpuMs } = await withServerCpu(server.pid, () => readers(paths));
			const writes = stopWriters?.() ?? null;
			const hits = (result.edgeCache.HIT ?? 0) + (result.edgeCache.STALE ?? 0);
			const answered = Object.values(result.edgeCache).reduce((sum, n) => sum + n, 0);
			runs.push({
				requestsPerSecond: Math.round(result.requests.average),
				cpuMsPerRequest: Number((cpuMs / Math.max(1, result.requests.total)).toFixed(2)),
				hitRate: Number((hits / Math.max(1, answered)).toFixed(3)),
				staleRate: Number(((result.edgeCache.STALE ?? 0) / Math.max(1, answered)).toFixed(3)),
				edgeCache: result.edgeCache,
				p50Ms: result.latency.p50,
				p99Ms: result.latency.p99,
				non2xx: result.non2xx,
				...(writes ? { writes } : {}),
			});
		}
		runs.sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
		const median = (key) => runs.map((run) => run[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
		return {
			...runs[Math.floor(runs.length / 2)],
			cpuMsPerRequest: median('cpuMsPerRequest'),
			hitRate: median('hitRate'),
			staleRate: median('staleRate'),
			rounds: runs,
		};
	};
	// The busy minute first, while the warmed entries are young: an entry lives 60 s and is made again
	// in the background only when read from 50 s on, so a measure that starts later, at the lower
	// read rate writers leave, would count entries that merely aged out as misses of the writes.
	const withWrites = await measure(true);
	const readOnly = await measure(false);
	return { readOnly, withWrites, throughputRatio: Number((withWrites.requestsPerSecond / readOnly.requestsPerSecond).toFixed(2)) };
}

function lighthouse(name, url, round, headers = {}) {
	const report = path.join(RESULTS, `lighthouse-${name}-${round}.json`);
	const result = spawnSync(
		process.execPath,
		[
			path.join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js'),
			url,
			'--quiet',
			'--output=json',
			`--output-path=${report}`,
			`--only-categories=${CATEGORIES.join(',')}`,
			...(Object.keys(headers).length > 0 ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
			'--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync',
		],
		{ cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' } },
	);
	if (result.status !== 0 || !existsSync(report)) return null;
	const lhr = JSON.parse(readFileSync(report, 'utf8'));
	const scores = /** @type {Record<string, number> & { performance: number }} */ (
		Object.fromEntries(CATEGORIES.map((category) => [category, Math.round(lhr.categories[category].score * 100)]))
	);
	// The audits that cost points, so a score below 100 says why.
	const failing = CATEGORIES.flatMap((category) => lhr.categories[category].auditRefs)
		.filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
		.map((ref) => ref.id);
	return {
		...scores,
		lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
		cls: Number(lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3)),
		tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
		fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue),
		failing: [...new Set(failing)],
		report: path.relative(ROOT, report),
	};
}

const lighthouseOnly = values['lighthouse-only'];
/** The round of the median performance score out of `rounds` Lighthouse runs; null when every run failed. */
function medianLighthouse(name, url, headers = {}) {
	const runs = [];
	for (let i = 0; i < rounds; i += 1) {
		const run = lighthouse(name, url, i + 1, headers);
		if (run) runs.push(run);
	}
	runs.sort((a, b) => a.performance - b.performance);
	return runs[Math.floor(runs.length / 2)] ?? null;
}

/** The JSON line an operator bench printed (scripts/operator/bench-*.ts), or an error that says which failed. */
function figuresOf(child, name) {
	const line = child.stdout.split('\n').find((text) => text.startsWith('{'));
	if (child.status !== 0 || !line) throw new Error(`${name} bench failed:\n${child.stderr}`);
	return JSON.parse(line);
}

/** Runs scripts/`script` on the bench data and returns its figures. */
function operatorFigures(script, name, args = []) {
	return figuresOf(
		spawnSync(process.execPath, [path.join(ROOT, 'scripts', script), '--persist-to', STATE, ...args], { cwd: ROOT, encoding: 'utf8' }),
		name,
	);
}

/** The search bench on the bench data as it is; returns its figures. */
function searchBench() {
	const run = spawnSync(
		process.execPath,
		// A smoke run checks that the search bench runs and agrees with a scan, on a few queries.
		[
			path.join(ROOT, 'scripts', 'bench-search.mjs'),
			'--persist-to',
			STATE,
			...(smoke ? ['--runs', '3', '--samples', '5'] : ['--runs', String(Math.max(20, rounds))]),
			...(Number(values.posts) > SCAN_ALL_UP_TO ? ['--scan-limit', '8000'] : []),
		],
		{ cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
	);
	const line = run.stdout.split('\n').find((text) => text.startsWith('{'));
	if (!line) throw new Error(`the search bench failed:\n${run.stderr}`);
	const figures = JSON.parse(line);
	console.log(
		`\nSearch on ${values.posts} posts: recall ${figures.recall.exact} of ${figures.recall.samples} sampled queries exactly as a scan (${figures.recall.capped} beyond the count cap, compared on the newest 1,001${figures.recall.skipped ? `; ${figures.recall.skipped} not compared: fewer than 1,001 matches in the newest 8,000 posts` : ''})`,
	);
	console.log('| query | found | rows read | SQL p50 / p95 ms | call p50 / p95 ms |');
	console.log('|---|---|---|---|---|');
	for (const [name, kind] of Object.entries(figures.speed)) {
		console.log(
			`| ${name} ("${kind.query}") | ${kind.capped ? `${kind.found}+` : kind.found} | ${kind.rowsRead} | ${kind.sqlP50Ms} / ${kind.sqlP95Ms} | ${kind.callP50Ms} / ${kind.callP95Ms} |`,
		);
	}
	console.log(`Index: ${(figures.index.bytes / 1e6).toFixed(1)} MB for ${figures.index.entries} posts`);
	return figures;
}

mkdirSync(RESULTS, { recursive: true });
if (values['search-only']) {
	ensureData();
	const figures = searchBench();
	writeFileSync(
		path.join(RESULTS, 'latest-search.json'),
		JSON.stringify({ date: new Date().toISOString(), posts: Number(values.posts), ...figures }, null, 2) + '\n',
	);
	process.exit(figures.recall.misses.length === 0 ? 0 : 1);
}
if (values['reuse-build']) {
	console.log(`Copying dist/ into ${OUT_DIR}/…`);
	rmSync(path.join(ROOT, OUT_DIR), { recursive: true, force: true });
	cpSync(path.join(ROOT, 'dist'), path.join(ROOT, OUT_DIR), { recursive: true });
} else {
	console.log(`Building into ${OUT_DIR}/…`);
	build({ outDir: OUT_DIR });
}
ensureData();
// The bench's questions to its database, through one local D1 held open until the server stops.
const db = await openLocalD1(STATE);
if (latencyOnly) {
	const latency = await latencyRun({
		state: STATE,
		port: PORT,
		config: CONFIG,
		primaryMs: Number(values['primary-ms']),
		replicaMs: Number(values['replica-ms']),
		count: Math.max(1, Number(values.requests)),
		sessions: await memberSessions(db, STATE, MIXED.members),
	});
	await db.close();
	writeFileSync(
		path.join(RESULTS, 'latest-latency.json'),
		// The data as it is: the large board's posts now, whatever --posts said.
		JSON.stringify({ date: new Date().toISOString(), posts: latency.posts, ...latency }, null, 2) + '\n',
	);
	printLatency(latency);
	const problems = latencyProblems(latency);
	console.log(problems.length === 0 ? '\nSaved to bench-results/latest-latency.json' : `\nProblems:\n${problems.join('\n')}`);
	process.exit(problems.length === 0 ? 0 : 1);
}
const [{ postId }] = await db.rows('SELECT max(id) AS postId FROM posts WHERE channel_id = 9 AND board_seq IS NOT NULL');
const memberToken = await mintSessionToken(localSessionSecret(STATE), 9);
// A demo post with images on /starfall/global, whose layout has every kind of tree node and footer part.
const [{ demoPostId }] = await db.rows('SELECT min(id) AS demoPostId FROM posts WHERE channel_id = 1 AND has_image = 1 AND board_seq IS NOT NULL');

const targets = {
	// The asset as served: wrangler's assets answer /__bench/post.html with a 307 to this path.
	static: { path: '/__bench/post' },
	postPage: { path: `/bench/large/posts/${postId}` },
	boardFirstPage: { path: '/bench/large/boards/91' },
	boardPage2000: { path: '/bench/large/boards/91?page=2000' },
	boardTreeApi: { path: '/public/v1/bench/large/boards/tree' },
};
/** @type {Record<string, { path: string; headers?: Record<string, string> }>} */
const lighthousePages = {
	postPage: { path: targets.postPage.path },
	boardFirstPage: { path: targets.boardFirstPage.path },
	demoPostPage: { path: `/starfall/global/posts/${demoPostId}` },
	demoBoardPage: { path: '/starfall/global/boards/12' },
};
if (lighthouseOnly) {
	// Every demo community's post, board, search and My Page (signed in): the SEO and accessibility
	// scores docs/reference/seo.md reports. The search and My Page carry noindex on purpose, which Lighthouse's
	// is-crawlable audit counts against SEO.
	const cookies = await demoMemberCookies(STATE);
	// Each community's rows are in the database the directory names.
	const pages = communityDatabases(STATE).flatMap((database) =>
		query(
			`SELECT c.domain, c.slug,
				(SELECT min(p.id) FROM posts p WHERE p.channel_id = c.id AND p.channel_seq IS NOT NULL) AS postId,
				(SELECT min(b.id) FROM boards b WHERE b.channel_id = c.id AND b.is_public = 1) AS boardId
			 FROM channels c WHERE c.domain != 'bench' AND c.database = '${database}' ORDER BY c.id`,
			STATE,
			database,
		),
	);
	for (const { domain, slug, postId: demoPost, boardId } of pages) {
		const base = `/${domain}/${slug}`;
		lighthousePages[`${domain}-${slug}-post`] = { path: `${base}/posts/${demoPost}` };
		lighthousePages[`${domain}-${slug}-board`] = { path: `${base}/boards/${boardId}` };
		lighthousePages[`${domain}-${slug}-search`] = { path: `${base}/search?q=the` };
		const cookie = cookies.get(base);
		if (cookie) lighthousePages[`${domain}-${slug}-mypage`] = { path: `${base}/mypage`, headers: { cookie } };
	}
}
const results = { date: new Date().toISOString(), posts: Number(values.posts), durationSeconds: duration, rounds, connections: 10, runs: {} };

// The mixed run's posts and members' sessions, written before the server opens the database.
const mixedData = lighthouseOnly
	? null
	: {
			posts: (await db.rows(`SELECT id FROM posts WHERE channel_id = 9 AND board_seq IS NOT NULL ORDER BY id DESC LIMIT ${MIXED.posts}`)).map(
				(row) => row.id,
			),
			sessions: await memberSessions(db, STATE, MIXED.members),
			/** @type {{ id: number; memberId: number; boardId: number; subjectId: number | null; title: string; version: number }[]} */
			editable: [],
		};
if (mixedData) {
	// The posts readers read whose authors write in the run: what the edits change.
	const members = new Set(mixedData.sessions.map((session) => session.memberId));
	mixedData.editable = (
		await db.rows(
			`SELECT id, member_id AS memberId, board_id AS boardId, subject_id AS subjectId, title, version FROM posts WHERE id IN (${mixedData.posts.join(', ')}) AND deleted_at IS NULL`,
		)
	).filter((post) => members.has(post.memberId));
}

rmSync(STATIC_DIR, { recursive: true, force: true });
// The comment cost of a smoke run, on this server, with the mixed run's sessions (written before it starts).
let smokeComments;
const server = await start();
try {
	if (!lighthouseOnly && !mixedOnly) {
		// The ceiling: the post page's own HTML, saved as a static asset and served by the same runtime
		// (wrangler dev watches the assets and takes the new file in: no second start).
		const html = await (await fetch(`${ORIGIN}${targets.postPage.path}`)).text();
		mkdirSync(STATIC_DIR, { recursive: true });
		writeFileSync(path.join(STATIC_DIR, 'post.html'), html);
		await waitForSuccess(`${ORIGIN}${targets.static.path}`);
		for (const [name, target] of Object.entries(targets)) {
			const url = `${ORIGIN}${target.path}`;
			if (name === 'static') {
				results.runs.static = summary(await run(url));
				console.log(`static: ${results.runs.static.requestsPerSecond} req/s`);
				continue;
			}
			// A session cookie this deployment minted makes the edge cache step aside. No such session
			// exists, so the answer is the guest's page after one session lookup: what a member's page
			// costs, plus rendering.
			results.runs[`${name}Uncached`] = summary(await run(url, { cookie: `__Host-session_bench_large=${memberToken}` }));
			await fetch(url);
			results.runs[`${name}Cached`] = summary(await run(url));
			console.log(
				`${name}: ${results.runs[`${name}Uncached`].requestsPerSecond} req/s uncached, ${results.runs[`${name}Cached`].requestsPerSecond} cached`,
			);
		}
		const ceiling = results.runs.static.requestsPerSecond;
		for (const run of Object.values(results.runs)) run.ratioToStatic = Number((run.requestsPerSecond / ceiling).toFixed(2));
	}
	if (!lighthouseOnly) {
		results.mixed = await mixedRun(mixedData);
		console.log(`mixed: ${results.mixed.withWrites.requestsPerSecond} req/s with writes, ${results.mixed.readOnly.requestsPerSecond} without`);
	}
	if (smoke) {
		// The smoke checks that the comment bench runs and every comment succeeds: with the queue as
		// deployed, on this server (the comparison without the queue, on servers of their own, is the full bench's).
		smokeComments = await commentCost({ state: STATE, db, port: PORT, server, sessions: mixedData?.sessions.slice(0, 50), writes: 40 });
		// A small latency run, so that it cannot rot: small delays, a few requests of each kind.
		const latency = { primaryMs: 20, replicaMs: 2, count: 3 };
		results.latency = await latencyRun({ state: STATE, port: PORT, config: CONFIG, running: server, ...latency, sessions: mixedData.sessions });
	}
	if (!values['skip-lighthouse'] && !mixedOnly) {
		results.lighthouse = {};
		for (const [name, page] of Object.entries(lighthousePages))
			results.lighthouse[name] = medianLighthouse(name, `${ORIGIN}${page.path}`, page.headers);
	}
} finally {
	await stop(server);
	rmSync(STATIC_DIR, { recursive: true, force: true });
}

if (!lighthouseOnly && !mixedOnly) {
	// What a comment costs with the notifications queue and its consumer, and without them.
	const writes = 300;
	// A smoke run measured it with the queue only, above.
	const withoutQueue = smokeComments ? null : await commentCost({ state: STATE, db, port: PORT + 12, config: configWithoutQueues(CONFIG), writes });
	const withQueue = smokeComments ?? (await commentCost({ state: STATE, db, port: PORT + 12, config: CONFIG, writes }));
	// The comment's rows and the newer routes', in one run of the local runtime.
	const { routes, ...rows } = operatorFigures('bench-comment.mjs', 'the comment', ['--routes']);
	results.comment = { withoutQueue, withQueue, rows };
	results.routes = routes;
	console.log(`comment: ${withoutQueue?.cpuMsPerComment ?? '(not measured)'} ms CPU without the queue, ${withQueue.cpuMsPerComment} ms with it`);
}

await db.close();

if (!lighthouseOnly && !mixedOnly) {
	const removal = spawnSync(
		process.execPath,
		[path.join(ROOT, 'scripts', 'bench-removal.mjs'), '--persist-to', STATE, '--runs', smoke ? '2' : '20'],
		{
			cwd: ROOT,
			encoding: 'utf8',
		},
	);
	results.removal = figuresOf(removal, 'the removal');
	results.search = searchBench();
}

// A Lighthouse-only run keeps the last full run's figures.
const saved = path.join(
	RESULTS,
	smoke ? 'latest-smoke.json' : lighthouseOnly ? 'latest-lighthouse.json' : mixedOnly ? 'latest-mixed.json' : 'latest.json',
);
writeFileSync(saved, JSON.stringify(results, null, 2) + '\n');
if (!lighthouseOnly && !mixedOnly) {
	console.log('\n| target | req/s | server CPU ms/request | p50 ms | p99 ms | × static |');
	console.log('|---|---|---|---|---|---|');
	for (const [name, run] of Object.entries(results.runs))
		console.log(`| ${name} | ${run.requestsPerSecond} | ${run.cpuMsPerRequest} | ${run.p50Ms} | ${run.p99Ms} | ${run.ratioToStatic} |`);
}
if (results.mixed) {
	const { readOnly, withWrites, throughputRatio } = results.mixed;
	console.log(`\nGuests reading ${MIXED.posts} post pages and ${MIXED.boardPages} board pages (median of ${rounds}):`);
	console.log(
		'| readers | req/s | server CPU ms/request | cache hit rate (of it STALE) | p50 ms | p99 ms | writes/s (comments, likes, new posts, edits) |',
	);
	console.log('|---|---|---|---|---|---|---|');
	console.log(
		`| no writes | ${readOnly.requestsPerSecond} | ${readOnly.cpuMsPerRequest} | ${readOnly.hitRate} (${readOnly.staleRate}) | ${readOnly.p50Ms} | ${readOnly.p99Ms} | |`,
	);
	console.log(
		`| members writing | ${withWrites.requestsPerSecond} | ${withWrites.cpuMsPerRequest} | ${withWrites.hitRate} (${withWrites.staleRate}) | ${withWrites.p50Ms} | ${withWrites.p99Ms} | ${withWrites.writes.commentsPerSecond}, ${withWrites.writes.likesPerSecond}, ${withWrites.writes.newPostsPerSecond}, ${withWrites.writes.editsPerSecond} |`,
	);
	console.log(`Throughput with writes: ${throughputRatio}× the readers alone. Write answers: ${JSON.stringify(withWrites.writes.outcomes)}`);
}
if (results.comment) {
	const { withoutQueue, withQueue, rows } = results.comment;
	console.log('\nWhat a comment costs (server CPU per comment, 4 at a time; half mention a member; rows as D1 counts them):');
	console.log(
		'| | server CPU ms/comment | request: rows written | request: rows read | consumer: rows written per comment | notifications written |',
	);
	console.log('|---|---|---|---|---|---|');
	if (withoutQueue)
		console.log(
			`| before (no queue) | ${withoutQueue.cpuMsPerComment} | ${rows.plain.request.rowsWritten} | ${rows.plain.request.rowsRead} | | ${withoutQueue.notificationsWritten} |`,
		);
	console.log(
		`| now, no mention | ${withQueue.cpuMsPerComment} (both kinds) | ${rows.plain.request.rowsWritten} | ${rows.plain.request.rowsRead} | ${rows.plain.consumer.rowsWritten} | |`,
	);
	console.log(
		`| now, one mention | | ${rows.mention.request.rowsWritten} | ${rows.mention.request.rowsRead} | ${rows.mention.consumer.rowsWritten} | ${withQueue.notificationsWritten} in all |`,
	);
}
if (results.routes) {
	console.log(
		`\nThe newer routes (their services on the large community: ${results.routes.listed} posts, ${results.routes.commentsOnPost} comments on the post; rows as D1 counts them):`,
	);
	console.log('| route | rows read | rows written | D1 round trips |');
	console.log('|---|---|---|---|');
	for (const [name, cost] of Object.entries(results.routes.routes))
		console.log(`| ${name} | ${cost.rowsRead} | ${cost.rowsWritten} | ${cost.trips} |`);
}
if (results.removal) {
	console.log('\nRemoving a post of the large board (posts service, local D1):');
	console.log('| post | rows written | rows read | ms |');
	console.log('|---|---|---|---|');
	for (const [name, cost] of Object.entries(results.removal.removals))
		console.log(`| ${name} | ${cost.rowsWritten} | ${cost.rowsRead} | ${cost.ms} |`);
	for (const [name, cost] of Object.entries(results.removal.pagesAfter))
		console.log(
			`| then ${name}: rows read, SQL p50 / p95 ms, call p50 / p95 ms | | ${cost.rowsRead} | ${cost.sqlP50Ms} / ${cost.sqlP95Ms}, ${cost.callP50Ms} / ${cost.callP95Ms} |`,
		);
}
if (results.lighthouse) {
	console.log('\nLighthouse (mobile):');
	console.log('| page | performance | accessibility | best practices | SEO | LCP ms | FCP ms | CLS | TBT ms | audits below 1 |');
	console.log('|---|---|---|---|---|---|---|---|---|---|');
	for (const [name, lh] of Object.entries(results.lighthouse)) {
		if (!lh) console.log(`| ${name} | Lighthouse failed |`);
		else
			console.log(
				`| ${name} | ${lh.performance} | ${lh.accessibility} | ${lh['best-practices']} | ${lh.seo} | ${lh.lcpMs} | ${lh.fcpMs} | ${lh.cls} | ${lh.tbtMs} | ${lh.failing.join(', ') || 'none'} |`,
			);
	}
}
if (results.latency) printLatency(results.latency);
console.log(`\nSaved to ${path.relative(ROOT, saved)}`);
if (smoke) {
	// The smoke run passes when every reader got a success and no write was refused or failed.
	const problems = [];
	for (const [name, run] of Object.entries(results.runs))
		if (run.non2xx > 0 || run.errors > 0) problems.push(`${name}: ${run.non2xx} non-2xx, ${run.errors} errors`);
	for (const [status, n] of Object.entries(smokeComments?.statuses ?? {})) if (status !== '200') problems.push(`comment bench: ${n} × ${status}`);
	for (const [name, run] of Object.entries(results.mixed ?? {})) {
		if (typeof run !== 'object') continue;
		for (const round of run.rounds) {
			if (round.non2xx > 0) problems.push(`mixed ${name}: ${round.non2xx} non-2xx readers' answers`);
			for (const [outcome, n] of Object.entries(round.writes?.outcomes ?? {}))
				if (!/ (200|skipped)$/.test(outcome)) problems.push(`mixed ${name}: ${n} × ${outcome}`);
		}
	}
	problems.push(...latencyProblems(results.latency));
	console.log(problems.length === 0 ? 'Smoke: every answer a success.' : `Smoke failed:\n${problems.join('\n')}`);
	process.exit(problems.length === 0 ? 0 : 1);
}
process.exit(0);
