import { describe, expect, it } from 'vitest';
import { FetchError, ResponseError, buildUrl, createApiClient } from '@/lib/api-client';
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

const envelope = (body: object, status = 200) =>
	new Response(JSON.stringify(body), { status, statusText: status === 200 ? 'OK' : 'Not Found', headers: { 'Content-Type': 'application/json' } });

describe('API client (docs/product-rules.md#api-calls)', () => {
	it('repeats array query values and leaves out empty ones', () => {
		expect(buildUrl('', '/x', { a: [1, 2], b: 'y', c: undefined, d: null })).toBe('/x?a=1&a=2&b=y');
		expect(buildUrl('https://h', '/x')).toBe('https://h/x');
	});

	it('sends credentials, the user-id header once known, and plain objects as JSON', async () => {
		const seen: Seen[] = [];
		let userId: string | null = null;
		const client = createApiClient({
			fetch: fakeFetch(() => envelope({ header: { isSuccessful: true, resultCode: 0, resultMessage: '' } }), seen),
			getUserId: () => userId,
		});
		await client.get('/a');
		userId = '42';
		await client.post('/b', { title: 'hi' });
		expect(seen[0]?.init.credentials).toBe('include');
		expect(new Headers(seen[0]?.init.headers).has(USER_ID_HEADER)).toBe(false);
		const second = new Headers(seen[1]?.init.headers);
		expect(second.get(USER_ID_HEADER)).toBe('42');
		expect(second.get('Content-Type')).toBe('application/json');
		expect(seen[1]?.init.body).toBe('{"title":"hi"}');
		expect(seen[1]?.init.method).toBe('POST');
	});

	it('resolves a non-JSON answer to null', async () => {
		const client = createApiClient({ fetch: fakeFetch(() => new Response('plain text', { status: 200 }), []) });
		expect(await client.get('/x')).toBeNull();
	});

	it('throws FetchError with status and the envelope code on a non-OK answer', async () => {
		const client = createApiClient({
			fetch: fakeFetch(() => envelope({ header: { isSuccessful: false, resultCode: -4041403, resultMessage: 'Post not found.' } }, 404), []),
		});
		const error = await client.get('/x').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(FetchError);
		expect(error).toMatchObject({ status: 404, statusText: 'Not Found', resultCode: -4041403, message: 'Post not found.' });
	});

	it('throws ResponseError matched by resultCode when the header says it failed', async () => {
		const client = createApiClient({
			fetch: fakeFetch(() => envelope({ header: { isSuccessful: false, resultCode: -4031452, resultMessage: 'banned' } }), []),
		});
		const error = await client.get('/x').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ResponseError);
		expect((error as ResponseError).resultCode).toBe(-4031452);
	});
});
