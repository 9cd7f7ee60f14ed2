/**
 * `npm run screenshots`: photographs the reader's and the writer's journeys (tests/e2e/journeys.ts)
 * in every demo community at 390×844 and 1440×900, in the light and the dark theme, for review.
 * Builds the site first when dist/ is missing or older than the sources, then runs
 * playwright.screenshots.config.ts, which serves the build as the browser tests do (a fresh local
 * D1 with the demo data, the local identity provider) on port 8796 (SCREENSHOTS_PORT moves it).
 * The PNGs go to screenshots/<domain>-<slug>/<size>-<theme>-<NN>-<step>.png (git-ignored), replaced
 * on each run. A dark shot is dark: the run fails on one whose computed background is lighter than
 * its text (tests/screenshots/journeys.shots.ts); the site's own directory, light in every theme,
 * is in the light walk only. Not part of `npm test`. Arguments are passed to Playwright (`-g starfall/kr`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/wrangler.mjs';
import { build } from './lib/build.mjs';

const OUT = path.join(ROOT, 'screenshots');
const BUILT = path.join(ROOT, 'dist', 'server', 'wrangler.json');
const SOURCES = ['src', 'functions', 'public', 'astro.config.mjs', 'wrangler.toml', 'package-lock.json'];

/** The latest modification time under `file` (a file or a folder). */
function newest(file) {
	if (!existsSync(file)) return 0;
	const stat = statSync(file);
	if (!stat.isDirectory()) return stat.mtimeMs;
	return Math.max(stat.mtimeMs, ...readdirSync(file).map((name) => newest(path.join(file, name))));
}

if (!existsSync(BUILT) || Math.max(...SOURCES.map((source) => newest(path.join(ROOT, source)))) > statSync(BUILT).mtimeMs) {
	console.log('Building the site…');
	build();
}
rmSync(OUT, { recursive: true, force: true });
const cli = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const run = spawnSync(process.execPath, [cli, 'test', '--config', 'playwright.screenshots.config.ts', ...process.argv.slice(2)], {
	cwd: ROOT,
	stdio: 'inherit',
	env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});

/** The PNGs under `folder`. */
function pngs(folder) {
	if (!existsSync(folder)) return [];
	return readdirSync(folder, { recursive: true }).filter((name) => String(name).endsWith('.png'));
}
const files = pngs(OUT);
const folders = existsSync(OUT) ? readdirSync(OUT).filter((name) => statSync(path.join(OUT, name)).isDirectory()) : [];
console.log(`\n${files.length} screenshots in ${path.relative(process.cwd(), OUT) || OUT}/: ${folders.map((name) => `${name}/`).join(', ')}`);
console.log(
	"Each named <size>-<theme>-<NN>-<step>.png: phone is 390×844, desktop 1440×900; light and dark themes (the directory, the site's own page, light only).",
);
process.exit(run.status ?? 1);
