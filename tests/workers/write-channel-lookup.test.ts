/**
 * A write's read of the channel's row (src/server/platform/d1-session.ts channelLookupStart): after
 * the isolate's previous write dropped its copy (functions/api/middleware/channel.ts), every write of
 * ROUND_TRIP_BUDGET.oneTrip (a comment, a like, a save) reads the row again from a replica, at the
 * newer of the writer's bookmark and the newest write the isolate served, and sends only its batch
 * to the primary: one primary round trip, not two. Seen through the bench's latency model
 * (scripts/lib/d1-latency.mjs), which tells each round trip's kind; its delays here are 0 ms, so
 * nothing waits. Reads and moderators' reads keep the row in their own session. And a replica's row
 * may predate a move's mark: the write's own check (src/server/databases/write-guard.ts) refuses it
 * on the primary, over the lagging replica of tests/workers/lagging-replica.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { env, withEnv } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { LATENCY_HEADER, latencyWorker } from '../../scripts/lib/d1-latency.mjs';
import { api } from '@functions/api/app';
import { channelLookupStart, newerBookmark } from '@/server/platform/d1-session';
import { CommunityMoving } from '@/lib/result-codes';
import { call, freshPost, memberApi, ORIGIN, signIn } from './harness';
import { ROUND_TRIP_BUDGET } from '../round-trip-budget';
import { installLaggingReplica, startReplica } from './lagging-replica';

const MEMBER = memberApi();
const BOOKMARK_A = '00000001-00000002-00000003-0123456789abcdef0123456789abcdef';
const BOOKMARK_B = '00000001-00000002-00000004-0123456789abcdef0123456789abcdef';

/** The API wrapped in the latency model: each answer says how many of its round trips went to the primary and to a replica. */
const modelled = latencyWorker(
	{ fetch: (request: Request, given: { DB: D1Database }, ctx: ExecutionContext) => api.fetch(request, given as Env, ctx) },
	withEnv,
);

async function send(method: string, path: string, cookie: string, body?: unknown): Promise<{ status: number; primary: number; replica: number }> {
	const ctx = createExecutionContext();
	const request = new Request(`${MEMBER}${path}`, {
		method,
		headers: { origin: ORIGIN, cookie, 'content-type': 'application/json', [LATENCY_HEADER]: '0/0', 'cf-connecting-ip': '10.77.0.1' },
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
	const response = await modelled.fetch(request, env, ctx);
	await response.arrayBuffer();
	await waitOnExecutionContext(ctx);
	const [, primary = '-1', replica = '-1'] = /primary (\d+), replica (\d+)/.exec(response.headers.get('Server-Timing') ?? '') ?? [];
	return { status: response.status, primary: Number(primary), replica: Number(replica) };
}

describe("a write's read of the channel's row", () => {
	it("goes to a replica after the isolate's previous write: every one-trip write after a comment is one primary round trip", async () => {
		const postId = await freshPost();
		const cookie = await signIn(1020);
		// The first write may find the isolate's copy of the row; it drops it.
		expect((await send('POST', `/posts/${postId}/comments`, cookie, { content: 'first' })).status).toBe(200);
		// Each next write reads the row again: from a replica, then its batch on the primary.
		const routes = Object.keys(ROUND_TRIP_BUDGET.oneTrip);
		expect(routes.length).toBeGreaterThanOrEqual(5);
		for (const route of routes) {
			const [method = '', path = ''] = route.replace(' /v1', ' ').split(' ');
			const body = path.endsWith('/comments') ? { content: `Again: ${route}` } : undefined;
			expect([route, await send(method, path.replace(':id', String(postId)), cookie, body)]).toEqual([
				route,
				{ status: 200, primary: ROUND_TRIP_BUDGET.oneTripPrimary, replica: 1 },
			]);
		}
	});

	it("starts at the newer of the writer's bookmark and the isolate's newest write, or the nearest replica; reads and moderators' reads keep their own session", () => {
		const write = new Request(`${MEMBER}/posts/1/comments`, { method: 'POST' });
		const withCookie = (bookmark: string) =>
			new Request(`${MEMBER}/posts/1/comments`, { method: 'POST', headers: { cookie: `__Host-d1-bookmark=${bookmark}` } });
		expect(channelLookupStart(write, 'DB', null)).toBe('first-unconstrained');
		expect(channelLookupStart(write, 'DB', BOOKMARK_A)).toBe(BOOKMARK_A);
		expect(channelLookupStart(withCookie(BOOKMARK_B), 'DB', BOOKMARK_A)).toBe(BOOKMARK_B);
		expect(channelLookupStart(withCookie(BOOKMARK_A), 'DB', BOOKMARK_B)).toBe(BOOKMARK_B);
		// The cookie's bookmark is another database's: not this one's start.
		expect(channelLookupStart(withCookie(`DB_1~${BOOKMARK_B}`), 'DB', null)).toBe('first-unconstrained');
		expect(channelLookupStart(withCookie(`DB_1~${BOOKMARK_B}`), 'DB_1', BOOKMARK_A)).toBe(BOOKMARK_B);
		expect(channelLookupStart(new Request(`${MEMBER}/posts/1`), 'DB', BOOKMARK_A)).toBeNull();
		expect(channelLookupStart(new Request(`${ORIGIN}/admin/v1/starfall/global/reports`), 'DB', BOOKMARK_A)).toBeNull();
		expect(newerBookmark(BOOKMARK_A, BOOKMARK_B)).toBe(BOOKMARK_B);
		expect(newerBookmark(BOOKMARK_B, BOOKMARK_A)).toBe(BOOKMARK_B);
		expect(newerBookmark(null, BOOKMARK_A)).toBe(BOOKMARK_A);
		expect(newerBookmark(null, null)).toBeNull();
	});

	it("is refused by its own check when the replica's row predates a move's mark, and writes nothing", async () => {
		const postId = await freshPost();
		const cookie = await signIn(1021);
		await startReplica();
		const replica = installLaggingReplica();
		try {
			// The isolate's copy of the row is old: the write reads it again, from the replica.
			vi.useFakeTimers({ toFake: ['Date'] });
			vi.setSystemTime(Date.now() + 10_000);
			// The move marks the primary's row; the replica has not applied it.
			await env.DB.prepare("UPDATE channels SET moving_to = 'DB_1' WHERE id = 1").run();
			expect(replica.lag()).toBeGreaterThan(0);
			const comments = () => env.DB.prepare('SELECT count(*) AS n FROM comments WHERE post_id = ?1').bind(postId).first<number>('n');
			const before = await comments();
			const refused = await call(`${MEMBER}/posts/${postId}/comments`, { method: 'POST', cookie, body: { content: 'On an old row' } });
			expect([refused.status, refused.code]).toEqual([503, CommunityMoving.code]);
			expect(replica.reads.replica, 'the row came from the replica').toBeGreaterThan(0);
			expect(await comments()).toBe(before);
		} finally {
			vi.useRealTimers();
			await env.DB.prepare('UPDATE channels SET moving_to = NULL WHERE id = 1').run();
			replica.remove();
		}
	});
});
