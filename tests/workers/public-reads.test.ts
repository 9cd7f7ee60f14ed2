import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { api } from '@functions/app';

const BASE = 'http://localhost/public/v1/starfall/global';
type Body = { header: { isSuccessful: boolean; resultCode: number; resultMessage: string } } & Record<string, unknown>;

async function call(path: string, init?: RequestInit) {
	const response = await api.request(path.startsWith('http') ? path : `${BASE}${path}`, init);
	const text = await response.text();
	return { status: response.status, body: (text ? JSON.parse(text) : null) as Body | null, response };
}

async function firstPost(where: string): Promise<number> {
	const row = await env.DB.prepare(`SELECT id FROM posts WHERE channel_id = 1 AND ${where} ORDER BY id LIMIT 1`).first<{ id: number }>();
	if (!row) throw new Error(`no post where ${where}`);
	return row.id;
}

describe('posts', () => {
	it('reads a visible post with its board, category and body', async () => {
		const id = await firstPost('board_seq IS NOT NULL AND board_id = 14');
		const { status, body } = await call(`/posts/${id}`);
		expect(status).toBe(200);
		expect(body?.['content']).toMatchObject({ postId: id, boardId: 14, state: 'VISIBLE' });
		expect(JSON.parse((body?.['content'] as { content: string }).content).type).toBe('doc');
	});

	it.each([
		['hidden_by_admin = 1', 'HIDDEN_BY_ADMIN'],
		['deleted_at IS NOT NULL', 'DELETED'],
		['is_private = 1', 'PRIVATE'],
		['board_id = 17', 'BOARD_PRIVATE'],
	])('withholds the body of a post where %s', async (where, state) => {
		const id = await firstPost(where);
		const { body } = await call(`/posts/${id}`);
		expect(body?.['content']).toMatchObject({ state, content: null, title: '' });
		const comments = await call(`/posts/${id}/comments`);
		expect(comments.status).toBe(404);
	});

	it('lists comments with replies and keeps deleted ones as placeholders without text', async () => {
		const row = await env.DB.prepare('SELECT post_id FROM comments WHERE channel_id = 1 AND deleted_at IS NOT NULL LIMIT 1').first<{ post_id: number }>();
		const { body } = await call(`/posts/${row?.post_id}/comments`);
		const comments = body?.['content'] as { state: string; content: string | null; replies: unknown[] }[];
		const deleted = comments.find((comment) => comment.state === 'DELETED');
		expect(deleted?.content).toBeNull();
	});

	it('does not reach a post of another channel', async () => {
		const foreign = await env.DB.prepare('SELECT id FROM posts WHERE channel_id = 2 LIMIT 1').first<{ id: number }>();
		const { status, body } = await call(`/posts/${foreign?.id}`);
		expect(status).toBe(404);
		expect(body?.header.resultCode).toBe(-4041403);
	});
});

describe('view beacon', () => {
	it('accepts a same-origin beacon with 204 and refuses another site', async () => {
		const ok = await call('/posts/1/views', { method: 'POST', headers: { Origin: 'http://localhost' } });
		expect(ok.status).toBe(204);
		const foreign = await call('/posts/1/views', { method: 'POST', headers: { Origin: 'https://evil.example' } });
		expect(foreign.status).toBe(403);
		expect(foreign.body?.header.resultCode).toBe(-4031401);
		const noOrigin = await call('/posts/1/views', { method: 'POST' });
		expect(noOrigin.status).toBe(403);
	});

	it('answers 405 to a GET of the beacon path', async () => {
		const { status, body } = await call('/posts/1/views');
		expect(status).toBe(405);
		expect(body?.header.resultCode).toBe(-4051401);
	});
});

describe('members', () => {
	it('reads a profile and the member posts, and hides a withdrawn nickname', async () => {
		const profile = await call('/users/1002');
		expect(profile.body?.['content']).toMatchObject({ userId: 1002, withdrawn: false });
		const posts = await call('/users/1002/posts');
		const content = posts.body?.['content'] as { posts: { author: { userId: number } }[]; totalCount: number };
		expect(content.posts.every((post) => post.author.userId === 1002)).toBe(true);
		const withdrawn = await call('/users/1040');
		expect(withdrawn.body?.['content']).toMatchObject({ nickname: null, withdrawn: true });
	});

	it('does not reach a member of another channel', async () => {
		const { status, body } = await call('/users/2002');
		expect(status).toBe(404);
		expect(body?.header.resultCode).toBe(-4041404);
	});
});

describe('sign-in surface', () => {
	it('answers auth/status without a user for a guest, never cacheable', async () => {
		const { body, response } = await call('/auth/status');
		expect(body?.header.isSuccessful).toBe(true);
		expect(body?.['user']).toBeUndefined();
		expect(response.headers.get('cache-control')).toContain('no-store');
	});

	it('lists the channel providers and whether any exist', async () => {
		const global = await call('/oauth/providers?callbackUrl=%2Fstarfall%2Fglobal');
		expect(global.body?.['content']).toEqual([{ provider: 'APPLE' }, { provider: 'GOOGLE' }, { provider: 'X' }]);
		const none = await call('http://localhost/public/v1/starfall/jp/oauth/providers/exists');
		expect(none.body?.['content']).toEqual({ exists: false });
	});
});

describe('the post page read', () => {
	it('returns the same post and comments in one query as the two separate reads', async () => {
		const { getPost, getPostWithComments, listComments } = await import('@/server/posts/detail');
		const row = await env.DB.prepare('SELECT post_id FROM comments WHERE channel_id = 1 AND parent_id IS NOT NULL LIMIT 1').first<{ post_id: number }>();
		const postId = row?.post_id ?? 0;
		const combined = await getPostWithComments(env.DB, 1, postId);
		expect(combined.post).toEqual(await getPost(env.DB, 1, postId));
		expect(combined.comments).toEqual(await listComments(env.DB, 1, postId));
		expect(combined.comments.some((comment) => comment.replies.length > 0)).toBe(true);
	});
});
