/**
 * The Cloudflare Pages build's configuration (scripts/lib/pages.mjs): what Pages takes from
 * wrangler.toml, and what the companion Worker carries because Pages has no place for it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { LIMITERS, limitersOf, type Limiter, type RateLimiterService } from '@/server/platform/rate-limit';
import { pagesConfigs } from '../../scripts/lib/pages.mjs';

const WORKER = {
	name: 'board',
	main: './functions/shell/worker.ts',
	compatibility_date: '2026-10-01',
	compatibility_flags: ['nodejs_compat'],
	assets: { directory: './dist/client', binding: 'ASSETS' },
	d1_databases: [{ binding: 'DB', database_name: 'board', database_id: 'id', migrations_dir: 'migrations' }],
	r2_buckets: [{ binding: 'UPLOADS', bucket_name: 'uploads' }],
	triggers: { crons: ['17 * * * *'] },
	ratelimits: [{ name: 'RATE_LIMIT_VIEW', namespace_id: '1003', simple: { limit: 120, period: 60 } }],
	vars: { OAUTH_X_SCOPE: 'users.read' },
};

describe('the Pages configuration', () => {
	const { pages, companion } = pagesConfigs(WORKER);

	it('keeps what Pages supports and leaves out the entry, assets, cron and rate limits', () => {
		expect(Object.keys(pages).sort()).toEqual([
			'compatibility_date',
			'compatibility_flags',
			'd1_databases',
			'name',
			'pages_build_output_dir',
			'r2_buckets',
			'services',
			'vars',
		]);
		expect(pages.pages_build_output_dir).toBe('./assets');
		expect(pages.d1_databases).toEqual([{ binding: 'DB', database_name: 'board', database_id: 'id', migrations_dir: '../migrations' }]);
		expect(pages.r2_buckets).toEqual(WORKER.r2_buckets);
		expect(pages.vars).toEqual(WORKER.vars);
	});

	it('reaches the rate limiters through the companion Worker, which has them, the cron and no address', () => {
		expect(pages.services).toEqual([{ binding: 'RATE_LIMITER', service: 'board-companion' }]);
		expect(companion).toMatchObject({ name: 'board-companion', main: './index.js', workers_dev: false, preview_urls: false });
		expect(companion.ratelimits).toEqual(WORKER.ratelimits);
		expect(companion.triggers).toEqual(WORKER.triggers);
		expect(companion.d1_databases).toEqual([{ binding: 'DB', database_name: 'board', database_id: 'id' }]);
		expect(companion.r2_buckets).toEqual(WORKER.r2_buckets);
		expect(companion).not.toHaveProperty('vars');
	});

	it('sends to the notifications queue from Pages and consumes it in the companion, which has the push settings', () => {
		const worker = parse(readFileSync('wrangler.toml', 'utf8')) as typeof WORKER & {
			queues: { producers: { binding: string }[]; consumers: { queue: string; dead_letter_queue?: string }[] };
		};
		const made = pagesConfigs(worker);
		expect(made.pages.queues).toEqual({ producers: worker.queues.producers });
		expect(made.companion.queues).toEqual(worker.queues);
		expect(made.companion.queues.consumers.map(({ queue }: { queue: string }) => queue)).toEqual([
			'community-board-notifications',
			'community-board-notifications-dlq',
		]);
		expect(made.companion.queues.consumers[0].dead_letter_queue).toBe('community-board-notifications-dlq');
		expect(Object.keys(made.companion.vars ?? {}).sort()).toEqual([
			'MAIL_FROM',
			'MAIL_HTTP_URL',
			'MAIL_PROVIDER',
			'SITE_ORIGIN',
			'VAPID_PUBLIC_KEY',
			'VAPID_SUBJECT',
		]);
	});

	it('binds the live threads’ rooms from Pages to the companion, which defines the class and its migrations', () => {
		const worker = parse(readFileSync('wrangler.toml', 'utf8')) as typeof WORKER & {
			durable_objects: { bindings: { name: string; class_name: string }[] };
			migrations: { tag: string; new_sqlite_classes?: string[] }[];
		};
		const made = pagesConfigs(worker);
		expect(worker.durable_objects.bindings).toEqual([{ name: 'LIVE', class_name: 'LiveRoom' }]);
		expect(made.pages.durable_objects).toEqual({ bindings: [{ name: 'LIVE', class_name: 'LiveRoom', script_name: 'community-board-companion' }] });
		expect(made.pages).not.toHaveProperty('migrations');
		expect(made.companion.durable_objects).toEqual(worker.durable_objects);
		expect(made.companion.migrations).toEqual(worker.migrations);
		expect(worker.migrations.flatMap((migration) => migration.new_sqlite_classes ?? [])).toEqual(['LiveRoom']);
	});

	it('is made from the repository’s wrangler.toml without losing a limiter', () => {
		const worker = parse(readFileSync('wrangler.toml', 'utf8')) as typeof WORKER;
		const made = pagesConfigs(worker);
		expect(made.companion.ratelimits.map(({ name }: { name: string }) => name).sort()).toEqual(Object.keys(LIMITERS).sort());
		expect(made.pages).not.toHaveProperty('ratelimits');
		// The site origin setting reaches the Pages project with the other variables.
		expect(made.pages.vars).toHaveProperty('SITE_ORIGIN');
		expect(made.pages).not.toHaveProperty('triggers');
	});
});

describe('the rate limiters of a deployment', () => {
	const own: Limiter = { limit: async () => ({ success: true }) };

	it('are its own Rate Limiting bindings on Workers', () => {
		expect(limitersOf({ RATE_LIMIT_VIEW: own }).RATE_LIMIT_VIEW).toBe(own);
	});

	it('go through the RATE_LIMITER service on Pages, by name and key', async () => {
		const asked: string[] = [];
		const service: RateLimiterService = {
			limit: async (limiter, key) => {
				asked.push(`${limiter} ${key}`);
				return { success: key !== 'over' };
			},
		};
		const limiters = limitersOf({ RATE_LIMITER: service });
		expect(await limiters.RATE_LIMIT_WRITE?.limit({ key: 'k' })).toEqual({ success: true });
		expect(await limiters.RATE_LIMIT_STRICT?.limit({ key: 'over' })).toEqual({ success: false });
		expect(asked).toEqual(['RATE_LIMIT_WRITE k', 'RATE_LIMIT_STRICT over']);
	});

	it('are none without either, so that writes fail closed', () => {
		expect(limitersOf({})).toEqual({});
	});
});
