/**
 * The Popular order of a board's and All Posts' lists (src/server/posts/popular.ts, hot.ts): the
 * stored hot score follows every write of a post's counts in the same statement, the order with
 * chosen timestamps, keyset paging, the rows a page reads and a like writes, and the edge cache's keys.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createPost } from '@/server/posts/writing';
import { createComment } from '@/server/comments/create';
import { deleteComment } from '@/server/comments/writing';
import { hideComment, unhideComment } from '@/server/moderation/hide';
import { likePost, unlikePost } from '@/server/likes/likes';
import { POPULAR_PAGE_SIZE, popularPostsRead, type PopularList, type PopularPage } from '@/server/posts/popular';
import { HOT_WINDOW_S, hotScore } from '@/server/posts/hot';
import { run } from '@/server/platform/reads';
import { resolveChannel } from '@/server/channels/channels';
import { loadLayout } from '@/server/channels/layout';
import { cacheableRoute, canonicalUrl } from '@functions/shell/cache-routes';
import { memberOf, plainMembers, queryPlan, recordingDb, sessionOf, type DemoMember } from './harness';

const CHANNEL = 1;
/** The free board of /starfall/global. */
const BOARD = 12;
const ADMIN = memberOf(1001, 'ADMIN');
const HOUR = 3_600_000;
/** Far after the demo's posts, so that the posts written here are the newest. */
const T = Date.UTC(2100, 0, 1);

let members: DemoMember[];
beforeAll(async () => {
	members = await plainMembers(CHANNEL, 40);
});

const body = { type: 'doc' as const, blocks: [{ type: 'paragraph' as const, children: [{ text: 'A post' }] }] };

async function post(at: number, title = 'Popular test', boardId = BOARD): Promise<number> {
	const input = { boardId, subjectId: null, title, content: body, isPrivate: false, isNotice: false, requestId: crypto.randomUUID() };
	return (await createPost(env.DB, CHANNEL, sessionOf(members[0]!), input, at)).postId;
}

/** `count` likes of the post by different members, at `at`. */
async function like(postId: number, count: number, at: number): Promise<void> {
	for (const member of members.slice(0, count)) await likePost(env.DB, CHANNEL, sessionOf(member), postId, at);
}

async function comment(postId: number, at: number): Promise<number> {
	return (await createComment(env.DB, CHANNEL, sessionOf(members[1]!), postId, { content: 'A comment' }, at)).comment.commentId;
}

async function stored(postId: number): Promise<{ hot: number; created_at: number; like_count: number; comment_count: number }> {
	return (await env.DB.prepare('SELECT hot, created_at, like_count, comment_count FROM posts WHERE id = ?1').bind(postId).first())!;
}

/** The post's stored hot score is the formula's value of its stored counts. */
async function expectHotOfCounts(postId: number): Promise<void> {
	const row = await stored(postId);
	expect(row.hot, `post ${postId}`).toBe(hotScore(row.created_at, row.like_count, row.comment_count));
}

const popularPage = (list: PopularList, after: number | null, db: Db = env.DB): Promise<PopularPage> =>
	run(db, popularPostsRead(db, CHANNEL, list, after));

/** Every page of the list, following `next`. */
async function walk(list: PopularList): Promise<number[][]> {
	const pages: number[][] = [];
	for (let after: number | null = null, guard = 0; guard < 100; guard += 1) {
		const page: PopularPage = await popularPage(list, after);
		expect(page.anchorFound).toBe(true);
		pages.push(page.posts.map((summary) => summary.postId));
		if (page.next === null) return pages;
		after = page.next;
	}
	throw new Error('Popular pages never ended');
}

describe('the hot score', () => {
	it('is the creation time plus a bonus that grows to at most 48 hours, half of it at 10 likes (or 5 comments)', () => {
		expect(hotScore(T, 0, 0)).toBe(T / 1000);
		expect(hotScore(T, 10, 0)).toBe(T / 1000 + HOT_WINDOW_S / 2);
		expect(hotScore(T, 0, 5)).toBe(hotScore(T, 10, 0));
		// Twenty accounts liking one post lift it by 32 hours; no number of them by 48.
		expect(hotScore(T, 20, 0)).toBe(T / 1000 + 32 * 3600);
		expect(hotScore(T, 1_000_000, 1_000_000)).toBeLessThan(T / 1000 + HOT_WINDOW_S);
	});

	it('is stored by a new post and moved, in the same statement as its count, by a like, an unlike, a comment, its deletion, a hide and a show', async () => {
		const postId = await post(T);
		expect((await stored(postId)).hot).toBe(T / 1000);
		await like(postId, 3, T + 1);
		await expectHotOfCounts(postId);
		const first = await comment(postId, T + 2);
		const second = await comment(postId, T + 3);
		await expectHotOfCounts(postId);
		expect((await stored(postId)).hot).toBe(hotScore(T, 3, 2));
		await unlikePost(env.DB, CHANNEL, sessionOf(members[0]!), postId, T + 4);
		await expectHotOfCounts(postId);
		await deleteComment(env.DB, CHANNEL, sessionOf(members[1]!), postId, first, T + 5);
		await expectHotOfCounts(postId);
		await hideComment(env.DB, CHANNEL, ADMIN, second);
		expect((await stored(postId)).hot).toBe(hotScore(T, 2, 0));
		await unhideComment(env.DB, CHANNEL, ADMIN, second);
		expect((await stored(postId)).hot).toBe(hotScore(T, 2, 1));
		// A repeated like (of the two members who still like it) changes neither the count nor the score.
		for (const member of members.slice(1, 3)) await likePost(env.DB, CHANNEL, sessionOf(member), postId, T + 6);
		expect((await stored(postId)).hot).toBe(hotScore(T, 2, 1));
	});

	it('writes no more rows for a like than the count did, and none for a repeated one', async () => {
		const postId = await post(T);
		const measure = async (action: (db: Db) => Promise<unknown>) => {
			const { db, statements } = recordingDb();
			await action(db);
			return statements.reduce((sum, statement) => sum + statement.rowsWritten, 0);
		};
		const liker = sessionOf(members[5]!);
		const liked = await measure((db) => likePost(db, CHANNEL, liker, postId, T + 1));
		const again = await measure((db) => likePost(db, CHANNEL, liker, postId, T + 2));
		const unliked = await measure((db) => unlikePost(db, CHANNEL, liker, postId, T + 3));
		// The post_likes row with its two index entries and the post's row, whose hot score is set in the
		// same row write (4 rows, as before), and the post's entry in each of the two Popular indexes it is
		// in, moved (D1 counts an index entry as a row): 6 rows however many posts, likes or members there are.
		expect({ liked, again, unliked }).toEqual({ liked: expect.any(Number), again: 0, unliked: expect.any(Number) });
		expect(liked).toBe(6);
		expect(unliked).toBeLessThanOrEqual(6);
	});
});

describe('the Popular order', () => {
	it('ranks by the hot score: engagement lifts a post by up to 48 hours, never more', async () => {
		const fresh = await post(T, 'Fresh, no likes');
		const liked = await post(T - 10 * HOUR, 'Ten hours old, ten likes');
		await like(liked, 10, T - 9 * HOUR);
		const oneLike = await post(T - HOUR, 'An hour old, one like');
		await like(oneLike, 1, T - HOUR);
		// 20 likes and 10 comments lift it by 40 hours: still below a post written 50 hours after it.
		const old = await post(T - 50 * HOUR, 'Fifty hours old, much liked');
		await like(old, 20, T - 49 * HOUR);
		for (let i = 0; i < 10; i += 1) await comment(old, T - 48 * HOUR);
		for (const list of [{ kind: 'board', boardId: BOARD }, { kind: 'all' }] as const) {
			const { posts } = await popularPage(list, null);
			const mine = posts.map((summary) => summary.postId).filter((id) => [fresh, liked, oneLike, old].includes(id));
			expect(mine, list.kind).toEqual([liked, oneLike, fresh, old]);
		}
	});

	it('pages by keyset: every listed post once, in the order of (hot, id), the same posts as the newest-first list', async () => {
		// Ties: many posts written in the same second share a hot score, and the id breaks the tie.
		for (let i = 0; i < POPULAR_PAGE_SIZE + 5; i += 1) await post(T + 10 * HOUR);
		const pages = await walk({ kind: 'board', boardId: BOARD });
		const ids = pages.flat();
		const { results } = await env.DB.prepare('SELECT id FROM posts WHERE board_id = ?1 AND board_seq IS NOT NULL ORDER BY hot DESC, id DESC')
			.bind(BOARD)
			.all<{ id: number }>();
		expect(ids).toEqual(results.map((row) => row.id));
		expect(new Set(ids).size).toBe(ids.length);
		expect(pages.slice(0, -1).every((page) => page.length === POPULAR_PAGE_SIZE)).toBe(true);
		const all = (await walk({ kind: 'all' })).flat();
		const listed = await env.DB.prepare('SELECT count(*) AS n FROM posts WHERE channel_id = ?1 AND channel_seq IS NOT NULL')
			.bind(CHANNEL)
			.first<number>('n');
		expect(all).toHaveLength(listed!);
	});

	it('leaves out notices, hidden, deleted and private posts, and another board’s; an after outside the list is reported', async () => {
		const { results } = await env.DB.prepare(
			`SELECT id FROM posts WHERE channel_id = ?1 AND (board_seq IS NULL OR board_id <> ?2) ORDER BY id LIMIT 20`,
		)
			.bind(CHANNEL, BOARD)
			.all<{ id: number }>();
		const shown = new Set((await walk({ kind: 'board', boardId: BOARD })).flat());
		for (const { id } of results) {
			expect(shown.has(id), `post ${id}`).toBe(false);
			expect((await popularPage({ kind: 'board', boardId: BOARD }, id)).anchorFound, `after ${id}`).toBe(false);
		}
		const page = await popularPage({ kind: 'board', boardId: BOARD }, 999_999_999);
		expect(page).toMatchObject({ anchorFound: false, posts: [] });
	});

	it('reads the rows it shows (and one more) from the list’s index, at any depth', async () => {
		const { results } = await env.DB.prepare('SELECT id FROM posts WHERE board_id = ?1 AND board_seq IS NOT NULL ORDER BY hot LIMIT 25')
			.bind(BOARD)
			.all<{ id: number }>();
		// The first page, and a deep one: after the 25th post from the end.
		for (const list of [{ kind: 'board', boardId: BOARD }, { kind: 'all' }] as const) {
			for (const after of [null, results[24]!.id]) {
				const { db, statements } = recordingDb();
				await popularPage(list, after, db);
				const read = statements.reduce((sum, statement) => sum + statement.rowsRead, 0);
				// The page's rows and one more, each with its author, the anchor's row twice (its check and the
				// keyset's start), and a few index pages: never the list's size.
				expect(read, `${list.kind} after ${after}`).toBeLessThanOrEqual(2 * (POPULAR_PAGE_SIZE + 1) + 4);
				// The page's statement walks the list's Popular index in its order (no sort); the anchor's is by id.
				const plan = (await queryPlan(statements[0]!)).join('\n');
				expect(plan).toMatch(list.kind === 'board' ? /SEARCH p USING INDEX posts_board_hot/ : /SEARCH p USING INDEX posts_channel_hot/);
				expect(plan).not.toMatch(/TEMP B-TREE/);
			}
		}
	});
});

describe('the Popular pages in the edge cache', () => {
	async function canonical(path: string): Promise<string | null> {
		const channel = (await resolveChannel(env.DB, 'starfall', 'global'))!;
		const url = new URL(`http://localhost/starfall/global${path}`);
		return canonicalUrl(url, cacheableRoute(url)!, channel, await loadLayout(env.DB, channel))?.toString() ?? null;
	}
	const ROOT = 'http://localhost/starfall/global';

	it('keys a Popular page by its list and its after alone: page and category are not read, a bad after is dropped', async () => {
		expect(await canonical('/boards?sort=popular')).toBe(`${ROOT}/boards?sort=popular`);
		expect(await canonical('/boards?sort=popular&page=3&after=12')).toBe(`${ROOT}/boards?after=12&sort=popular`);
		expect(await canonical('/boards/12?subjectId=121&sort=popular&page=2')).toBe(`${ROOT}/boards/12?sort=popular`);
		expect(await canonical('/boards/12?sort=popular&after=x')).toBe(`${ROOT}/boards/12?sort=popular`);
		expect(await canonical('/boards/12?sort=popular&after=5&after=6')).toBe(`${ROOT}/boards/12?after=5&sort=popular`);
		// Any other sort is the newest-first list, which reads no after.
		expect(await canonical('/boards/12?sort=oldest&after=5&page=2')).toBe(`${ROOT}/boards/12?page=2`);
		// A private board shows no list in either order: one key.
		expect(await canonical('/boards/17?sort=popular&after=5')).toBe(`${ROOT}/boards/17`);
	});
});
