/**
 * Search on the real local D1: exact substring recall against a plain scan of the same
 * visible posts, in the four demo languages and every search type; the index following every
 * change in the change's own batch; isolation between channels; the API's validation; and the
 * rows a search reads and a write adds.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, memberApi, publicApi, queryPlan, recordingDb, signIn, signUp, GLOBAL, KOREAN, type ChannelRef } from './harness';
import { searchPosts, SEARCH_COUNT_CAP, type SearchType } from '@/server/search/search';
import { listedPostsForScan, scanPosts } from '@/server/search/scan';
import { random } from '../../scripts/seed/demo.mjs';

const JAPANESE: ChannelRef = { id: 3, domain: 'starfall', slug: 'jp' };
const CHINESE: ChannelRef = { id: 5, domain: 'starfall', slug: 'tw' };
const ADMIN = 1001;
const AUTHOR = 1007;

/** Every post id a search finds, all pages. */
async function found(channelId: number, query: string, type: SearchType): Promise<number[]> {
	const ids: number[] = [];
	for (let page = 1; ; page += 1) {
		const results = await searchPosts(env.DB, channelId, query, type, page);
		expect(results.capped).toBe(false);
		ids.push(...results.posts.map((post) => post.postId));
		if (page >= results.totalPages) {
			expect(ids.length).toBe(results.totalCount);
			return ids;
		}
	}
}

/** Queries cut from the channel's visible titles and bodies: 2, 3 and 4 to 12 characters. */
async function sampleQueries(channelId: number, count: number, seed: number): Promise<string[]> {
	const { results } = await env.DB.prepare('SELECT title, content_text FROM posts WHERE channel_id = ?1 AND channel_seq IS NOT NULL ORDER BY id')
		.bind(channelId)
		.all<{ title: string; content_text: string }>();
	const rng = random(seed);
	const queries = new Set<string>();
	while (queries.size < count) {
		const row = rng.pick(results);
		const text = Array.from((rng.int(0, 2) === 0 ? row.title : row.content_text).replace(/\s+/g, ' ').trim());
		const length = [2, 3, rng.int(4, 12)][queries.size % 3]!;
		if (text.length < length) continue;
		const start = rng.int(0, text.length - length);
		const query = text
			.slice(start, start + length)
			.join('')
			.trim();
		if (Array.from(query).length >= 2) queries.add(query);
	}
	return [...queries];
}

describe('recall', () => {
	it('finds exactly what a plain scan of the visible posts finds: 200 queries in ko, ja, zh and en, every search type', async () => {
		const channels = [GLOBAL, KOREAN, JAPANESE, CHINESE];
		const types: SearchType[] = ['TITLE_AND_CONTENT', 'TITLE', 'CONTENT', 'ALL'];
		let compared = 0;
		let nonEmpty = 0;
		for (const [index, channel] of channels.entries()) {
			const listed = await listedPostsForScan(env.DB, channel.id);
			for (const [n, query] of (await sampleQueries(channel.id, 50, 1000 + index)).entries()) {
				const type = types[n % types.length]!;
				const expected = scanPosts(listed, query, type);
				expect(await found(channel.id, query, type), `${channel.slug} ${type} "${query}"`).toEqual(expected);
				compared += 1;
				if (expected.length > 0) nonEmpty += 1;
			}
		}
		expect(compared).toBe(200);
		// Most samples come from the searched field itself; the others test the misses.
		expect(nonEmpty).toBeGreaterThan(120);
	});

	it('matches full-width and half-width forms, and any case, alike', async () => {
		const query = 'raid';
		const expected = await found(GLOBAL.id, query, 'TITLE_AND_CONTENT');
		expect(expected.length).toBeGreaterThan(0);
		expect(await found(GLOBAL.id, 'ＲＡＩＤ', 'TITLE_AND_CONTENT')).toEqual(expected);
		expect(await found(GLOBAL.id, 'Raid', 'TITLE_AND_CONTENT')).toEqual(expected);
	});
});

describe('what search never finds', () => {
	it('no post that is hidden, deleted, private or in a private board, though its own words are asked for', async () => {
		const { results } = await env.DB.prepare(
			`SELECT p.id, p.channel_id, p.title FROM posts p WHERE p.channel_seq IS NULL AND p.channel_id IN (1, 2, 3, 5) ORDER BY p.id`,
		).all<{ id: number; channel_id: number; title: string }>();
		expect(results.length).toBeGreaterThan(3);
		for (const post of results) {
			const query = Array.from(post.title.trim()).slice(0, 6).join('');
			const ids = (await searchPosts(env.DB, post.channel_id, query, 'ALL', 1)).posts.map((found) => found.postId);
			expect(ids, `post ${post.id} "${query}"`).not.toContain(post.id);
		}
	});

	it("never another community's posts", async () => {
		const korean = await env.DB.prepare('SELECT title FROM posts WHERE channel_id = 2 AND channel_seq IS NOT NULL ORDER BY id LIMIT 1').first<{
			title: string;
		}>();
		const query = Array.from(korean!.title).slice(0, 4).join('');
		expect((await searchPosts(env.DB, KOREAN.id, query, 'TITLE', 1)).totalCount).toBeGreaterThan(0);
		for (const other of [GLOBAL, JAPANESE, CHINESE]) {
			const results = await searchPosts(env.DB, other.id, query, 'TITLE', 1);
			const channels = await Promise.all(
				results.posts.map((post) => env.DB.prepare('SELECT channel_id FROM posts WHERE id = ?1').bind(post.postId).first<number>('channel_id')),
			);
			expect(channels.every((id) => id === other.id)).toBe(true);
		}
	});
});

describe('the index follows every change in its batch', () => {
	const member = memberApi();
	const body = (title: string, text: string, isPrivate = false) => ({
		boardId: 12,
		subjectId: 121,
		title,
		content: { type: 'doc' as const, blocks: [{ type: 'paragraph' as const, children: [{ text }] }] },
		isPrivate,
		isNotice: false,
	});
	const ids = async (q: string, type: SearchType = 'TITLE_AND_CONTENT') =>
		(await searchPosts(env.DB, GLOBAL.id, q, type, 1)).posts.map((post) => post.postId);

	it('write, edit, private, public again, hide and delete', async () => {
		const cookie = await signIn(AUTHOR);
		const created = await call(`${member}/posts`, {
			method: 'POST',
			cookie,
			body: { ...body('Zyxwv 검색 테스트', 'ほげほげ 本文です'), requestId: crypto.randomUUID() },
		});
		expect(created.code).toBe(0);
		const postId = (created.body['content'] as { postId: number }).postId;
		expect(await ids('zyxwv')).toEqual([postId]);
		expect(await ids('검색')).toContain(postId);
		expect(await ids('ほげ', 'CONTENT')).toContain(postId);
		expect(await ids('ほげ', 'TITLE')).not.toContain(postId);

		const edit = async (title: string, text: string, isPrivate = false) => {
			const version = (await env.DB.prepare('SELECT version FROM posts WHERE id = ?1').bind(postId).first<number>('version'))!;
			const answer = await call(`${member}/posts/${postId}`, { method: 'PUT', cookie, body: { ...body(title, text, isPrivate), version } });
			expect(answer.code, JSON.stringify(answer.body)).toBe(0);
		};
		await edit('Qwzrt 新しい題名', '改めた本文');
		expect(await ids('zyxwv')).toEqual([]);
		expect(await ids('qwzrt')).toEqual([postId]);
		expect(await ids('改め')).toContain(postId);
		await edit('Qwzrt 新しい題名', '改めた本文', true);
		expect(await ids('qwzrt')).toEqual([]);
		await edit('Qwzrt 新しい題名', '改めた本文', false);
		expect(await ids('qwzrt')).toEqual([postId]);

		const admin = await signIn(ADMIN);
		const { hidePost } = await import('@/server/moderation/hide');
		await hidePost(
			env.DB,
			GLOBAL.id,
			{ userId: ADMIN, nickname: 'admin', role: 'ADMIN', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 },
			postId,
		);
		expect(await ids('qwzrt')).toEqual([]);
		expect(admin).toBeTruthy();

		const second = await call(`${member}/posts`, {
			method: 'POST',
			cookie,
			body: { ...body('Plmok deleted soon', 'x'), requestId: crypto.randomUUID() },
		});
		const secondId = (second.body['content'] as { postId: number }).postId;
		expect(await ids('plmok')).toEqual([secondId]);
		expect((await call(`${member}/posts/${secondId}`, { method: 'DELETE', cookie })).code).toBe(0);
		expect(await ids('plmok')).toEqual([]);
	});

	it("a post in a private board is never indexed; ALL finds the author's nickname, a new one, and not a withdrawn one", async () => {
		const { cookie, userId } = await signUp(`search-${crypto.randomUUID()}`, 'Vbnmq작가');
		const written = await call(`${member}/posts`, {
			method: 'POST',
			cookie,
			body: { ...body('Nothing about names', 'body'), requestId: crypto.randomUUID() },
		});
		const postId = (written.body['content'] as { postId: number }).postId;
		expect(await ids('vbnmq', 'ALL')).toEqual([postId]);
		expect(await ids('vbnmq', 'TITLE_AND_CONTENT')).toEqual([]);
		expect(await ids('q작가', 'ALL')).toEqual([postId]);
		expect((await call(`${member}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'Hjkly작가' } })).code).toBe(0);
		expect(await ids('vbnmq', 'ALL')).toEqual([]);
		expect(await ids('hjkly', 'ALL')).toEqual([postId]);
		const { withdrawMember } = await import('@/server/accounts/withdrawal');
		await withdrawMember(env.DB, GLOBAL.id, userId);
		expect(await ids('hjkly', 'ALL')).toEqual([]);

		const staff = await call(`${member}/posts`, {
			method: 'POST',
			cookie: await signIn(ADMIN),
			body: { ...body('Staffonly Ghjkq', 'x'), boardId: 17, subjectId: null, requestId: crypto.randomUUID() },
		});
		expect(staff.code, JSON.stringify(staff.body)).toBe(0);
		expect(await ids('ghjkq')).toEqual([]);
	});

	it('a post adds a bounded number of rows to the index, whatever the community holds', async () => {
		const cookie = await signIn(AUTHOR);
		const { db, statements } = recordingDb();
		const { createPost } = await import('@/server/posts/writing');
		await createPost(
			db,
			GLOBAL.id,
			{ userId: AUTHOR, nickname: 'author', role: 'MEMBER', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 },
			{ ...body('Bounded index cost', 'a short body for the index'), requestId: crypto.randomUUID() },
			Date.now(),
		);
		const indexWrites = statements.filter((s) => /post_search/.test(s.sql)).reduce((sum, s) => sum + s.rowsWritten, 0);
		// The entry's docsize row and one new segment of a few leaf rows (plus a bounded merge step).
		expect(indexWrites).toBeLessThanOrEqual(20);
		expect(cookie).toBeTruthy();
	});
});

describe('reads', () => {
	it('a page reads the index down to its last match and the posts it shows; the count stops at the cap', async () => {
		const { db, statements } = recordingDb();
		const results = await searchPosts(db, GLOBAL.id, 'the', 'TITLE_AND_CONTENT', 1);
		expect(results.posts.length).toBeGreaterThan(0);
		expect(SEARCH_COUNT_CAP).toBe(1000);
		const read = statements.reduce((sum, s) => sum + s.rowsRead, 0);
		// About two rows per match counted, and the index pages of the query's terms: a query found
		// a million times reads no more than one found SEARCH_COUNT_CAP times (the bench measures it).
		expect(read).toBeLessThanOrEqual(4 * (SEARCH_COUNT_CAP + 1));
	});
});

describe('GET search', () => {
	const pub = publicApi();
	it('answers a page with excerpts, and refuses a keyword docs/reference/product-rules.md#validation refuses', async () => {
		const answer = await call(`${pub}/search?q=${encodeURIComponent('raid')}&searchType=TITLE_AND_CONTENT`);
		expect(answer.code).toBe(0);
		const content = answer.body['content'] as {
			posts: { postId: number; title: string; excerpt: string | null }[];
			totalCount: number;
			capped: boolean;
		};
		expect(content.totalCount).toBeGreaterThan(0);
		expect(content.posts.every((post) => post.title.toLowerCase().includes('raid') || (post.excerpt ?? '').toLowerCase().includes('raid'))).toBe(
			true,
		);
		for (const q of ['', ' ', 'a', '가', 'x'.repeat(21)]) {
			const refused = await call(`${pub}/search?q=${encodeURIComponent(q)}`);
			expect(refused.status, q).toBe(400);
			expect(refused.code).toBe(-4001400);
		}
		expect((await call(`${pub}/search?q=ab&searchType=NOPE`)).status).toBe(400);
		expect((await call(`${pub}/search?q=ab&page=0`)).status).toBe(400);
		expect((await call(`${pub}/search?q=ab&extra=1`)).status).toBe(400);
		expect((await call(`${pub}/search`)).status).toBe(400);
		// Two graphemes of many code units are two characters.
		expect((await call(`${pub}/search?q=${encodeURIComponent('👍🏽👍🏽')}`)).code).toBe(0);
	});
});

describe('type All with a nickname', () => {
	/** A demo member of the global community whose nickname no other member's holds and no post's text. */
	const PROLIFIC = { id: 1005, query: 'kesslerkid' };
	/** `count` more listed posts of PROLIFIC, newer than every other (in SQL: the rows All Posts lists; no index entry, no query word). */
	const addPosts = (count: number) =>
		env.DB.prepare(
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
			 INSERT INTO posts (channel_id, board_id, subject_id, member_id, title, content, content_text, created_at, channel_seq)
			 SELECT 1, 12, 121, ?1, 'Many posts ' || i, '{"type":"doc","blocks":[]}', '', 1800000000000 + i,
				(SELECT max(channel_seq) FROM posts WHERE channel_id = 1) + i FROM n`,
		)
			.bind(PROLIFIC.id, count)
			.run();
	/** Page `page` of the search, the rows it read and its statements. */
	const searched = async (page: number) => {
		const { db, statements } = recordingDb();
		const results = await searchPosts(db, GLOBAL.id, PROLIFIC.query, 'ALL', page);
		return { results, statements, rowsRead: statements.reduce((sum, s) => sum + s.rowsRead, 0) };
	};

	it("reads its page and the capped count whatever the number of the matching member's posts, from an index alone, in the same order", async () => {
		await addPosts(2000);
		const listed = await listedPostsForScan(env.DB, GLOBAL.id);
		const expected = scanPosts(listed, PROLIFIC.query, 'ALL');
		expect(expected.length).toBeGreaterThan(SEARCH_COUNT_CAP);
		const first = await searched(1);
		expect(first.results.capped).toBe(true);
		expect(first.results.posts.map((post) => post.postId)).toEqual(expected.slice(0, 20));
		expect((await searched(50)).results.posts.map((post) => post.postId)).toEqual(expected.slice(980, 1000));
		// Ten times the posts read nothing more: the member's posts are read newest first and the walk
		// stops once the page and the count have theirs (about two rows a post kept: the count's
		// SEARCH_COUNT_CAP + 1, the page's 20, the index's pages of the query's terms).
		await addPosts(18_000);
		const later = await searched(1);
		expect(later.rowsRead).toBe(first.rowsRead);
		expect(first.rowsRead).toBeLessThanOrEqual(5 * (SEARCH_COUNT_CAP + 1));
		for (const statement of first.statements) {
			const plan = await queryPlan(statement);
			// The members' side reads posts_listed_by_member alone: no post's row for each post walked
			// (what posts_by_member needed, for the post's list state); the page reads its 20 rows by id.
			expect(plan).toContain('SEARCH p USING COVERING INDEX posts_listed_by_member (member_id=?)');
			const postReads = plan.filter((detail) => /^(SEARCH|SCAN) p\b/.test(detail));
			expect(
				postReads.filter((detail) => !/COVERING INDEX|INTEGER PRIMARY KEY/.test(detail)),
				plan.join('\n'),
			).toEqual([]);
		}
	});
});
