import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { listBoardPosts, listChannelPosts } from '@/server/posts/lists';
import { recordingDb } from './harness';
import { deletePost } from '@/server/posts/writing';
import { FENWICK_DEPTH } from '@/server/list-positions/list-positions';
import type { SessionMember } from '@/server/sign-in/sessions';

/**
 * The rows a page may read: its 20 posts and their 20 authors and a constant at page 1; below it,
 * also the Fenwick descent (FENWICK_DEPTH + 1 steps, each a step row and at most one gap node):
 * 94 rows at page 2,000 as at any page, whatever the list's size or its removals.
 */
function readBound(page: number): number {
	return 2 * 20 + 2 + (page === 1 ? 0 : 2 * (FENWICK_DEPTH + 1));
}

/** A board with 41,000 listed posts, written in one statement, so that page 2,000 exists. */
const CHANNEL = 8;
const BOARD = 81;
const POSTS = 41_000;

beforeAll(async () => {
	const header = JSON.stringify({ gameBiIcon: null, topPinnedHome: 'Y', topPinnedBoard: 'Y', topPinnedTargetBoards: [], externalLinks: [] });
	const footer = JSON.stringify({ channels: [], company: '', companyCiIcons: [], copyright: '', policyItems: [], snsLinks: [] });
	await env.DB.batch([
		env.DB.prepare(
			`INSERT INTO channels (id, domain, slug, title, language, theme_type, key_color, background_color, exposure_type, header_config, footer_config, listed_count, list_top, created_at)
			 VALUES (?1, 'deep', 'pages', 'Deep pages', 'en', 'LIGHT', '#000000', '#ffffff', 'ALL', ?2, ?3, ?4, ?4, 0)`,
		).bind(CHANNEL, header, footer, POSTS),
		env.DB.prepare(`INSERT INTO boards (id, channel_id, name, listed_count, list_top, created_at) VALUES (?1, ?2, 'Deep', ?3, ?3, 0)`).bind(
			BOARD,
			CHANNEL,
			POSTS,
		),
		env.DB.prepare(`INSERT INTO identities (id, provider, subject, created_at) VALUES (8001, 'GOOGLE', 'deep-1', 0)`),
		env.DB.prepare(
			`INSERT INTO members (id, channel_id, identity_id, nickname, provider, recent_provider, joined_at) VALUES (8001, ?1, 8001, 'deep', 'GOOGLE', 'GOOGLE', 0)`,
		).bind(CHANNEL),
		env.DB.prepare(
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
			 INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, board_seq, channel_seq, board_pos, channel_pos)
			 SELECT 800000 + i, ?1, ?2, 8001, 'Post ' || i, '{"type":"doc","blocks":[{"type":"paragraph","children":[{"text":"x"}]}]}', 'x', i, i, i, i, i FROM n`,
		).bind(CHANNEL, BOARD, POSTS),
	]);
});

describe('deep pages read only what they show', () => {
	it.each([1, 2000])('a board page %i reads its 20 posts and their authors, and the notice index, nothing more', async (page) => {
		const { db, statements } = recordingDb();
		const board = await listBoardPosts(db, CHANNEL, BOARD, page, POSTS);
		expect(board.posts.length).toBe(20);
		// 20 posts and 20 authors, plus a constant for the (empty) notice lookup; below page 1 the descent.
		expect(statements.reduce((sum, statement) => sum + statement.rowsRead, 0)).toBeLessThanOrEqual(readBound(page));
	});

	it.each([1, 2000])('All Posts page %i reads its 20 posts and their authors', async (page) => {
		const { db, statements } = recordingDb();
		await listChannelPosts(db, CHANNEL, page, POSTS);
		expect(statements.reduce((sum, statement) => sum + statement.rowsRead, 0)).toBeLessThanOrEqual(readBound(page));
	});

	it('page 2,000 of the board and of All Posts holds the right posts, newest first', async () => {
		const board = await listBoardPosts(env.DB, CHANNEL, BOARD, 2000, POSTS);
		expect(board.posts.map((post) => post.postId)).toEqual(Array.from({ length: 20 }, (_, i) => 800000 + POSTS - 39_980 - i));
		const all = await listChannelPosts(env.DB, CHANNEL, 2000, POSTS);
		expect(all.posts[0]?.postId).toBe(board.posts[0]?.postId);
		expect(board.totalPages).toBe(2050);
	});
});

describe('removing a post costs a bounded number of rows, whatever its age', () => {
	const ADMIN: SessionMember = { userId: 8001, nickname: 'deep', role: 'ADMIN', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 };
	const removed = new Set<number>();
	const listedCount = async () => (await env.DB.prepare('SELECT listed_count FROM boards WHERE id = ?1').bind(BOARD).first<number>('listed_count'))!;

	it('deleting the oldest of 41,000 posts writes at most 100 rows (3 lists x 25 Fenwick nodes + the post, counters and version)', async () => {
		const { db, statements } = recordingDb();
		await deletePost(db, CHANNEL, ADMIN, 800001, Date.now());
		removed.add(800001);
		const written = statements.reduce((sum, statement) => sum + statement.rowsWritten, 0);
		expect(written).toBeGreaterThan(0);
		expect(written).toBeLessThanOrEqual(100);
	});

	it('deleting a post in the middle and the newest costs the same bound', async () => {
		for (const postId of [800000 + 20_500, 800000 + POSTS]) {
			const { db, statements } = recordingDb();
			await deletePost(db, CHANNEL, ADMIN, postId, Date.now());
			removed.add(postId);
			expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBeLessThanOrEqual(100);
		}
	});

	it('after removals every deep page still shows exactly its live posts, reading a bounded number of rows', async () => {
		// 40 more removals spread over the list.
		for (let i = 1; i <= 40; i += 1) {
			const postId = 800000 + i * 997;
			await deletePost(env.DB, CHANNEL, ADMIN, postId, Date.now());
			removed.add(postId);
		}
		const count = await listedCount();
		expect(count).toBe(POSTS - removed.size);
		const live = Array.from({ length: POSTS }, (_, i) => 800000 + POSTS - i).filter((id) => !removed.has(id));
		for (const page of [1, 2, 1000, 2000, Math.ceil(count / 20)]) {
			const { db, statements } = recordingDb();
			const board = await listBoardPosts(db, CHANNEL, BOARD, page, count);
			expect(board.posts.map((post) => post.postId)).toEqual(live.slice((page - 1) * 20, page * 20));
			const all = await listChannelPosts(env.DB, CHANNEL, page, count);
			expect(all.posts.map((post) => post.postId)).toEqual(live.slice((page - 1) * 20, page * 20));
			const read = statements.reduce((sum, statement) => sum + statement.rowsRead, 0);
			expect(read).toBeLessThanOrEqual(readBound(page));
		}
	});
});
