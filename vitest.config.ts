import { defineConfig } from 'vitest/config';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';

/** The import aliases of tsconfig.json, for both projects. */
const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)), '@functions': fileURLToPath(new URL('./functions', import.meta.url)) };

const migrations = await readD1Migrations(fileURLToPath(new URL('./migrations', import.meta.url)));

export default defineConfig({
	define: { __BUILD_ID__: JSON.stringify('test') },
	resolve: { alias },
	test: {
		projects: [
			{
				test: {
					name: 'unit',
					include: ['tests/unit/**/*.test.ts'],
					environment: 'node',
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
							bindings: { TEST_MIGRATIONS: migrations },
						},
					}),
				],
				test: {
					name: 'workers',
					include: ['tests/workers/**/*.test.ts'],
					// Seeding and the 41,000-post fixture take seconds on a busy 2-core machine.
					testTimeout: 30_000,
					hookTimeout: 60_000,
					setupFiles: ['./tests/workers/setup.ts'],
				},
			},
		],
	},
});
