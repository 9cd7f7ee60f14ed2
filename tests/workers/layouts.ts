/**
 * The services' tests in both layouts of a deployment (docs/reference/databases.md): the demo in one
 * database (DB, as setup.ts seeds every file), and spread as `npm start` spreads it (seed.ts
 * `placeDemo`: starfall/global and starfall/kr in DB_1, the others in DB_2, the directory apart), where
 * the request resolves each community through the directory and every row a test writes takes an id
 * in its content database's range (src/server/databases/ids.ts), not range 0.
 *
 *   describe.each(LAYOUTS)('$name', (layout) => {
 *     inLayout(layout);
 *     describe('…', () => { … communityDb() … });
 *   });
 *
 * The layouts run in that order (one database first: placing the demo leaves the directory without
 * it). A test reads and writes starfall/global's and starfall/kr's rows through `communityDb()`, never
 * `env.DB` (the directory once the demo is spread).
 */
import { beforeAll } from 'vitest';
import { env } from 'cloudflare:workers';
import { DEMO_CHANNELS, DEMO_DATABASES } from '../../scripts/seed/demo.mjs';
import { forgetChannel } from '@/server/channels/channels';
import { idRange, type IdTable } from '@/server/databases/ids';
import { LIMITERS, type Limiter, type LimiterName } from '@/server/platform/rate-limit';
import { placeDemo } from './seed';

export interface Layout {
	name: string;
	/** Where each demo community goes (seed.ts `placeDemo`), or null: the one database setup.ts seeded. */
	placement: Readonly<Record<number, string>> | null;
}

export const LAYOUTS: readonly Layout[] = [
	{ name: 'in one database', placement: null },
	{ name: 'spread over DB_1 and DB_2', placement: DEMO_DATABASES },
];

/** The binding of starfall/global and starfall/kr in the layout in force. */
let current = 'DB';

/** The database that holds starfall/global's and starfall/kr's rows in the layout in force. */
export const communityDb = (): D1Database => Reflect.get(env, current) as D1Database;

/** Whether `id`, a new row's of `table` in starfall/global or starfall/kr, is in the range of their database in the layout in force. */
export const inCommunityRange = (table: IdTable, id: number): boolean => {
	const { lo, hi } = idRange(current, table);
	return id > lo && id <= hi;
};

/**
 * Lays the demo out as `layout` says before the describe's tests (a `beforeAll` of the describe it is
 * called in). Spreading it starts the demo afresh in the content databases, the cache keys and the
 * rate limiters' counts apart from the first layout's: the content versions move on (every cache key
 * carries its channel's), the limiters count under a prefix of the layout's (the same members write
 * in both), and the isolate forgets where it found each community.
 */
export function inLayout(layout: Layout): void {
	beforeAll(async () => {
		if (layout.placement) {
			await placeDemo(layout.placement, 500_000);
			countApart('spread:');
			for (const { domain, slug } of DEMO_CHANNELS) forgetChannel(domain, slug);
		}
		current = layout.placement?.[1] ?? 'DB';
	});
}

/** Puts the rate limiters of the environment (setup.ts's, already the file's own) behind a further key prefix. */
function countApart(prefix: string): void {
	const bindings = env as unknown as Partial<Record<LimiterName, Limiter>>;
	for (const name of Object.keys(LIMITERS) as LimiterName[]) {
		const inner = bindings[name];
		if (inner) bindings[name] = { limit: ({ key }) => inner.limit({ key: `${prefix}${key}` }) };
	}
}
