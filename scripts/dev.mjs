/**
 * `npm run dev`: prepares the local D1 like `npm start`, then runs Astro's dev server (live reload)
 * with the Worker in workerd through the Cloudflare Vite plugin, on the same .wrangler/state.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, WRANGLER_ENV, wrangler } from './lib/wrangler.mjs';

wrangler(['types'], { quiet: true });
const seeded = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'seed.mjs'), '--if-empty'], { cwd: ROOT, stdio: 'inherit' });
if (seeded.status !== 0) process.exit(seeded.status ?? 1);
const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'dev'], {
	cwd: ROOT,
	stdio: 'inherit',
	env: { ...process.env, ...WRANGLER_ENV },
});
child.on('exit', (code) => process.exit(code ?? 0));
