import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';

/** The lists the SPEC shows, each with the query that serves it. */
const LIST_QUERIES: Record<string, string> = {
	'a board page': 'SELECT p.id FROM posts p JOIN members m ON m.id = p.member_id WHERE p.board_id = 12 AND p.channel_id = 1 AND p.board_seq BETWEEN 1 AND 20 ORDER BY p.board_seq DESC',
	'a category page': 'SELECT p.id FROM posts p JOIN members m ON m.id = p.member_id WHERE p.subject_id = 121 AND p.channel_id = 1 AND p.subject_seq BETWEEN 1 AND 20 ORDER BY p.subject_seq DESC',
	'All Posts': 'SELECT p.id FROM posts p JOIN members m ON m.id = p.member_id WHERE p.channel_id = 1 AND p.channel_seq BETWEEN 1 AND 20 ORDER BY p.channel_seq DESC',
	'the pinned notices': 'SELECT p.id FROM posts p WHERE p.board_id = 12 AND p.is_notice = 1 AND p.deleted_at IS NULL ORDER BY p.id DESC LIMIT 5',
	"a member's posts": 'SELECT id FROM posts WHERE member_id = 1002 ORDER BY id DESC LIMIT 20',
	"a member's comments": 'SELECT id FROM comments WHERE member_id = 1002 ORDER BY id DESC LIMIT 20',
	"a member's likes": 'SELECT post_id FROM post_likes WHERE member_id = 1002 ORDER BY created_at DESC LIMIT 20',
	"a post's comments": 'SELECT id FROM comments WHERE post_id = 10 ORDER BY id',
	"a member's drafts": 'SELECT id FROM drafts WHERE member_id = 1002 ORDER BY updated_at DESC',
	'the board tree': 'SELECT id FROM board_tree_nodes WHERE channel_id = 1 ORDER BY sort_order',
};

describe('every list the SPEC shows is served by an index', () => {
	it('creates every table of the data model', async () => {
		const tables = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' ORDER BY name").all<{ name: string }>();
		expect(tables.results.map((row) => row.name)).toEqual(
			expect.arrayContaining(['bans', 'board_subjects', 'board_tree_nodes', 'boards', 'channel_providers', 'channels', 'comments', 'drafts', 'identities', 'members', 'nickname_claims', 'post_likes', 'posts', 'reports', 'sessions', 'uploads']),
		);
	});

	it.each(Object.entries(LIST_QUERIES))('%s', async (_name, sql) => {
		const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).all<{ detail: string }>();
		const details = plan.results.map((row) => row.detail);
		// A full scan shows as "SCAN <table>" without an index; a temporary b-tree would mean sorting.
		expect(details.filter((detail) => /^SCAN (\w+)$/.test(detail) || detail.includes('TEMP B-TREE'))).toEqual([]);
	});
});
