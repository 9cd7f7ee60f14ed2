import { describe, expect, it, vi } from 'vitest';
import { env } from 'cloudflare:workers';
import { GUEST } from '@/server/visibility/visibility';
import { call, postWhere, publicApi, type CallInit } from './harness';

const BASE = publicApi();

async function get(path: string, init?: CallInit) {
	return call(path.startsWith('http') ? path : `${BASE}${path}`, init);
}

describe('posts', () => {
	it('reads a visible post with its board, category and body', async () => {
		const id = await postWhere('board_seq IS NOT NULL AND board_id = 14');
		const { status, body } = await get(`/posts/${id}`);
		expect(status).toBe(200);
		expect(body['content']).toMatchObject({ readable: true, postId: id, boardId: 14, state: 'VISIBLE' });
		expect(JSON.parse((body['content'] as { content: string }).content).type).toBe('doc');
	});

	it.each([
		['hidden_by_admin = 1', 'HIDDEN_BY_ADMIN'],
		['deleted_at IS NOT NULL', 'DELETED'],
		['is_private = 1', 'PRIVATE'],
		['board_id = 17', 'BOARD_PRIVATE'],
	])('gives a guest only the state and board of a post where %s', async (where, state) => {
		const id = await postWhere(where);
		const { body } = await get(`/posts/${id}`);
		expect(body['content']).toEqual({ readable: false, postId: id, boardId: expect.any(Number), boardName: expect.any(String), state });
		const comments = await get(`/posts/${id}/comments`);
		expect(comments.status).toBe(404);
	});

	it('lists comments with replies, keeping a deleted one as a placeholder without text only while it has replies', async () => {
		const row = await env.DB.prepare(
			`SELECT c.id, c.post_id, EXISTS (SELECT 1 FROM comments r WHERE r.parent_id = c.id AND r.deleted_at IS NULL) AS has_replies
			 FROM comments c WHERE c.channel_id = 1 AND c.deleted_at IS NOT NULL LIMIT 1`,
		).first<{ id: number; post_id: number; has_replies: number }>();
		const { body } = await get(`/posts/${row?.post_id}/comments`);
		const comments = (body['content'] as { comments: Record<string, unknown>[] }).comments;
		const deleted = comments.find((comment) => comment['commentId'] === row?.id);
		if (row?.has_replies) expect(deleted).toEqual({ readable: false, commentId: row.id, parentId: null, state: 'DELETED' });
		else expect(deleted).toBeUndefined();
	});

	it('does not reach a post of another channel', async () => {
		const foreign = await env.DB.prepare('SELECT id FROM posts WHERE channel_id = 2 LIMIT 1').first<{ id: number }>();
		const { status, code } = await get(`/posts/${foreign?.id}`);
		expect(status).toBe(404);
		expect(code).toBe(-4041403);
	});
});

describe('view beacon', () => {
	it('accepts a same-origin beacon with 204, counts it after the answer, and refuses another site', async () => {
		const views = async () => (await env.DB.prepare('SELECT view_count FROM posts WHERE id = 1').first<number>('view_count')) ?? 0;
		const before = await views();
		const ok = await get('/posts/1/views', { method: 'POST' });
		expect(ok.status).toBe(204);
		// The count is written a moment after the answer (posts/views.ts): waited for here, so that it
		// never lands in the next file's database (the files of a worker share it: setup.ts).
		await vi.waitFor(async () => expect(await views()).toBe(before + 1), { timeout: 10_000, interval: 100 });
		const foreign = await get('/posts/1/views', { method: 'POST', headers: { origin: 'https://evil.example' } });
		expect(foreign.status).toBe(403);
		expect(foreign.code).toBe(-4031401);
		const noOrigin = await get('/posts/1/views', { method: 'POST', headers: { origin: '' } });
		expect(noOrigin.status).toBe(403);
	});

	it('answers 405 to a GET of the beacon path', async () => {
		const { status, code } = await get('/posts/1/views');
		expect(status).toBe(405);
		expect(code).toBe(-4051401);
	});
});

describe('members', () => {
	it('reads a profile and the member posts, and hides a withdrawn nickname', async () => {
		const profile = await get('/users/1002');
		expect(profile.body['content']).toMatchObject({ userId: 1002, withdrawn: false });
		const posts = await get('/users/1002/posts');
		const content = posts.body['content'] as { posts: { author: { userId: number } }[]; totalCount: number };
		expect(content.posts.every((post) => post.author.userId === 1002)).toBe(true);
		const withdrawn = await get('/users/1040');
		expect(withdrawn.body['content']).toMatchObject({ nickname: null, withdrawn: true });
	});

	it('does not reach a member of another channel', async () => {
		const { status, body } = await get('/users/2002');
		expect(status).toBe(404);
		expect(body?.header.resultCode).toBe(-4041404);
	});
});

describe('sign-in surface', () => {
	it('answers auth/status without a user for a guest, never cacheable', async () => {
		const { body, headers } = await get('/auth/status');
		expect(body.header.isSuccessful).toBe(true);
		expect(body['user']).toBeUndefined();
		expect(headers.get('cache-control')).toContain('no-store');
	});

	it('lists the channel providers and whether any exist', async () => {
		const global = await get('/oauth/providers?callbackUrl=%2Fstarfall%2Fglobal');
		expect(global.body['content']).toEqual([{ provider: 'APPLE' }, { provider: 'GOOGLE' }, { provider: 'X' }]);
		const none = await get('http://localhost/public/v1/starfall/jp/oauth/providers/exists');
		expect(none.body['content']).toEqual({ exists: false });
	});
});

describe('the post page read', () => {
	it('returns the same post and comments in one query as the two separate reads', async () => {
		const { getPost } = await import('@/server/posts/detail');
		const { getPostWithComments } = await import('@/server/loaders/post-page');
		const row = await env.DB.prepare('SELECT post_id FROM comments WHERE channel_id = 1 AND parent_id IS NOT NULL LIMIT 1').first<{
			post_id: number;
		}>();
		const postId = row?.post_id ?? 0;
		const combined = await getPostWithComments(env.DB, 1, postId, GUEST);
		expect(combined.post).toEqual(await getPost(env.DB, 1, postId, GUEST));
		expect((await get(`/posts/${postId}/comments`)).body['content']).toEqual({
			comments: combined.comments,
			nextAfter: null,
			commentCount: combined.post.readable ? combined.post.commentCount : -1,
		});
		expect(combined.comments.some((comment) => comment.parentId !== null)).toBe(true);
	});
});
