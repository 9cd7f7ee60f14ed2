import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { listBoardPosts, listChannelPosts } from '@/server/posts/lists';
import { recordingDb } from './harness';

/** A board with 41,000 listed posts, written in one statement, so that page 2,000 exists. */
const CHANNEL = 8;
const BOARD = 81;
const POSTS = 41_000;

beforeAll(async () => {
	const header = JSON.stringify({ gameBiIcon: null, topPinnedHome: 'Y', topPinnedBoard: 'Y', topPinnedTargetBoards: [], externalLinks: [] });
	const footer = JSON.stringify({ channels: [], company: '', companyCiIcons: [], copyright: '', policyItems: [], snsLinks: [] });
	await env.DB.batch([
		env.DB.prepare(
			`INSERT INTO channels (id, domain, slug, title, language, theme_type, key_color, background_color, exposure_type, header_config, footer_config, listed_count, created_at)
			 VALUES (?1, 'deep', 'pages', 'Deep pages', 'en', 'LIGHT', '#000000', '#ffffff', 'ALL', ?2, ?3, ?4, 0)`,
		).bind(CHANNEL, header, footer, POSTS),
		env.DB.prepare(`INSERT INTO boards (id, channel_id, name, listed_count, created_at) VALUES (?1, ?2, 'Deep', ?3, 0)`).bind(BOARD, CHANNEL, POSTS),
		env.DB.prepare(`INSERT INTO identities (id, provider, subject, created_at) VALUES (8001, 'GOOGLE', 'deep-1', 0)`),
		env.DB.prepare(`INSERT INTO members (id, channel_id, identity_id, nickname, provider, recent_provider, joined_at) VALUES (8001, ?1, 8001, 'deep', 'GOOGLE', 'GOOGLE', 0)`).bind(CHANNEL),
		env.DB.prepare(
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
			 INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, board_seq, channel_seq)
			 SELECT 800000 + i, ?1, ?2, 8001, 'Post ' || i, '{"type":"doc","blocks":[]}', '', i, i, i FROM n`,
		).bind(CHANNEL, BOARD, POSTS),
	]);
});

describe('deep pages read only what they show', () => {
	it.each([1, 2000])('a board page %i reads its 20 posts and their authors, and the notice index, nothing more', async (page) => {
		const { db, statements } = recordingDb();
		const board = await listBoardPosts(db, CHANNEL, BOARD, page, POSTS);
		expect(board.posts.length).toBe(20);
		// 20 posts and 20 authors, plus a constant for the (empty) notice lookup.
		expect(statements.reduce((sum, statement) => sum + statement.rowsRead, 0)).toBeLessThanOrEqual(2 * 20 + 2);
	});

	it.each([1, 2000])('All Posts page %i reads its 20 posts and their authors', async (page) => {
		const { db, statements } = recordingDb();
		await listChannelPosts(db, CHANNEL, page, POSTS);
		expect(statements.reduce((sum, statement) => sum + statement.rowsRead, 0)).toBeLessThanOrEqual(2 * 20 + 2);
	});

	it('page 2,000 of the board and of All Posts holds the right posts, newest first', async () => {
		const board = await listBoardPosts(env.DB, CHANNEL, BOARD, 2000, POSTS);
		expect(board.posts.map((post) => post.postId)).toEqual(Array.from({ length: 20 }, (_, i) => 800000 + POSTS - 39_980 - i));
		const all = await listChannelPosts(env.DB, CHANNEL, 2000, POSTS);
		expect(all.posts[0]?.postId).toBe(board.posts[0]?.postId);
		expect(board.totalPages).toBe(2050);
	});
});
