/**
 * A write's read of the channel's row (src/server/platform/d1-session.ts channelLookupStart): after
 * the isolate's previous write dropped its copy (functions/api/middleware/channel.ts), a comment and
 * a like read the row again from a replica, at the bookmark of the newest write the isolate served,
 * and send only their batch to the primary: one primary round trip, not two. Seen through the
 * bench's latency model (scripts/lib/d1-latency.mjs), which tells each round trip's kind; its delays
 * here are 0 ms, so nothing waits. Reads and moderators' reads keep the row in their own session.
 */
import { describe, expect, it } from 'vitest';
import { env, withEnv } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { LATENCY_HEADER, latencyWorker } from '../../scripts/lib/d1-latency.mjs';
import { api } from '@functions/api/app';
import { channelLookupStart, newerBookmark } from '@/server/platform/d1-session';
import { freshPost, memberApi, ORIGIN, signIn } from './harness';

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

describe('a write’s read of the channel’s row', () => {
	it('goes to a replica after the isolate’s previous write: a comment and a like after a comment are one primary round trip each', async () => {
		const postId = await freshPost();
		const cookie = await signIn(1020);
		// The first write may find the isolate's copy of the row; it drops it.
		expect((await send('POST', `/posts/${postId}/comments`, cookie, { content: 'first' })).status).toBe(200);
		// Each next write reads the row again: from a replica, then its batch on the primary.
		expect(await send('POST', `/posts/${postId}/comments`, cookie, { content: 'second' })).toEqual({ status: 200, primary: 1, replica: 1 });
		expect(await send('PUT', `/posts/${postId}/like`, cookie)).toEqual({ status: 200, primary: 1, replica: 1 });
	});

	it('starts at the newest write the isolate served, or the nearest replica; reads and moderators’ reads keep their own session', () => {
		const write = new Request(`${MEMBER}/posts/1/comments`, { method: 'POST' });
		expect(channelLookupStart(write, null)).toBe('first-unconstrained');
		expect(channelLookupStart(write, BOOKMARK_A)).toBe(BOOKMARK_A);
		expect(channelLookupStart(new Request(`${MEMBER}/posts/1`), BOOKMARK_A)).toBeNull();
		expect(channelLookupStart(new Request(`${ORIGIN}/admin/v1/starfall/global/reports`), BOOKMARK_A)).toBeNull();
		expect(newerBookmark(BOOKMARK_A, BOOKMARK_B)).toBe(BOOKMARK_B);
		expect(newerBookmark(BOOKMARK_B, BOOKMARK_A)).toBe(BOOKMARK_B);
		expect(newerBookmark(null, BOOKMARK_A)).toBe(BOOKMARK_A);
		expect(newerBookmark(null, null)).toBeNull();
	});
});
