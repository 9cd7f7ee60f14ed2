/**
 * Runs an operator command written in TypeScript (scripts/operator/) on the services of src/: it
 * is bundled with esbuild, resolving the src/ import alias as the Worker's build does, and run on Node.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, WRANGLER_ENV } from './wrangler.mjs';

export async function runOperator(entry, argv) {
	Object.assign(process.env, WRANGLER_ENV);
	const outfile = path.join(ROOT, '.wrangler', 'operator', `${path.basename(entry, '.ts')}.mjs`);
	await build({
		entryPoints: [path.join(ROOT, entry)],
		outfile,
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node22',
		packages: 'external',
		alias: { '@': path.join(ROOT, 'src'), '@functions': path.join(ROOT, 'functions') },
		// The Workers runtime's own module, for what the services import of it (waitUntil).
		plugins: [
			{
				name: 'cloudflare-workers',
				setup: (esbuild) =>
					esbuild.onResolve({ filter: /^cloudflare:workers$/ }, () => ({ path: path.join(ROOT, 'scripts', 'lib', 'cloudflare-workers.mjs') })),
			},
		],
		logLevel: 'warning',
	});
	const command = await import(pathToFileURL(outfile).href);
	return command.main(argv);
}
