/**
 * Gives every test file a fresh start, as a runtime of its own would. The workers project runs its
 * files without isolation (docs/test-speed.md: a third of the time): the files of one vitest worker
 * share a runtime. So before each file:
 * - `reset()` deletes the data of every binding: the D1 database, the R2 bucket, the Cache API and
 *   the rate limiters' counters (the fresh seed's member ids are counted from zero again);
 * - `vi.resetModules()` makes the file import the product's modules afresh, without what an
 *   earlier file left in their memory (the isolate's channel memo and edge-cache entries);
 * - the migrations and the demo seed make the database every file starts from.
 * Work a file leaves running after its last test would land in the next file's database: a test
 * that starts such work waits for it (the view beacon in public-reads.test.ts).
 */
import { vi } from 'vitest';
import { applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { seedTestDatabase } from './seed';

await reset();
vi.resetModules();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await seedTestDatabase(env.DB);
