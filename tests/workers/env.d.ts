import type { D1Migration } from '@cloudflare/vitest-plugin';
import type {} from '../../node_modules/@cloudflare/vitest-plugin/types/cloudflare-test';

declare global {
	namespace Cloudflare {
		interface Env {
			TEST_MIGRATIONS: D1Migration[];
			SESSION_SECRET: string;
			NOTIFICATIONS_PROBE: Queue;
			/** The lagging replica's database (tests/workers/lagging-replica.ts). */
			DB_REPLICA: D1Database;
		}
	}
}

export {};
