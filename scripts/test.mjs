/**
 * `npm test`: type check, lint, unit tests, API and data tests inside workerd against a real local
 * D1, then the browser tests in headless Chromium against the built site, and the readers' browser
 * tests against the same build laid out for Cloudflare Pages, then a smoke run of the benchmark.
 * Stops at the first failing step.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/wrangler.mjs';
import { build } from './lib/build.mjs';

const modules = (...parts) => path.join(ROOT, 'node_modules', ...parts);
const REPORTS = path.join(ROOT, '.test-reports');
const VITEST_REPORT = path.join(REPORTS, 'vitest.json');
const E2E_REPORTS = [path.join(REPORTS, 'e2e.json'), path.join(REPORTS, 'e2e-pages.json')];
const steps = [
	// `npm run check` and `npm run lint` themselves, so that CI checks what package.json says they check.
	{ name: 'type check', run: () => npm('check') },
	{ name: 'lint', run: () => npm('lint') },
	{
		name: 'unit and workers tests',
		run: () => node(modules('vitest', 'vitest.mjs'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_REPORT}`]),
	},
	{ name: 'build', run: () => (build(), true) },
	{ name: 'browser tests', run: () => node(modules('@playwright', 'test', 'cli.js'), ['test']) },
	// The readers' browser tests again, against the Cloudflare Pages build under `wrangler pages dev`.
	{ name: 'Pages smoke test', run: () => node(modules('@playwright', 'test', 'cli.js'), ['test', '--config', 'playwright.pages.config.ts']) },
	// The operator scripts the README names, each once on the demo database the Pages smoke left in
	// .wrangler/test-state, so that none can rot unnoticed (the bench smoke is next).
	{ name: 'scripts smoke', run: scriptsSmoke },
	// The benchmark on a small community (2,000 posts, a second per target, no Lighthouse), so that
	// `npm run bench` cannot rot unnoticed: it fails on any answer that is not a success.
	{ name: 'bench smoke', run: () => node(path.join(ROOT, 'scripts', 'bench.mjs'), ['--smoke']) },
];

/** `npm run <script>`, through the npm that runs this (npm test) or the one on the PATH. */
function npm(script) {
	const npmCli = process.env['npm_execpath'];
	const [command, args] = npmCli ? [process.execPath, [npmCli, 'run', '--silent', script]] : ['npm', ['run', '--silent', script]];
	const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
	return result.status === 0;
}

/**
 * Runs a Node script with the running Node; true when it succeeds.
 *
 * @param {string} script
 * @param {string[]} args
 * @param {'inherit' | 'ignore'} [stdout]
 */
function node(script, args, stdout = 'inherit') {
	const result = spawnSync(process.execPath, [script, ...args], {
		cwd: ROOT,
		stdio: ['inherit', stdout, 'inherit'],
		env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
	});
	return result.status === 0;
}

/** Each README script once, quickly: read-only or idempotent on the test database. */
function scriptsSmoke() {
	const state = ['--persist-to', path.join('.wrangler', 'test-state')];
	const runs = [
		['seed.mjs', '--if-empty', ...state],
		['search.mjs', 'reindex', ...state],
		['member.mjs', 'show', '--channel', 'starfall/global', '--member', '1005', ...state],
		['channel.mjs', 'apply', path.join('channels', 'starfall-global.json'), '--dry-run', ...state],
		['codes.mjs'],
		// The screenshots' Playwright config and journeys load (the photographs themselves are not taken).
		['screenshots.mjs', '--list'],
	];
	return runs.every(([script = '', ...args]) => {
		console.log(`  node scripts/${script} ${args.join(' ')}`);
		return node(path.join(ROOT, 'scripts', script), args, 'ignore');
	});
}

/** Counts passed and failed tests from the runners' JSON reports. */
function tally() {
	let passed = 0;
	let failed = 0;
	if (existsSync(VITEST_REPORT)) {
		const report = JSON.parse(readFileSync(VITEST_REPORT, 'utf8'));
		passed += report.numPassedTests;
		failed += report.numFailedTests;
	}
	for (const report of E2E_REPORTS.filter((file) => existsSync(file))) {
		const stats = JSON.parse(readFileSync(report, 'utf8')).stats;
		passed += stats.expected;
		failed += stats.unexpected + stats.flaky;
	}
	return { passed, failed };
}

rmSync(REPORTS, { recursive: true, force: true });
for (const step of steps) {
	console.log(`\n▶ ${step.name}`);
	const started = Date.now();
	if (!step.run()) {
		console.error(`\n✖ ${step.name} failed`);
		const { passed, failed } = tally();
		console.log(`${passed} passed, ${Math.max(failed, 1)} failed`);
		process.exit(1);
	}
	console.log(`✔ ${step.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
const { passed, failed } = tally();
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
