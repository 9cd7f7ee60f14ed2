/**
 * Gives every test file a fresh start, as a runtime of its own would. The workers project runs its
 * files without isolation (docs/guides/testing.md: a third of the time): the files of one vitest worker
 * share a runtime, its storage and its memory. So before each file:
 * - `vi.resetModules()` makes the file import the product's modules afresh, without what an
 *   earlier file left in their memory (the isolate's channel memo and edge-cache entries);
 * - the database loses every table, view and trigger, and the R2 bucket every object; then the
 *   migrations (one batch) and the demo seed (its statements made once per runtime) make the
 *   database every file starts from; the content databases DB_1..DB_3 start migrated and empty
 *   (resetContentDatabase: dropped and migrated again only when an earlier file wrote in them); a
 *   file that wants the demo spread as `npm start` spreads it (each community in a content database,
 *   the directory apart) calls seed.ts `placeDemo` first (demo-databases.test.ts);
 * - the channels' content versions start a range of the file's own: every key of the Cache API
 *   carries its channel's content version, so an answer an earlier file cached is never this
 *   file's hit;
 * - the rate limiters count the file's keys apart from an earlier file's (the fresh seed's member
 *   ids are the same in every file): the same limiters, each key prefixed with the file's number.
 * All of it in SQL and plain calls, which hold on a busy machine: the test pool's reset() of the
 * storage sometimes left the database as it was when other processes kept the cores busy.
 * Work a file leaves running after its last test would land in the next file's database: a test
 * that starts such work waits for it (the view beacon in public-reads.test.ts).
 */
import { vi } from 'vitest';
import { env } from 'cloudflare:workers';
import { LIMITERS, type Limiter, type LimiterName } from '@/server/platform/rate-limit';
import { seedTestDatabase } from './seed';
import { dropEverything, migrateEmpty, resetContentDatabase } from './reset-database';

/** The content databases of wrangler.toml (docs/reference/databases.md): every one migrated, as DB. */
const CONTENT_DATABASES = ['DB_1', 'DB_2', 'DB_3'] as const;

const runtime = globalThis as { testFilesStarted?: number; realLimiters?: Partial<Record<LimiterName, Limiter>> };
/** This file's number in its runtime. */
const file = (runtime.testFilesStarted = (runtime.testFilesStarted ?? 0) + 1);

vi.resetModules();
await dropEverything(env.DB);
await emptyBucket(env.UPLOADS);
await migrateEmpty(env.DB, env.TEST_MIGRATIONS);
for (const name of CONTENT_DATABASES) await resetContentDatabase(env[name], env.TEST_MIGRATIONS);
await seedTestDatabase(env.DB);
await env.DB.prepare('UPDATE channels SET content_version = content_version + ?1')
	.bind(file * 1_000_000)
	.run();
countApart(`file${file}:`);
keepSentNotifications();

/** Deletes every object of the bucket. */
async function emptyBucket(bucket: R2Bucket): Promise<void> {
	for (let listed = await bucket.list(); listed.objects.length > 0; listed = await bucket.list()) {
		await bucket.delete(listed.objects.map(({ key }) => key));
	}
}

/**
 * Keeps what the product sends to the notifications queue in `globalThis.sentNotifications` (this
 * file's alone), and sends it on: the tests deliver what was sent to the consumer themselves
 * (harness.ts `deliverNotifications`), so that a message never lands in another file's database.
 */
function keepSentNotifications(): void {
	const store = globalThis as { sentNotifications?: unknown[]; realNotifications?: Queue };
	const bindings = env as unknown as { NOTIFICATIONS: Queue };
	store.realNotifications ??= bindings.NOTIFICATIONS;
	store.sentNotifications = [];
	const real = store.realNotifications;
	bindings.NOTIFICATIONS = {
		send: async (body: unknown, options?: QueueSendOptions) => {
			store.sentNotifications?.push(body);
			return real.send(body, options);
		},
		sendBatch: async (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
			for (const message of messages) store.sentNotifications?.push(message.body);
			return real.sendBatch(messages, options);
		},
	} as Queue;
}

/** Puts the rate limiters of the environment behind the file's own key prefix. */
function countApart(prefix: string): void {
	const bindings = env as unknown as Partial<Record<LimiterName, Limiter>>;
	runtime.realLimiters ??= Object.fromEntries(Object.keys(LIMITERS).map((name) => [name, bindings[name as LimiterName]]));
	for (const name of Object.keys(LIMITERS) as LimiterName[]) {
		const real = runtime.realLimiters[name];
		if (real) bindings[name] = { limit: ({ key }) => real.limit({ key: `${prefix}${key}` }) };
	}
}
