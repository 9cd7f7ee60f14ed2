/**
 * The companion Worker of the Pages build (functions/shell/companion.ts): the rate limiters that the
 * Pages project calls over RPC, and the hourly cron it carries for Pages, on the real local
 * bindings of wrangler.toml.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import Companion from '@functions/shell/companion';
import { LIMITERS, limitersOf, enforceRateLimit, type LimiterName } from '@/server/platform/rate-limit';
import { UNATTACHED_UPLOAD_TTL_MS } from '@/server/uploads/uploads';
import { AppError } from '@/server/platform/errors';
import * as images from '../fixtures/images';
import { startOfRateWindow } from './harness';

const companion = () => new Companion(createExecutionContext(), env);

describe('the companion Worker', () => {
	it('counts a key against the named limiter and refuses past its limit', async () => {
		const worker = companion();
		const { limit } = LIMITERS.RATE_LIMIT_STRICT;
		const outcomes: boolean[] = [];
		await startOfRateWindow();
		for (let i = 0; i <= limit; i += 1) outcomes.push((await worker.limit('RATE_LIMIT_STRICT', 'companion:strict')).success);
		expect(outcomes.slice(0, limit).every(Boolean)).toBe(true);
		expect(outcomes[limit]).toBe(false);
		// Another key has its own count.
		expect((await worker.limit('RATE_LIMIT_STRICT', 'companion:other')).success).toBe(true);
	});

	it('refuses a limiter that is not one of ours, and a key that is not text', async () => {
		const worker = companion();
		await expect(worker.limit('SESSION_SECRET' as LimiterName, 'k')).rejects.toThrow('Unknown rate limiter');
		await expect(worker.limit('toString' as LimiterName, 'k')).rejects.toThrow('Unknown rate limiter');
		await expect(worker.limit('RATE_LIMIT_VIEW', 42 as unknown as string)).rejects.toThrow('Unknown rate limiter');
	});

	it('serves nothing over HTTP', async () => {
		const response = await companion().fetch();
		expect(response.status).toBe(404);
		expect(await response.text()).toBe('');
	});

	it('is what a Pages deployment’s writes are counted by, through the RATE_LIMITER service', async () => {
		const limiters = limitersOf({ RATE_LIMITER: companion() });
		expect(Object.keys(limiters).sort()).toEqual(Object.keys(LIMITERS).sort());
		const subject = { channelId: 1, memberId: null, ip: '203.0.113.77' };
		await startOfRateWindow();
		for (let i = 0; i < LIMITERS.RATE_LIMIT_STRICT.limit; i += 1) await enforceRateLimit(limiters, 'signup', subject);
		const refused = await enforceRateLimit(limiters, 'signup', subject).catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(AppError);
		expect((refused as AppError).codeName).toBe('TooManyRequests');
		expect((refused as AppError).details).toEqual({ retryAfter: LIMITERS.RATE_LIMIT_STRICT.periodSeconds });
	});

	it('runs the hourly removal of unused uploads for Pages, on the same D1 and R2', async () => {
		const key = 'companion000000000001.png';
		await env.UPLOADS.put(key, images.PNG);
		await env.DB.prepare(
			"INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, created_at) VALUES (1, 1002, ?1, 'image/png', 1, ?2)",
		)
			.bind(key, Date.now() - UNATTACHED_UPLOAD_TTL_MS - 60_000)
			.run();
		const ctx = createExecutionContext();
		await new Companion(ctx, env).scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '17 * * * *' }));
		await waitOnExecutionContext(ctx);
		expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM uploads WHERE r2_key = ?1').bind(key).first('n')).toBe(0);
		expect(await env.UPLOADS.head(key)).toBeNull();
	});
});
