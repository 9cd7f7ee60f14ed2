/**
 * The local databases of `npm start`, the tests' servers and the bench are migrated in two wrangler
 * commands (scripts/lib/wrangler.mjs `migrate`), not one per migration as `wrangler d1 migrations
 * apply --local` does: the SQL of the missing migrations, in order, each followed by its row in
 * d1_migrations as wrangler writes it. And the seeded demo database is copied instead of seeded again
 * (scripts/lib/seeded.mjs), which holds only while the seed writes the same rows at any time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pendingMigrationsSql } from '../../scripts/lib/wrangler.mjs';
import { demoSql } from '../../scripts/seed/demo.mjs';

const MIGRATIONS = path.join(import.meta.dirname, '..', '..', 'migrations');
const files = readdirSync(MIGRATIONS)
	.filter((name) => name.endsWith('.sql'))
	.sort();
const row = (name: string) => `INSERT INTO d1_migrations (name) values ('${name}');`;

afterEach(() => {
	vi.useRealTimers();
});

describe('the local migrations', () => {
	it('are every file, in the order of their names, each followed by its row in d1_migrations', () => {
		const sql = pendingMigrationsSql(new Set()) ?? '';
		expect(files.length).toBeGreaterThan(1);
		let from = 0;
		for (const name of files) {
			const at = sql.indexOf(readFileSync(path.join(MIGRATIONS, name), 'utf8'), from);
			expect(at, `${name} in order`).toBeGreaterThanOrEqual(from);
			const recorded = sql.indexOf(row(name), at);
			expect(recorded, `${name}'s row after its statements`).toBeGreaterThan(at);
			from = recorded;
		}
	});

	it('leave out what the database has, and are nothing when it has them all', () => {
		const last = files.at(-1) ?? '';
		const sql = pendingMigrationsSql(new Set(files.slice(0, -1))) ?? '';
		expect(sql).toBe(`${readFileSync(path.join(MIGRATIONS, last), 'utf8')}\n${row(last)}\n`);
		expect(pendingMigrationsSql(new Set(files))).toBeNull();
	});
});

describe('the demo seed', () => {
	it('writes the same rows whatever the date, so a copy of it is the same database', () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
		const first = demoSql().join('\n');
		vi.setSystemTime(new Date('2031-07-15T12:34:56Z'));
		expect(demoSql().join('\n')).toBe(first);
	});
});
