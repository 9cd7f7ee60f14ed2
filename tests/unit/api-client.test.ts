import { describe, expect, it } from 'vitest';
import { FetchError, ResponseError, apiUrl, buildUrl, createApiClient } from '@/lib/api-client';
import { USER_ID_HEADER } from '@/lib/names';

interface Seen {
	url: string;
	init: RequestInit;
}

function fakeFetch(response: () => Response, seen: Seen[]): typeof fetch {
	return (async (input: RequestInfo | URL, init?: RequestInit) => {
		seen.push({ url: String(input), init: init ?? {} });
		return response();
	}) as typeof fetch;
}

const channel = { domain: 'starfall', slug: 'global' };
const ok = { isSuccessful: true, resultCode: 0, resultMessage: '' };

const envelope = (body: object, status = 200) =>
	new Response(JSON.stringify(body), { status, statusText: status === 200 ? 'OK' : 'Not Found', headers: { 'Content-Type': 'application/json' } });

describe('API client (docs/reference/product-rules.md#api-calls)', () => {
	it('repeats array query values and leaves out empty ones', () => {
		expect(buildUrl('/x', { a: [1, 2], b: 'y', c: undefined, d: null })).toBe('/x?a=1&a=2&b=y');
		expect(buildUrl('/x')).toBe('/x');
	});

	it('sends credentials, the user-id header once known, and plain objects as JSON', async () => {
		const seen: Seen[] = [];
		let userId: string | null = null;
		const client = createApiClient({
			channel,
			fetch: fakeFetch(() => envelope({ header: { isSuccessful: true, resultCode: 0, resultMessage: '' } }), seen),
			getUserId: () => userId,
		});
		await client.public.get('/auth/status');
		userId = '42';
		await client.member.post('/reports', { json: { targetType: 'POST', targetId: 1, reason: 'SPAM', detail: '' } });
		expect(seen[0]?.init.credentials).toBe('include');
		expect(new Headers(seen[0]?.init.headers).has(USER_ID_HEADER)).toBe(false);
		const second = new Headers(seen[1]?.init.headers);
		expect(second.get(USER_ID_HEADER)).toBe('42');
		expect(second.get('Content-Type')).toBe('application/json');
		expect(seen[1]?.init.body).toBe('{"targetType":"POST","targetId":1,"reason":"SPAM","detail":""}');
		expect(seen[1]?.init.method).toBe('POST');
	});

	it('calls the route of its API, with each path parameter filled in and encoded, and resolves to the content', async () => {
		const seen: Seen[] = [];
		const client = createApiClient({ channel, fetch: fakeFetch(() => envelope({ header: ok, content: { liked: true, likeCount: 3 } }), seen) });
		expect(await client.member.put('/posts/:postId/like', { param: { postId: 7 } })).toEqual({ liked: true, likeCount: 3 });
		await client.public.get('/posts/:postId/comments', { param: { postId: 7 }, query: { after: 12 } });
		await client.admin.post('/reports/:targetType/:targetId/dismiss', { param: { targetType: 'posts', targetId: 9 }, json: { reason: '' } });
		await client.member.delete('/drafts/:draftId', { param: { draftId: 'a/b' } });
		expect(seen.map(({ url, init }) => `${init.method} ${url}`)).toEqual([
			'PUT /v1/starfall/global/posts/7/like',
			'GET /public/v1/starfall/global/posts/7/comments?after=12',
			'POST /admin/v1/starfall/global/reports/posts/9/dismiss',
			'DELETE /v1/starfall/global/drafts/a%2Fb',
		]);
		expect(apiUrl(channel, 'member', '/uploads/:key/thumbnail', { key: 'k 1' })).toBe('/v1/starfall/global/uploads/k%201/thumbnail');
		expect(apiUrl(channel, 'public', '/auth/status')).toBe('/public/v1/starfall/global/auth/status');
	});

	it('sends keepalive when asked (a request that outlives the page)', async () => {
		const seen: Seen[] = [];
		const client = createApiClient({ channel, fetch: fakeFetch(() => envelope({ header: ok, content: { unread: 0 } }), seen) });
		await client.member.post('/notifications/:notificationId/read', { param: { notificationId: 3 }, keepalive: true });
		await client.member.post('/notifications/read-all');
		expect(seen.map(({ init }) => init.keepalive)).toEqual([true, undefined]);
	});

	it('resolves a non-JSON answer to undefined', async () => {
		const client = createApiClient({ channel, fetch: fakeFetch(() => new Response('plain text', { status: 200 }), []) });
		expect(await client.public.get('/auth/status')).toBeUndefined();
	});

	it('throws FetchError with status and the envelope code on a non-OK answer', async () => {
		const client = createApiClient({
			channel,
			fetch: fakeFetch(() => envelope({ header: { isSuccessful: false, resultCode: -4041403, resultMessage: 'Post not found.' } }, 404), []),
		});
		const error = await client.public.get('/auth/status').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(FetchError);
		expect(error).toMatchObject({ status: 404, statusText: 'Not Found', resultCode: -4041403, message: 'Post not found.' });
	});

	it('throws ResponseError matched by resultCode when the header says it failed', async () => {
		const client = createApiClient({
			channel,
			fetch: fakeFetch(() => envelope({ header: { isSuccessful: false, resultCode: -4031452, resultMessage: 'banned' } }), []),
		});
		const error = await client.public.get('/auth/status').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ResponseError);
		expect((error as ResponseError).resultCode).toBe(-4031452);
	});
});
