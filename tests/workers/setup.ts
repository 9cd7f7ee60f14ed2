/** Applies the D1 migrations and the demo seed to the test database before the tests of a file. */
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { seedTestDatabase } from './seed';

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await seedTestDatabase(env.DB);
