/**
 * The browser tests' SQL Worker (scripts/test-sql/) runs beside the site in the test servers' runtime and
 * must reach the very databases the site reads: the same bindings with the same ids, so that Miniflare
 * gives both Workers the same database objects (scripts/lib/sql-endpoint.mjs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';

interface D1Binding {
	binding: string;
	database_id: string;
}

const databasesOf = (file: string): { binding: string; id: string }[] =>
	((parse(readFileSync(file, 'utf8')) as { d1_databases?: D1Binding[] }).d1_databases ?? []).map(({ binding, database_id }) => ({
		binding,
		id: database_id,
	}));

describe('the browser tests’ SQL Worker', () => {
	it('is bound to every D1 of the site, by the same ids', () => {
		const site = databasesOf('wrangler.toml');
		expect(site.length).toBeGreaterThan(1);
		expect(databasesOf('scripts/test-sql/wrangler.toml')).toEqual(site);
	});
});
