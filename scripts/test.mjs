/**
 * `npm test`: type check, lint, unit tests, API and data tests inside workerd against a real local
 * D1, then the browser tests in headless Chromium against the built site. Stops at the first
 * failing step.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lib/wrangler.mjs';
import { build } from './lib/build.mjs';

const modules = (...parts) => path.join(ROOT, 'node_modules', ...parts);
const steps = [
	{ name: 'type check', run: () => node(modules('astro', 'bin', 'astro.mjs'), ['check', '--minimumSeverity', 'warning']) },
	{ name: 'lint', run: () => node(modules('eslint', 'bin', 'eslint.js'), ['.', '--max-warnings', '0']) },
	{ name: 'unit and workers tests', run: () => node(modules('vitest', 'vitest.mjs'), ['run']) },
	{ name: 'build', run: () => (build(), true) },
	{ name: 'browser tests', run: () => node(modules('@playwright', 'test', 'cli.js'), ['test']) },
];

function node(script, args) {
	const result = spawnSync(process.execPath, [script, ...args], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
	return result.status === 0;
}

for (const step of steps) {
	console.log(`\n▶ ${step.name}`);
	const started = Date.now();
	if (!step.run()) {
		console.error(`\n✖ ${step.name} failed`);
		process.exit(1);
	}
	console.log(`✔ ${step.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
