/**
 * `node scripts/e2e-cpu.mjs [--label NAME] [--args "FLAGS"] [--out FILE] -- [playwright test options and files]`:
 * the CPU-seconds of the whole process tree under `playwright test` (the runner and its workers,
 * Chromium, the test server), sampled from /proc until it ends, split by who spent them: Chromium by
 * process type (the browser's main process, renderers, the gpu-process, utility processes such as the
 * network service, the zygote), workerd (the test server's runtime), the runner's node processes and
 * the rest (wrangler's node, the server script, esbuild). `--args` adds Chromium switches for this run
 * (E2E_CHROMIUM_ARGS, playwright.config.ts), so a candidate and its baseline differ in nothing else.
 *
 * On a shared machine compare CPU-seconds, not wall time, and run baseline and candidate back to back
 * (alternating, two pairs at least) under the browser tests' lock, e.g.
 * `flock /tmp/e2e.lock env E2E_PORT=8710 node scripts/e2e-cpu.mjs --label base -- tests/e2e/search.spec.ts`.
 * `--out FILE` appends the run as a line of JSON. Each process counts its last sample (every 200 ms),
 * so a process that ends between two samples loses at most its last 200 ms: the same for both sides.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { processTimes } from './lib/cpu.mjs';

const { values, positionals } = parseArgs({
	options: { label: { type: 'string', default: 'run' }, args: { type: 'string', default: '' }, out: { type: 'string' } },
	allowPositionals: true,
});

const ROOT = path.resolve(import.meta.dirname, '..');
const SAMPLE_MS = 200;

function commandLine(pid) {
	try {
		const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
		// Chromium's zygote children rewrite their title: one string, the switches apart by spaces.
		return argv.length <= 2 ? argv.join(' ').split(' ') : argv;
	} catch {
		return [];
	}
}

/** Who a process is: `chromium:TYPE`, `workerd`, `runner` or `other`. */
function kindOf(pid, name) {
	const argv = commandLine(pid);
	// By the program's own name: a path such as the checkout's may hold "chrome" too.
	if (/^chrom/.test(name) || /^(chromium|chrome|headless_shell)/.test(path.basename(argv[0] ?? ''))) {
		const type = argv.find((arg) => arg.startsWith('--type='))?.slice('--type='.length) ?? 'browser';
		const service = argv
			.find((arg) => arg.startsWith('--utility-sub-type='))
			?.split('.')
			.at(-2);
		return `chromium:${type === 'utility' && service ? `utility(${service})` : type}`;
	}
	if (name === 'workerd') return 'workerd';
	if (argv.some((arg) => /playwright/.test(arg))) return 'runner';
	return 'other';
}

const seen = new Map();
const started = Date.now();
const loadBefore = loadavg()[0];
const child = spawn(path.join(ROOT, 'node_modules/.bin/playwright'), ['test', ...positionals], {
	cwd: ROOT,
	stdio: ['ignore', 'inherit', 'inherit'],
	env: { ...process.env, E2E_CHROMIUM_ARGS: values.args },
});

function sample() {
	for (const [pid, time] of processTimes(child.pid)) {
		const known = seen.get(pid);
		const ms = time.userMs + time.systemMs;
		// A child just forked still carries its parent's name and command line: classify again each time.
		// An ended process (a zombie until its parent reaps it) has no command line left: keep what it was.
		const kind = known && commandLine(pid).join('') === '' ? known.kind : kindOf(pid, time.name);
		if (known) Object.assign(known, { kind, ms: Math.max(known.ms, ms) });
		else seen.set(pid, { kind, ms });
	}
}
const timer = setInterval(sample, SAMPLE_MS);
let peakLoad = loadBefore;
const loadTimer = setInterval(() => (peakLoad = Math.max(peakLoad, loadavg()[0])), 5000);

const code = await new Promise((resolve) => child.on('exit', (exitCode) => resolve(exitCode ?? 1)));
clearInterval(timer);
clearInterval(loadTimer);

const byKind = {};
for (const { kind, ms } of seen.values()) byKind[kind] = (byKind[kind] ?? 0) + ms / 1000;
const sum = (filter) => Object.entries(byKind).reduce((total, [kind, seconds]) => total + (filter(kind) ? seconds : 0), 0);
const result = {
	label: values.label,
	args: values.args,
	files: positionals,
	exit: code,
	wallSeconds: Math.round((Date.now() - started) / 100) / 10,
	load: [Math.round(loadBefore * 10) / 10, Math.round(peakLoad * 10) / 10, Math.round(loadavg()[0] * 10) / 10],
	total: sum(() => true),
	chromium: sum((kind) => kind.startsWith('chromium')),
	workerd: sum((kind) => kind === 'workerd'),
	runner: sum((kind) => kind === 'runner'),
	other: sum((kind) => kind === 'other'),
	processes: seen.size,
	byKind,
};
const round = (value) => Math.round(value * 10) / 10;
console.log(
	`\n${result.label}: exit ${code}, ${result.wallSeconds} s, load ${result.load.join(' / ')}; CPU-s total ${round(result.total)}: ` +
		`chromium ${round(result.chromium)}, workerd ${round(result.workerd)}, runner ${round(result.runner)}, other ${round(result.other)}`,
);
for (const [kind, seconds] of Object.entries(byKind).sort((a, b) => b[1] - a[1])) console.log(`  ${round(seconds).toFixed(1).padStart(7)}  ${kind}`);
if (values.out) appendFileSync(values.out, `${JSON.stringify(result)}\n`);
process.exit(code);
