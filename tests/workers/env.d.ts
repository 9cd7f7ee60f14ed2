import type { D1Migration } from '@cloudflare/vitest-plugin';
import type {} from '../../node_modules/@cloudflare/vitest-plugin/types/cloudflare-test';

declare global {
	namespace Cloudflare {
		interface Env {
			TEST_MIGRATIONS: D1Migration[];
			SESSION_SECRET: string;
			NOTIFICATIONS_PROBE: Queue;
		}
	}
}

export {};
