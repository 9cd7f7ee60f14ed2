/**
 * The workers tests' main Worker: the notifications consumer of the product
 * (src/server/notifications/consumer.ts), which the probe queue of vitest.config.ts delivers to
 * with real retries and a real dead-letter queue.
 */
import { consumeNotifications } from '@/server/notifications/consumer';
import { pushSetupFromEnv } from '@/server/notifications/push';
import { emailSetupFromEnv } from '@/server/notifications/email';

// The live threads' rooms (vitest.config.ts durableObjects), the product's class.
export { LiveRoom } from '@/server/live/live-room';

export default {
	async queue(batch, env) {
		await consumeNotifications(batch, env.DB, pushSetupFromEnv(env), emailSetupFromEnv(env));
	},
} satisfies ExportedHandler<Env>;
