/**
 * The Worker's D1 bindings (docs/reference/databases.md): DB, the directory, and the content
 * databases DB_1, DB_2, ... bound ahead of need in wrangler.toml. A community's row in the
 * directory names the binding that holds its rows (`channels.database`); this module turns such a
 * name into the binding, and lists every bound database for the work that goes over all of them
 * (the cron's cleanup).
 */
import { env } from 'cloudflare:workers';
import { nameBinding } from './database';

/** What a binding's name looks like: DB, or DB_ and a number from 1. */
const BINDING_NAME = /^DB(?:_[1-9][0-9]*)?$/;

function isD1(value: unknown): value is D1Database {
	return typeof value === 'object' && value !== null && typeof (value as D1Database).prepare === 'function' && 'batch' in value;
}

/** The D1 database bound as `name` in `bindings` (the Worker's env). @throws when none is. */
export function databaseNamed(name: string, bindings: object = env): D1Database {
	const found: unknown = BINDING_NAME.test(name) ? Reflect.get(bindings, name) : undefined;
	if (!isD1(found)) throw new Error(`No D1 database is bound as ${name}`);
	nameBinding(found, name);
	return found;
}

/** The names of every D1 database bound in `bindings`: DB first, then DB_1, DB_2, ... */
export function boundDatabaseNames(bindings: object = env): string[] {
	return Object.keys(bindings)
		.filter((name) => BINDING_NAME.test(name) && isD1(Reflect.get(bindings, name)))
		.sort((a, b) => (a === 'DB' ? -1 : b === 'DB' ? 1 : Number(a.slice(3)) - Number(b.slice(3))));
}
