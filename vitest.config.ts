import { defineConfig } from 'vitest/config';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parse } from 'smol-toml';
import { generateVapidKeys } from './scripts/push/server.mjs';
import type {} from './tests/workers/mail-setup';

/** The import aliases of tsconfig.json, for both projects. */
const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)), '@functions': fileURLToPath(new URL('./functions', import.meta.url)) };

/**
 * The operator commands (scripts/operator/) run in the unit and commands projects as their bundle runs
 * on Node (scripts/lib/operator.mjs): `cloudflare:workers` is the same stand-in.
 */
const nodeResolve = { alias: { ...alias, 'cloudflare:workers': fileURLToPath(new URL('./scripts/lib/cloudflare-workers.mjs', import.meta.url)) } };

/** The rate limiters of wrangler.toml, so that the tests count with the deployed limits. */
interface RateLimiterConfig {
	name: string;
	namespace_id: string;
	simple: { limit: number; period: 10 | 60 };
}
const wranglerConfig = parse(readFileSync(new URL('./wrangler.toml', import.meta.url), 'utf8')) as { ratelimits?: RateLimiterConfig[] };
const ratelimits = Object.fromEntries((wranglerConfig.ratelimits ?? []).map(({ name, ...limiter }) => [name, limiter]));

/** The deployment's VAPID keys in the workers tests: a pair made for the run, as `npm start` makes one. */
const vapid = generateVapidKeys() as { publicKey: string; privateKey: string };

const migrations = await readD1Migrations(fileURLToPath(new URL('./migrations', import.meta.url)));

export default defineConfig({
	define: { __BUILD_ID__: JSON.stringify('test') },
	resolve: { alias },
	test: {
		// Vitest's default on two cores is one worker, which leaves a core idle while the workers project
		// waits on workerd; two files at a time keep both busy (one quiet run: 113 s → 64 s; docs/guides/testing.md).
		maxWorkers: Math.max(2, availableParallelism() - 1),
		projects: [
			{
				resolve: nodeResolve,
				test: {
					name: 'unit',
					include: ['tests/unit/**/*.test.ts'],
					environment: 'node',
					// Plain functions in Node: the files share workers instead of a fresh one per file (about a
					// second each on a busy machine). A file that stubs a global must not rely on another's.
					isolate: false,
					// An upper bound, not a timing: on a 2-core machine at a load average of 17 (the type check, lint and
					// the workers tests beside it, and other work), a first dynamic import of the schemas and the demo
					// seed's statements each took over vitest's default 5 s.
					testTimeout: 30_000,
				},
			},
			{
				// The backup and restore commands on local state folders (tests/commands/): each starts processes
				// and workerds (about 90 CPU-seconds in all), so `npm test` runs them in its scripts smoke, after
				// the browser tests, not beside the workers tests (docs/guides/testing.md).
				resolve: nodeResolve,
				test: {
					name: 'commands',
					include: ['tests/commands/**/*.test.ts'],
					environment: 'node',
					testTimeout: 30_000,
				},
			},
			{
				plugins: [
					// A function of `inject`: the mail stand-in's address (tests/workers/mail-setup.ts) is a binding.
					cloudflareTest(({ inject }) => ({
						// The queue consumer of the dead-letter test (tests/workers/notifications.test.ts): the product's handler.
						main: './tests/workers/queue-entry.ts',
						miniflare: {
							compatibilityDate: '2026-10-01',
							compatibilityFlags: ['nodejs_compat'],
							// DB_1..DB_3: the content databases of wrangler.toml (docs/reference/databases.md); DB_REPLICA: the lagging
							// read replica of the read-your-writes test (tests/workers/lagging-replica.ts).
							d1Databases: ['DB', 'DB_1', 'DB_2', 'DB_3', 'DB_REPLICA'],
							r2Buckets: ['UPLOADS', 'BACKUPS'],
							// The live threads' rooms (wrangler.toml): the class is exported by the tests' main Worker.
							durableObjects: { LIVE: 'LiveRoom' },
							ratelimits,
							// The product's producer; the tests keep what it sends (setup.ts) and deliver it themselves.
							// The probe queue is consumed for real, with a real dead-letter queue, as wrangler.toml's. Delivered
							// at once (no batch timeout) and moved on its first failure (no retries): the dead-letter test waits
							// on no timer (the retry and its growing delay are checked on the consumer's answer).
							queueProducers: { NOTIFICATIONS: 'community-board-notifications', NOTIFICATIONS_PROBE: 'probe-notifications' },
							queueConsumers: {
								'probe-notifications': { maxBatchSize: 5, maxBatchTimeout: 0, maxRetries: 0, deadLetterQueue: 'probe-notifications-dlq' },
								'probe-notifications-dlq': { maxBatchSize: 5, maxBatchTimeout: 0 },
							},
							bindings: {
								TEST_MIGRATIONS: migrations,
								SESSION_SECRET: 'workers-tests-session-secret-0123456789abcdef',
								VAPID_PUBLIC_KEY: vapid.publicKey,
								VAPID_PRIVATE_KEY: vapid.privateKey,
								VAPID_SUBJECT: 'mailto:operators@example.com',
								// The local push service (tests/workers/push-setup.ts) listens on this machine, as under `npm start`.
								PUSH_ALLOW_LOOPBACK: '1',
								...inject('mail').vars,
							},
						},
					})),
				],
				test: {
					name: 'workers',
					include: ['tests/workers/**/*.test.ts'],
					// One runtime for the files of a worker, which setup.ts resets before each file (its data,
					// its modules): a new runtime per file made the project three times slower (docs/guides/testing.md).
					isolate: false,
					// Seeding and the 41,000-post fixture take seconds on a busy 2-core machine.
					testTimeout: 30_000,
					hookTimeout: 60_000,
					setupFiles: ['./tests/workers/setup.ts'],
					// The local Turnstile, Web Push and mail stand-ins, reached over HTTP from workerd (spam-defence, push and email tests).
					globalSetup: ['./tests/workers/turnstile-setup.ts', './tests/workers/push-setup.ts', './tests/workers/mail-setup.ts'],
				},
			},
		],
	},
});
