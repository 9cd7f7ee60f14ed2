/** Builds the Worker and its assets (wrangler types, then astro build). */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, wrangler } from './wrangler.mjs';

export function build() {
	wrangler(['types'], { quiet: true });
	const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
		cwd: ROOT,
		stdio: ['ignore', 'ignore', 'inherit'],
		env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
	});
	if (result.status !== 0) throw new Error('astro build failed');
}
