/**
 * The companion Worker of a Cloudflare Pages deployment (`npm run build:pages` bundles it into
 * dist-pages/companion/ with its own configuration). Pages has neither Rate Limiting bindings nor
 * Cron Triggers, so this small Worker carries both for it:
 *
 * - the limiters of wrangler.toml, which the Pages project calls over its RATE_LIMITER service
 *   binding (RPC, `limitersOf` in src/server/platform/rate-limit.ts); a service binding runs it in
 *   the caller's Cloudflare location, where the limiters count anyway;
 * - the hourly removal of unused uploads and old notifications (functions/shell/scheduled.ts), on the same D1 and R2;
 * - the notifications queue's consumer (src/server/notifications/consumer.ts): Pages Functions can
 *   send to a queue but not consume one;
 * - the live threads' Durable Object class (src/server/live/live-room.ts), which the Pages project
 *   binds as LIVE with this Worker as its script_name: Pages cannot define one.
 *
 * The Workers deployment does not use it: functions/shell/worker.ts has the bindings and the cron itself.
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import { LIMITERS, type LimiterName, type RateLimiterService } from '@/server/platform/rate-limit';
import { runScheduled } from './scheduled';
import { consumeNotifications } from '@/server/notifications/consumer';
import { pushSetupFromEnv } from '@/server/notifications/push';
import { emailSetupFromEnv } from '@/server/notifications/email';
import { database } from '@/server/platform/database';

export { LiveRoom } from '@/server/live/live-room';

export default class Companion extends WorkerEntrypoint<Env> implements RateLimiterService {
	/** Counts `key` against the limiter `limiter`; a name that is not one of ours is refused. */
	async limit(limiter: LimiterName, key: string): Promise<{ success: boolean }> {
		if (typeof limiter !== 'string' || !Object.hasOwn(LIMITERS, limiter) || typeof key !== 'string') throw new TypeError('Unknown rate limiter');
		const { success } = await this.env[limiter].limit({ key });
		return { success };
	}

	/** Nothing is served over HTTP: it has no route and no workers.dev address, and answers 404. */
	override async fetch(): Promise<Response> {
		return new Response(null, { status: 404 });
	}

	override async scheduled(controller: ScheduledController): Promise<void> {
		await runScheduled(controller, this.env, this.ctx);
	}

	override async queue(batch: MessageBatch): Promise<void> {
		await consumeNotifications(batch, database(this.env.DB), pushSetupFromEnv(this.env), emailSetupFromEnv(this.env));
	}
}
