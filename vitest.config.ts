import { defineConfig } from 'vitest/config';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parse } from 'smol-toml';

/** The import aliases of tsconfig.json, for both projects. */
const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)), '@functions': fileURLToPath(new URL('./functions', import.meta.url)) };

/** The rate limiters of wrangler.toml, so that the tests count with the deployed limits. */
interface RateLimiterConfig {
	name: string;
	namespace_id: string;
	simple: { limit: number; period: 10 | 60 };
}
const wranglerConfig = parse(readFileSync(new URL('./wrangler.toml', import.meta.url), 'utf8')) as { ratelimits?: RateLimiterConfig[] };
const ratelimits = Object.fromEntries((wranglerConfig.ratelimits ?? []).map(({ name, ...limiter }) => [name, limiter]));

const migrations = await readD1Migrations(fileURLToPath(new URL('./migrations', import.meta.url)));

export default defineConfig({
	define: { __BUILD_ID__: JSON.stringify('test') },
	resolve: { alias },
	test: {
		// Vitest's default on two cores is one worker, which leaves a core idle while the workers project
		// waits on workerd; two files at a time keep both busy (one quiet run: 113 s → 64 s; docs/test-speed.md).
		maxWorkers: Math.max(2, availableParallelism() - 1),
		projects: [
			{
				test: {
					name: 'unit',
					include: ['tests/unit/**/*.test.ts'],
					environment: 'node',
					// Plain functions in Node: the files share workers instead of a fresh one per file (about a
					// second each on a busy machine). A file that stubs a global must not rely on another's.
					isolate: false,
				},
			},
			{
				plugins: [
					cloudflareTest({
						miniflare: {
							compatibilityDate: '2026-10-01',
							compatibilityFlags: ['nodejs_compat'],
							d1Databases: ['DB'],
							r2Buckets: ['UPLOADS'],
							ratelimits,
							bindings: { TEST_MIGRATIONS: migrations, SESSION_SECRET: 'workers-tests-session-secret-0123456789abcdef' },
						},
					}),
				],
				test: {
					name: 'workers',
					include: ['tests/workers/**/*.test.ts'],
					// One runtime for the files of a worker, which setup.ts resets before each file (its data,
					// its modules): a new runtime per file made the project three times slower (docs/test-speed.md).
					isolate: false,
					// Seeding and the 41,000-post fixture take seconds on a busy 2-core machine.
					testTimeout: 30_000,
					hookTimeout: 60_000,
					setupFiles: ['./tests/workers/setup.ts'],
					// The local Turnstile stand-in, reached over HTTP from workerd (tests/workers/spam-defence.test.ts).
					globalSetup: ['./tests/workers/turnstile-setup.ts'],
				},
			},
		],
	},
});
