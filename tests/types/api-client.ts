/**
 * The API client's paths, parameters and bodies come from the routers (src/lib/api-client.ts,
 * docs/reference/api-contract.md): `npm run check` compiles this file, nothing runs it. Each line marked
 * `@ts-expect-error` is a call the type checker must refuse; were the client to take any string
 * path or any body, the mark would be unused and the check would fail.
 */
import type { ApiClient } from '@/lib/api-client';
import type { LikeState } from '@/lib/api-types';

export async function refusedCalls(api: ApiClient): Promise<[LikeState, number]> {
	// @ts-expect-error: a path the member API does not have.
	await api.member.get('/posts/:postId/likes', { param: { postId: 1 } });
	// @ts-expect-error: a path spelled by hand rather than the route's own.
	await api.member.put('/posts/1/like');
	// @ts-expect-error: a route of the public API called through the admin API.
	await api.admin.get('/auth/status');
	// @ts-expect-error: a route of the admin API called through the member API.
	await api.member.post('/comments/:commentId/hide', { param: { commentId: 1 }, json: { reason: '' } });
	// @ts-expect-error: the path's parameter left out.
	await api.member.put('/posts/:postId/like');
	// @ts-expect-error: a parameter of another name.
	await api.member.put('/posts/:postId/like', { param: { id: 1 } });
	// @ts-expect-error: a body that is not the route's (the nickname is required).
	await api.member.put('/me/nickname', { json: {} });
	// @ts-expect-error: a field the answer does not have.
	const count: number = (await api.member.get('/notifications/unread')).count;
	// The answer is the route's content, typed.
	return [await api.member.put('/posts/:postId/like', { param: { postId: 1 } }), count];
}
