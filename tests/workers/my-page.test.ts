/**
 * My Page's lists (docs/reference/product-rules.md#roles) page properly at any depth: a page past the end shows the last page,
 * as a board does, and never anything of a private board.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { listMyComments, listMyLikes, listMyPosts } from '@/server/members/activity';

describe('My Page lists', () => {
	it('page 1, a page past the end (the last page) and every post readable outside private boards', async () => {
		const { results } = await env.DB.prepare(
			`SELECT member_id AS id, count(*) AS n FROM posts WHERE channel_id = 1 GROUP BY member_id ORDER BY n DESC LIMIT 1`,
		).all<{ id: number; n: number }>();
		const memberId = results[0]!.id;
		for (const list of [listMyPosts, listMyLikes, listMyComments] as const) {
			const first = await list(env.DB, 1, memberId, 1);
			const beyond = await list(env.DB, 1, memberId, 10_000);
			expect(beyond.page).toBe(first.totalPages);
			expect(beyond.totalCount).toBe(first.totalCount);
			if (first.totalCount > 0) expect(beyond.items.length).toBe(first.totalCount - (first.totalPages - 1) * 20);
		}
		const posts = await listMyPosts(env.DB, 1, memberId, 1);
		const boards = await env.DB.prepare('SELECT id FROM boards WHERE channel_id = 1 AND is_public = 0').all<{ id: number }>();
		const privateBoards = new Set(boards.results.map((board) => board.id));
		expect(posts.items.some((post) => privateBoards.has(post.boardId))).toBe(false);
	});

	it("never lists an administrator's own post in a private board", async () => {
		const staff = await env.DB.prepare(
			'SELECT p.member_id AS id FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.channel_id = 1 AND b.is_public = 0 AND p.deleted_at IS NULL LIMIT 1',
		).first<{ id: number }>();
		expect(staff).not.toBeNull();
		const listed = await listMyPosts(env.DB, 1, staff!.id, 1);
		const ids = listed.items.map((post) => post.postId);
		const { results } = await env.DB.prepare('SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.member_id = ?1 AND b.is_public = 0')
			.bind(staff!.id)
			.all<{ id: number }>();
		for (const row of results) expect(ids).not.toContain(row.id);
	});
});
