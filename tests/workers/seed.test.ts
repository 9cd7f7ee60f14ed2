import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { demoSql } from '../../scripts/seed/demo.mjs';

const TABLES = ['channels', 'channel_providers', 'boards', 'board_subjects', 'board_tree_nodes', 'identities', 'members', 'nickname_claims', 'bans', 'posts', 'comments', 'post_likes', 'reports', 'drafts'];

/** A fingerprint of every demo table: row counts and a hash of the rows' text. */
async function fingerprint(): Promise<Record<string, string>> {
	const result: Record<string, string> = {};
	for (const table of TABLES) {
		const rows = await env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
		const text = JSON.stringify(rows.results);
		const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
		result[table] = `${rows.results.length}:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
	}
	return result;
}

describe('demo seed', () => {
	it('generates the same statements on every run', () => {
		expect(demoSql()).toEqual(demoSql());
	});

	it('leaves the database exactly as before when it runs again', async () => {
		const before = await fingerprint();
		const statements = demoSql().filter((statement) => !statement.startsWith('PRAGMA'));
		await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
		expect(await fingerprint()).toEqual(before);
	});

	it('keeps list counters equal to the posts that carry sequence numbers', async () => {
		const mismatched = await env.DB.prepare(
			`SELECT b.id FROM boards b WHERE b.listed_count != (SELECT count(*) FROM posts p WHERE p.board_id = b.id AND p.board_seq IS NOT NULL)
			 UNION ALL
			 SELECT c.id FROM channels c WHERE c.listed_count != (SELECT count(*) FROM posts p WHERE p.channel_id = c.id AND p.channel_seq IS NOT NULL)`,
		).all();
		expect(mismatched.results).toEqual([]);
	});

	it('holds every state the demo promises', async () => {
		const row = await env.DB.prepare(
			`SELECT
				(SELECT count(*) FROM posts WHERE hidden_by_admin = 1) AS hidden_posts,
				(SELECT count(*) FROM posts WHERE deleted_at IS NOT NULL) AS deleted_posts,
				(SELECT count(*) FROM posts WHERE is_private = 1) AS private_posts,
				(SELECT count(*) FROM comments WHERE deleted_at IS NOT NULL) AS deleted_comments,
				(SELECT count(*) FROM comments WHERE hidden_by_admin = 1) AS hidden_comments,
				(SELECT count(*) FROM comments WHERE parent_id IS NOT NULL) AS replies,
				(SELECT count(*) FROM bans WHERE kind = 'TEMPORARY') AS temporary_bans,
				(SELECT count(*) FROM bans WHERE kind = 'PERMANENT') AS permanent_bans,
				(SELECT count(*) FROM boards WHERE is_public = 0) AS private_boards,
				(SELECT min(n) FROM (SELECT count(*) AS n FROM posts GROUP BY board_id)) AS fewest_posts_per_board`,
		).first<Record<string, number>>();
		expect(row).toMatchObject({ hidden_posts: 5, deleted_posts: 5, private_posts: 5, deleted_comments: 5, hidden_comments: 5, temporary_bans: 5, permanent_bans: 5, private_boards: 5 });
		expect(row?.['replies']).toBeGreaterThan(100);
		expect(row?.['fewest_posts_per_board']).toBeGreaterThanOrEqual(30);
	});
});
