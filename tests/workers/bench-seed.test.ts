/**
 * The bench seed (scripts/seed/bench.mjs), which makes the million-post community in SQL batches,
 * on the real local D1: what it writes is what the Worker would have written (lists, counters, hot
 * scores, the search index), whatever the batch size, and a seed that stops part-way goes on to
 * the same rows.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { BENCH_CHANNEL, seedBench } from '../../scripts/seed/bench.mjs';
import { DocumentSchema, documentText } from '@/schemas/content';
import { hotScore } from '@/server/posts/hot';
import { listBoardPosts } from '@/server/posts/lists';
import { matchingPostIds, SEARCH_COUNT_CAP, type SearchType } from '@/server/search/search';
import { listedPostsForScan, scanPosts } from '@/server/search/scan';

const CHANNEL = BENCH_CHANNEL.id;
const POSTS = 700;
const SMALL = 120;

/** Every bench row, as text: posts, comments, likes, lists' counters, and the search's answers. */
async function fingerprint(): Promise<string> {
	const tables = await env.DB.batch([
		env.DB.prepare('SELECT * FROM posts WHERE channel_id = ?1 ORDER BY id').bind(CHANNEL),
		env.DB.prepare('SELECT * FROM comments WHERE channel_id = ?1 ORDER BY id').bind(CHANNEL),
		env.DB.prepare('SELECT * FROM post_likes WHERE channel_id = ?1 ORDER BY post_id, member_id').bind(CHANNEL),
		env.DB.prepare('SELECT id, listed_count, list_top FROM boards WHERE channel_id = ?1 ORDER BY id').bind(CHANNEL),
		env.DB.prepare('SELECT id, listed_count, list_top FROM board_subjects WHERE channel_id = ?1 ORDER BY id').bind(CHANNEL),
		env.DB.prepare('SELECT listed_count, list_top FROM channels WHERE id = ?1').bind(CHANNEL),
	]);
	const found = [];
	for (const query of ['요?', '什麼', 'して', 'the']) found.push(await matchingPostIds(env.DB, CHANNEL, query, 'TITLE_AND_CONTENT'));
	return JSON.stringify([tables.map((table) => table.results), found]);
}

/** A binding whose batches fail from the `failAt`-th on: a seed stopped part-way. */
function stoppingAfter(failAt: number): Pick<D1Database, 'prepare' | 'batch'> {
	let batches = 0;
	return {
		prepare: (sql: string) => env.DB.prepare(sql),
		batch: async (statements) => {
			batches += 1;
			if (batches >= failAt) throw new Error('stopped');
			return env.DB.batch(statements);
		},
	};
}

describe('the bench seed', () => {
	it('makes the same rows whatever the batch size, and goes on after a stop to the same rows', async () => {
		// Few posts: clearing the channel for the next seed deletes its comments, each of which D1
		// checks against every comment (no index on comments.parent_id or reply_to_id).
		await seedBench(env.DB, SMALL, { batch: SMALL });
		const whole = await fingerprint();
		await seedBench(env.DB, SMALL, { batch: 30 });
		expect(await fingerprint()).toBe(whole);

		// Stopped after the setup and two batches of 30: the channel is not complete (its count is 0),
		// and a resumed seed goes on from post 60 to the same rows.
		await expect(seedBench(stoppingAfter(5), SMALL, { batch: 30 })).rejects.toThrow('stopped');
		const stopped = await env.DB.prepare(
			'SELECT listed_count, (SELECT count(*) FROM posts WHERE channel_id = ?1) AS posts FROM channels WHERE id = ?1',
		)
			.bind(CHANNEL)
			.first();
		expect(stopped).toEqual({ listed_count: 0, posts: 60 });
		const lines: string[] = [];
		const { resumedFrom } = await seedBench(env.DB, SMALL, { batch: 30, resume: true, log: (line) => lines.push(line) });
		expect(resumedFrom).toBe(60);
		expect(lines[0]).toBe(`Going on from post 60 of ${SMALL}.`);
		expect(await fingerprint()).toBe(whole);
	});

	it('lists, counts and indexes its posts as the Worker does', async () => {
		await seedBench(env.DB, POSTS, { batch: 250 });
		const listed = await env.DB.prepare(
			`SELECT board_id, count(*) AS count, min(board_seq) AS low, max(board_seq) AS high, count(DISTINCT board_seq) AS distinct_seq,
				sum(board_pos = board_seq AND subject_pos = subject_seq AND channel_pos = channel_seq) AS positioned
			 FROM posts WHERE channel_id = ?1 GROUP BY board_id ORDER BY board_id`,
		)
			.bind(CHANNEL)
			.all<{ board_id: number; count: number; low: number; high: number; distinct_seq: number; positioned: number }>();
		expect(listed.results.map((row) => row.count)).toEqual([420, 140, 140]);
		for (const row of listed.results) expect([row.low, row.high, row.distinct_seq, row.positioned]).toEqual([1, row.count, row.count, row.count]);
		const counters = await env.DB.prepare(
			`SELECT (SELECT listed_count || '/' || list_top FROM channels WHERE id = ?1) AS channel,
				(SELECT group_concat(listed_count || '/' || list_top) FROM (SELECT * FROM boards WHERE channel_id = ?1 ORDER BY id)) AS boards,
				(SELECT count(*) FROM board_subjects s WHERE channel_id = ?1
					AND listed_count = (SELECT count(*) FROM posts p WHERE p.subject_id = s.id)
					AND listed_count = (SELECT max(subject_seq) FROM posts p WHERE p.subject_id = s.id) AND list_top = listed_count) AS subjects_right,
				(SELECT count(*) FROM sqlite_master WHERE name LIKE 'bench_seed_%') AS staging`,
		)
			.bind(CHANNEL)
			.first();
		expect(counters).toEqual({ channel: `${POSTS}/${POSTS}`, boards: '420/420,140/140,140/140', subjects_right: 9, staging: 0 });

		// Counters, hot scores and bodies as the Worker's writes keep them.
		const posts = await env.DB.prepare(
			`SELECT p.id, p.created_at, p.like_count, p.comment_count, p.hot, p.content, p.content_text,
				(SELECT count(*) FROM comments c WHERE c.post_id = p.id) AS comments, (SELECT count(*) FROM post_likes l WHERE l.post_id = p.id) AS likes
			 FROM posts p WHERE channel_id = ?1`,
		)
			.bind(CHANNEL)
			.all<{
				id: number;
				created_at: number;
				like_count: number;
				comment_count: number;
				hot: number;
				content: string;
				content_text: string;
				comments: number;
				likes: number;
			}>();
		let comments = 0;
		for (const post of posts.results) {
			expect([post.comments, post.likes, post.hot]).toEqual([
				post.comment_count,
				post.like_count,
				hotScore(post.created_at, post.like_count, post.comment_count),
			]);
			expect(documentText(DocumentSchema.parse(JSON.parse(post.content)))).toBe(post.content_text);
			comments += post.comments;
		}
		// About 2 comments and 2.5 likes a post, as rows.
		expect(comments / POSTS).toBeGreaterThan(1.5);
		expect(comments / POSTS).toBeLessThan(2.5);

		// The search index finds exactly what a scan of the posts finds: 2-character Korean, Chinese and
		// Japanese queries, an English word, a phrase across the two paragraphs' line break.
		const scanned = await listedPostsForScan(env.DB, CHANNEL);
		const acrossBreak = scanned[0]!.content_text.replace(/\s+/g, ' ');
		const breakAt = scanned[0]!.content_text.indexOf('\n');
		const queries: [string, SearchType][] = [
			['요?', 'TITLE_AND_CONTENT'],
			['什麼', 'TITLE_AND_CONTENT'],
			['して', 'CONTENT'],
			['the', 'TITLE'],
			[acrossBreak.slice(breakAt - 4, breakAt + 5), 'CONTENT'],
		];
		for (const [query, type] of queries) {
			const expected = scanPosts(scanned, query, type).slice(0, SEARCH_COUNT_CAP);
			expect(expected.length, query).toBeGreaterThan(0);
			expect(await matchingPostIds(env.DB, CHANNEL, query, type), query).toEqual(expected);
		}

		// A board page of the seeded lists: the newest 20, and the last page the oldest.
		const first = await listBoardPosts(env.DB, CHANNEL, 91, 1, 420);
		const last = await listBoardPosts(env.DB, CHANNEL, 91, 21, 420);
		const newest = await env.DB.prepare('SELECT id FROM posts WHERE board_id = 91 ORDER BY board_seq DESC LIMIT 20').all<{ id: number }>();
		expect(first.posts.map((post) => post.postId)).toEqual(newest.results.map((row) => row.id));
		expect(last.posts.at(-1)?.postId).toBe(BENCH_CHANNEL.id * 1_000_000 + 1);
	});
});
