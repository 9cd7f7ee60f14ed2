/**
 * Seeds the local D1s with the demo communities (and, with --posts N, the benchmark channel). The
 * demo is spread as DEMO_DATABASES says (scripts/seed/demo.mjs): Starfall's English and Korean
 * communities in DB_1, the Japanese, Traditional Chinese and Pixel Farm ones in DB_2, the directory
 * DB naming where each lives (docs/reference/databases.md).
 *
 *   npm run seed                         demo data into .wrangler/state (resets the demo channels)
 *   npm run seed -- --posts 100000       also /bench/large with 100,000 posts (SQL in batches: scripts/seed/bench.mjs)
 *   npm run seed -- --posts N --resume   go on with a bench seed of N posts that stopped part-way (the demo as it is)
 *   npm run seed -- --persist-to DIR     another local state folder
 *   npm run seed -- --if-empty           only when the database has no channel yet (used by npm start)
 *   npm run seed -- --fresh              a new state folder with the demo data (a copy of the last one
 *                                        seeded, when migrations and data are the same: scripts/lib/seeded.mjs);
 *                                        with --posts, then the benchmark channel
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_STATE, ROOT, executeFile, migrate, query } from './lib/wrangler.mjs';
import { BENCH_CHANNEL, seedBench } from './seed/bench.mjs';
import { openLocalD1 } from './lib/local-d1.mjs';
import { deleteChannelsSql, demoSqlByDatabase } from './seed/demo.mjs';
import { freshDemoState } from './lib/seeded.mjs';

const { values } = parseArgs({
	options: {
		'persist-to': { type: 'string', default: DEFAULT_STATE },
		posts: { type: 'string' },
		'if-empty': { type: 'boolean', default: false },
		fresh: { type: 'boolean', default: false },
		resume: { type: 'boolean', default: false },
	},
});
const persistTo = path.resolve(values['persist-to']);

/** Writes statements to a file and runs it on the database bound as `binding`; wrangler executes a file as one batch. */
function run(name, statements, binding = 'DB') {
	const dir = path.join(ROOT, '.wrangler', 'seed');
	mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${name}.sql`);
	writeFileSync(file, statements.join('\n') + '\n');
	executeFile(file, persistTo, binding);
}

// Pages cached by the local runtime hold the data being replaced; restart a running server after this.
const dropLocalCache = () => rmSync(path.join(persistTo, 'v3', 'cache'), { recursive: true, force: true });
// A fresh folder is migrated and holds the demo data: nothing to ask.
if (values.fresh) freshDemoState(persistTo);
else migrate(persistTo);
// Only --if-empty asks what is there: each wrangler command costs seconds of CPU (a Node start and a workerd).
const count = values['if-empty'] && !values.fresh ? query('SELECT count(*) AS count FROM channels', persistTo)[0].count : 0;
if (values.resume) {
	if (!values.posts) throw new Error('--resume goes on with a bench seed: give its --posts');
} else if (values.fresh) {
	console.log(`A fresh ${path.relative(ROOT, persistTo)} with the demo communities.`);
} else if (count > 0) {
	console.log(`The local database already has ${count} channels; keeping its data.`);
} else {
	const started = Date.now();
	// The bench channel goes first when it is seeded again: rows its runs added (comments, likes)
	// may hold ids the demo's rows take.
	if (values.posts) run('bench-clear', ['PRAGMA defer_foreign_keys = true;', ...deleteChannelsSql([BENCH_CHANNEL.id], 'bench-%')]);
	for (const [binding, statements] of Object.entries(demoSqlByDatabase())) run(`demo-${binding}`, statements, binding);
	dropLocalCache();
	console.log(`Seeded the demo communities in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
if (values.posts) {
	const total = Number(values.posts);
	const started = Date.now();
	// One workerd for the whole seed; each batch of posts is its own transaction.
	const local = await openLocalD1(persistTo);
	try {
		await seedBench(local.db, total, { log: (line) => console.log(line), resume: values.resume });
	} finally {
		await local.close();
	}
	dropLocalCache();
	console.log(`Seeded /bench/large with ${total} posts in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
