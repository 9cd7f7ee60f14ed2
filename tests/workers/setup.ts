/**
 * Gives every test file a fresh start, as a runtime of its own would. The workers project runs its
 * files without isolation (docs/guides/testing.md: a third of the time): the files of one vitest worker
 * share a runtime, its storage and its memory. So before each file:
 * - `vi.resetModules()` makes the file import the product's modules afresh, without what an
 *   earlier file left in their memory (the isolate's channel memo and edge-cache entries);
 * - the database loses every table, view and trigger, and the R2 bucket every object; then the
 *   migrations and the demo seed make the database every file starts from;
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
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { LIMITERS, type Limiter, type LimiterName } from '@/server/platform/rate-limit';
import { seedTestDatabase } from './seed';

const runtime = globalThis as { testFilesStarted?: number; realLimiters?: Partial<Record<LimiterName, Limiter>> };
/** This file's number in its runtime. */
const file = (runtime.testFilesStarted = (runtime.testFilesStarted ?? 0) + 1);

vi.resetModules();
await dropEverything(env.DB);
await emptyBucket(env.UPLOADS);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await seedTestDatabase(env.DB);
await env.DB.prepare('UPDATE channels SET content_version = content_version + ?1')
	.bind(file * 1_000_000)
	.run();
countApart(`file${file}:`);
keepSentNotifications();

/**
 * Drops every view, trigger and table an earlier file created, in one batch, the newest first. A
 * full-text table takes its shadow tables with it. Dropping a table deletes its rows and checks each
 * against the foreign keys that refer to it; a column with no index of its own (comments.parent_id)
 * would make that a scan a row, so each such column gets an index first.
 */
async function dropEverything(db: Db): Promise<void> {
	const { results } = await db
		.prepare(
			"SELECT type, name, sql FROM sqlite_master WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY rowid DESC",
		)
		.all<{ type: string; name: string; sql: string | null }>();
	if (results.length === 0) return;
	const shadowPrefixes = results.filter(({ sql }) => sql?.startsWith('CREATE VIRTUAL')).map(({ name }) => `${name}_`);
	const objects = results.filter(({ type, name }) => type !== 'table' || !shadowPrefixes.some((prefix) => name.startsWith(prefix)));
	const tables = objects.filter(({ type, sql }) => type === 'table' && !sql?.startsWith('CREATE VIRTUAL')).map(({ name }) => name);
	const keys = await db.batch<{ table: string; from: string }>(
		tables.map((table) => db.prepare(`SELECT ?1 AS "table", "from" FROM pragma_foreign_key_list(?1)`).bind(table)),
	);
	const indexes = keys.flatMap(({ results: columns }) =>
		columns.map(({ table, from }) => db.prepare(`CREATE INDEX IF NOT EXISTS "reset_${table}_${from}" ON "${table}" ("${from}")`)),
	);
	const drops = objects.map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS "${name}"`));
	await db.batch([db.prepare('PRAGMA defer_foreign_keys = on'), ...indexes, ...drops]);
}

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
