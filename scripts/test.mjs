/**
 * `npm test`: type check, lint, unit tests, API and data tests inside workerd against a real local
 * D1, then the browser tests in headless Chromium against the built site, and the readers' browser
 * tests against the same build laid out for Cloudflare Pages, then a smoke run of the operator
 * scripts and of the benchmark. Stops at the first failing step.
 *
 * Steps that do not touch the same files run side by side (docs/guides/testing.md): the workers tests,
 * the build and the unit tests first; then the type check and lint (they read what the build
 * generates: worker-configuration.d.ts and .astro/) beside the workers tests; then the browser tests
 * alone, since they keep both cores busy by themselves (beside the others, everything took longer);
 * then the Pages smoke, the bench smoke and the scripts smoke side by side. A step that runs beside
 * another prints its output when it ends; one that runs alone prints as it goes. The browser tests' server (playwright.config.ts) starts once the build is done, beside
 * the type check and lint: seeding its database and starting wrangler leave a core idle.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/wrangler.mjs';
import { TEST_SERVER_COMMAND, TEST_SERVER_READY_URL } from '../tests/test-server.ts';

const modules = (...parts) => path.join(ROOT, 'node_modules', ...parts);
const REPORTS = path.join(ROOT, '.test-reports');
/** Each vitest project's JSON report. */
const vitestReport = (/** @type {VitestProject} */ project) => path.join(REPORTS, `vitest-${project}.json`);
const VITEST_REPORTS = [vitestReport('unit'), vitestReport('workers'), vitestReport('commands')];
const E2E_REPORTS = [path.join(REPORTS, 'e2e.json'), path.join(REPORTS, 'e2e-pages.json')];
const VITEST = modules('vitest', 'vitest.mjs');
const PLAYWRIGHT = modules('@playwright', 'test', 'cli.js');

/**
 * @typedef {{ name: string; after?: string[]; alone?: boolean; run: (out: Output) => Promise<boolean> }} Step
 * @typedef {{ stdio: 'inherit' | 'pipe'; write: (chunk: Buffer | string) => void }} Output
 * @typedef {'unit' | 'workers' | 'commands'} VitestProject
 */
/** @type {Step[]} */
const steps = [
	// The longest of the first steps starts first.
	{ name: 'workers tests', run: (out) => vitest('workers', out) },
	{ name: 'build', run: (out) => npm('build', out) },
	{ name: 'unit tests', run: (out) => vitest('unit', out) },
	// `npm run check` and `npm run lint` themselves, so that CI checks what package.json says they check.
	{ name: 'type check', after: ['build'], run: (out) => npm('check', out) },
	{ name: 'lint', after: ['build'], run: (out) => npm('lint', out) },
	{ name: 'test server', after: ['build'], run: startTestServer },
	{
		name: 'browser tests',
		after: ['build', 'unit tests', 'type check', 'lint', 'workers tests', 'test server'],
		alone: true,
		run: browserTests,
	},
	// The readers' browser tests again, against the Cloudflare Pages build under `wrangler pages dev`.
	{
		name: 'Pages smoke test',
		after: ['browser tests'],
		run: (out) => node(PLAYWRIGHT, ['test', '--config', 'playwright.pages.config.ts'], out),
	},
	// The benchmark on a small community (2,000 posts, a second per target, no Lighthouse), so that
	// `npm run bench` cannot rot unnoticed: it fails on any answer that is not a success. Its own
	// port, state folder and copy of the build (dist-bench/), so it runs beside the Pages smoke.
	{
		name: 'bench smoke',
		after: ['browser tests'],
		run: (out) => node(path.join(ROOT, 'scripts', 'bench.mjs'), ['--smoke', '--reuse-build'], out),
	},
	// The operator scripts the README names, each once on a demo database of their own
	// (.wrangler/scripts-smoke, a copy of the seeded one), so that none can rot unnoticed, then the
	// backup and restore commands' tests (the commands project, tests/commands/). Beside the two smokes
	// above: it needs no build, and mostly waits on one process at a time; in the first steps, the
	// commands' tests took about 90 CPU-seconds from the workers tests beside them.
	{ name: 'scripts smoke', after: ['browser tests'], run: scriptsSmoke },
];

const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };

/**
 * Runs a command; resolves true when it succeeds. Its output goes to `out`.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {Output} out
 * @param {Record<string, string>} [extraEnv]
 * @returns {Promise<boolean>}
 */
function run(command, args, out, extraEnv = {}) {
	return new Promise((resolve) => {
		const child = spawn(command, args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: ['ignore', out.stdio, out.stdio] });
		running.add(child);
		child.stdout?.on('data', out.write);
		child.stderr?.on('data', out.write);
		child.on('error', (error) => {
			out.write(`${error.message}\n`);
			running.delete(child);
			resolve(false);
		});
		child.on('close', (code) => {
			running.delete(child);
			resolve(code === 0);
		});
	});
}

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();

/** Runs a Node script with the running Node. */
const node = (/** @type {string} */ script, /** @type {string[]} */ args, /** @type {Output} */ out) => run(process.execPath, [script, ...args], out);

/** `npm run <script>`, through the npm that runs this (npm test) or the one on the PATH. */
function npm(/** @type {string} */ script, /** @type {Output} */ out) {
	const npmCli = process.env['npm_execpath'];
	return npmCli ? run(process.execPath, [npmCli, 'run', '--silent', script], out) : run('npm', ['run', '--silent', script], out);
}

/** One vitest project, with its own JSON report. */
function vitest(/** @type {VitestProject} */ project, /** @type {Output} */ out) {
	return node(VITEST, ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport(project)}`], out);
}

/**
 * The browser tests' server, as playwright.config.ts starts it (tests/test-server.ts), until the
 * browser tests end.
 *
 * @type {{ child: import('node:child_process').ChildProcess; output: ReturnType<typeof collect> } | null} */
let testServer = null;

/**
 * Starts the test server and resolves once it answers: false when it exits first or takes five
 * minutes (it seeds a fresh database and starts wrangler beside the type check, lint and the
 * workers tests, which keep both cores busy; alone it answers in well under a minute).
 */
async function startTestServer(/** @type {Output} */ out) {
	const [command = 'node', ...args] = TEST_SERVER_COMMAND.split(' ');
	const output = collect();
	// Its own process group, so that stopping it stops the wrangler and workerd it starts.
	const child = spawn(command === 'node' ? process.execPath : command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	child.stdout?.on('data', output);
	child.stderr?.on('data', output);
	testServer = { child, output };
	let exited = false;
	child.once('exit', () => (exited = true));
	const started = Date.now();
	for (const deadline = started + 300_000; !exited && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
		const answered = await fetch(TEST_SERVER_READY_URL).then(
			(response) => response.ok,
			() => false,
		);
		if (answered) return true;
	}
	const seconds = ((Date.now() - started) / 1000).toFixed(0);
	out.write(
		`${exited ? `The test server exited after ${seconds} s` : `${TEST_SERVER_READY_URL} did not answer within ${seconds} s`}; its output:\n${output.text()}\n`,
	);
	await stopTestServer();
	return false;
}

/** Stops the test server and waits for its processes to end (the Pages smoke then clears its state folder). */
async function stopTestServer() {
	if (!testServer) return;
	const { child } = testServer;
	testServer = null;
	if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
	const ended = new Promise((resolve) => child.once('exit', resolve));
	try {
		process.kill(-child.pid, 'SIGTERM');
	} catch {
		// Already gone.
	}
	await ended;
}

/** The browser tests on the server started above; its output is shown when they fail. */
async function browserTests(/** @type {Output} */ out) {
	const server = testServer;
	const ok = await run(process.execPath, [PLAYWRIGHT, 'test'], out, { E2E_SERVER_STARTED: TEST_SERVER_COMMAND });
	if (!ok && server) out.write(`\n── the test server's output ──\n${server.output.text()}`);
	await stopTestServer();
	return ok;
}

/** Each README script once, quickly: read-only or idempotent on a fresh demo database of its own. */
async function scriptsSmoke(/** @type {Output} */ out) {
	const state = ['--persist-to', path.join('.wrangler', 'scripts-smoke')];
	const runs = [
		['seed.mjs', '--fresh', ...state],
		['seed.mjs', '--if-empty', ...state],
		['search.mjs', 'reindex', ...state],
		['member.mjs', 'show', '--channel', 'starfall/global', '--member', '1005', ...state],
		['channel.mjs', 'apply', path.join('channels', 'starfall-global.json'), '--dry-run', ...state],
		['codes.mjs'],
		// The screenshots' Playwright config and journeys load (the photographs themselves are not taken).
		['screenshots.mjs', '--list'],
	];
	for (const [script = '', ...args] of runs) {
		out.write(`  node scripts/${script} ${args.join(' ')}\n`);
		// Only failures speak: the scripts' own reports are long.
		const quiet = { stdio: /** @type {const} */ ('pipe'), write: collect() };
		if (!(await node(path.join(ROOT, 'scripts', script), args, quiet))) {
			out.write(quiet.write.text());
			return false;
		}
	}
	return vitest('commands', out);
}

/** A writer that keeps what it is given. */
function collect() {
	/** @type {Buffer[]} */
	const chunks = [];
	const write = (/** @type {Buffer | string} */ chunk) => void chunks.push(Buffer.from(chunk));
	write.text = () => Buffer.concat(chunks).toString('utf8');
	return write;
}

/** Counts passed and failed tests from the runners' JSON reports. */
function tally() {
	let passed = 0;
	let failed = 0;
	for (const report of VITEST_REPORTS.filter((file) => existsSync(file))) {
		const stats = JSON.parse(readFileSync(report, 'utf8'));
		passed += stats.numPassedTests;
		failed += stats.numFailedTests;
	}
	for (const report of E2E_REPORTS.filter((file) => existsSync(file))) {
		const stats = JSON.parse(readFileSync(report, 'utf8')).stats;
		passed += stats.expected;
		failed += stats.unexpected + stats.flaky;
	}
	return { passed, failed };
}

/**
 * Runs every step once the steps it comes after have passed. A step marked `alone` starts when
 * nothing else runs and holds the rest back until it ends; it prints as it goes, the others print
 * their output when they end. Resolves false at the first failure, after stopping whatever else runs.
 */
function runAll() {
	const started = Date.now();
	const passed = new Set();
	/** @type {Set<Step>} */
	const begun = new Set();
	/** @type {Set<Step>} */
	const active = new Set();
	let failed = false;
	return new Promise((resolve) => {
		const ready = (/** @type {Step} */ step) => !begun.has(step) && (step.after ?? []).every((name) => passed.has(name));
		const schedule = () => {
			for (const step of steps.filter(ready)) {
				if ([...active].some((other) => other.alone) || (step.alone && active.size > 0)) break;
				start(step);
			}
			if (active.size === 0) resolve(passed.size === steps.length);
		};
		const start = (/** @type {Step} */ step) => {
			begun.add(step);
			active.add(step);
			const buffer = collect();
			/** @type {Output} */
			const out = step.alone ? { stdio: 'inherit', write: (chunk) => process.stdout.write(chunk) } : { stdio: 'pipe', write: buffer };
			console.log(`\n▶ ${step.name}${step.alone ? '' : ' (its output follows when it ends)'}`);
			const stepStarted = Date.now();
			step
				.run(out)
				.catch((/** @type {unknown} */ error) => {
					out.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
					return false;
				})
				.then((ok) => {
					active.delete(step);
					if (failed) return;
					if (!step.alone) process.stdout.write(`\n── ${step.name} ──\n${buffer.text()}`);
					const seconds = ((Date.now() - stepStarted) / 1000).toFixed(1);
					if (!ok) {
						failed = true;
						console.error(`\n✖ ${step.name} failed (${seconds} s)`);
						for (const child of running) child.kill('SIGTERM');
						resolve(false);
						return;
					}
					passed.add(step.name);
					console.log(`✔ ${step.name} (${seconds} s; ${((Date.now() - started) / 1000).toFixed(0)} s since the start)`);
					schedule();
				});
		};
		schedule();
	});
}

rmSync(REPORTS, { recursive: true, force: true });
// Interrupted (Ctrl-C, a CI timeout): the test server's process group goes too.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.once(signal, () => {
		if (testServer?.child.pid) process.kill(-testServer.child.pid, 'SIGTERM');
		process.exit(130);
	});
}
const ok = await runAll();
await stopTestServer();
const { passed, failed } = tally();
console.log(`\n${passed} passed, ${ok ? failed : Math.max(failed, 1)} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
