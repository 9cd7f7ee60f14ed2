/** Builds the Worker and its assets (wrangler types, then astro build). */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, wrangler } from './wrangler.mjs';

/** Where the build tells `wrangler dev` (run without -c) which build to serve. */
const REDIRECT = path.join(ROOT, '.wrangler', 'deploy', 'config.json');

/**
 * Builds into dist/, or into `outDir` (a folder of the checkout, such as dist-bench/) for a run that
 * must not replace what a running `npm start` serves from dist/: serve that one with
 * serveBuild({ config: path.join(outDir, 'server', 'wrangler.json') }). The build's redirect for
 * `wrangler dev` is put back as it was, so that `npm start` keeps serving dist/.
 *
 * @param {{ outDir?: string }} [options]
 */
export function build({ outDir } = {}) {
	wrangler(['types'], { quiet: true });
	const redirect = outDir && existsSync(REDIRECT) ? readFileSync(REDIRECT) : null;
	try {
		const result = spawnSync(
			process.execPath,
			[path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build', ...(outDir ? ['--outDir', outDir] : [])],
			{
				cwd: ROOT,
				stdio: ['ignore', 'ignore', 'inherit'],
				env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
			},
		);
		if (result.status !== 0) throw new Error('astro build failed');
	} finally {
		if (outDir) {
			if (redirect) writeFileSync(REDIRECT, redirect);
			else rmSync(REDIRECT, { force: true });
		}
	}
}
