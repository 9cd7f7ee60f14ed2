/**
 * Comment likes and the Best order (docs/reference/best-comments.md): the rules, idempotence and
 * exact counts, the rows written per like, refusals and bad input that change nothing, the rate
 * limit, the Best order and Best comments with chosen like counts, and the rows a Best page reads.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import {
	call,
	freshPost,
	likeComments,
	memberApi,
	memberOf,
	publicApi,
	queryPlan,
	recordingDb,
	rowCost,
	signIn,
	startOfRateWindow,
	takeSentNotifications,
	type Answer,
} from './harness';
import {
	LIKED_COMMENTS_READ,
	likeComment,
	likedCommentsOf,
	likedCommentsOfPostSql,
	unlikeComment,
	type CommentLikeState,
} from '@/server/likes/comment-likes';
import { listComments } from '@/server/comments/pages';
import { getPostWithComments } from '@/server/loaders/post-page';
import { BEST_REPLIES, BEST_THREADS } from '@/server/comments/best';
import type { CommentItem } from '@/server/comments/comments';
import { GUEST, type Viewer } from '@/server/visibility/visibility';
import { ROUND_TRIP_BUDGET } from '../round-trip-budget';

const ADMIN_VIEWER: Viewer = { kind: 'member', memberId: 1001, admin: true };

const MEMBER = memberApi();
const PUBLIC = publicApi();
const LIKER = 1014;

/** Comments written directly on `postId` by member 1002 (replies under `parentId`), with their like counts; the post's count follows. */
async function addComments(postId: number, likes: number[], parentId: number | null = null, at = 1_000_000): Promise<number[]> {
	const ids: number[] = [];
	for (const [i, count] of likes.entries()) {
		const row = await env.DB.prepare(
			`INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at, like_count) VALUES (1, ?1, ?2, 1002, ?3, ?4, ?5) RETURNING id`,
		)
			.bind(postId, parentId, `comment ${i}`, at + i, count)
			.first<{ id: number }>();
		ids.push(row!.id);
	}
	await env.DB.prepare('UPDATE posts SET comment_count = comment_count + ?2 WHERE id = ?1').bind(postId, likes.length).run();
	return ids;
}

/** Everything a comment like could change, anywhere. */
const snapshot = () =>
	env.DB.prepare(
		`SELECT (SELECT count(*) FROM comment_likes) AS likes, (SELECT sum(like_count) FROM comments) AS counted,
		 (SELECT content_version || list_versions FROM channels WHERE id = 1) AS versions, (SELECT count(*) FROM notifications) AS notifications`,
	).first();

async function counts(commentId: number): Promise<{ likeCount: number; likes: number }> {
	const row = await env.DB.prepare(
		'SELECT like_count, (SELECT count(*) FROM comment_likes WHERE comment_id = ?1) AS likes FROM comments WHERE id = ?1',
	)
		.bind(commentId)
		.first<{ like_count: number; likes: number }>();
	return { likeCount: row!.like_count, likes: row!.likes };
}

const at = (postId: number, commentId: number | string) => `${MEMBER}/posts/${postId}/comments/${commentId}/like`;
const like = (postId: number, commentId: number, cookie: string) => call(at(postId, commentId), { method: 'PUT', cookie });
const unlike = (postId: number, commentId: number, cookie: string) => call(at(postId, commentId), { method: 'DELETE', cookie });
const state = (answer: Answer) => answer.body['content'] as CommentLikeState;
const ids = (items: CommentItem[]) => items.map((item) => item.commentId);

/** 100 new members of the global community, created in one statement. */
let likers: number[] = [];
beforeAll(async () => {
	const created = await env.DB.prepare(
		`INSERT INTO members (channel_id, nickname, provider, recent_provider, joined_at)
		 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
		 SELECT 1, 'comment liker ' || i, 'GOOGLE', 'GOOGLE', 0 FROM n RETURNING id`,
	).all<{ id: number }>();
	likers = created.results.map((row) => row.id);
});

describe('liking a comment', () => {
	it('likes and unlikes, answers the same when asked twice, moves no cache version and notifies nobody', async () => {
		const postId = await freshPost();
		const [commentId] = await addComments(postId, [0]);
		const cookie = await signIn(LIKER);
		takeSentNotifications();
		const before = await snapshot();
		expect(state(await like(postId, commentId!, cookie))).toEqual({ liked: true, likeCount: 1 });
		expect(state(await like(postId, commentId!, cookie))).toEqual({ liked: true, likeCount: 1 });
		expect(state(await like(postId, commentId!, await signIn(1015)))).toEqual({ liked: true, likeCount: 2 });
		expect(state(await unlike(postId, commentId!, cookie))).toEqual({ liked: false, likeCount: 1 });
		expect(state(await unlike(postId, commentId!, cookie))).toEqual({ liked: false, likeCount: 1 });
		expect(await counts(commentId!)).toEqual({ likeCount: 1, likes: 1 });
		const after = await snapshot();
		expect(after?.['versions']).toBe(before?.['versions']);
		expect(after?.['notifications']).toBe(before?.['notifications']);
		expect(takeSentNotifications()).toEqual([]);
	});

	it("lets a member like their own comment, as a post's like", async () => {
		const postId = await freshPost();
		const [commentId] = await addComments(postId, [0]);
		expect(state(await like(postId, commentId!, await signIn(1002)))).toEqual({ liked: true, likeCount: 1 });
	});

	it('keeps the count exact: 100 likes of one member at once leave 1, 60 members at once leave 60', async () => {
		const postId = await freshPost();
		const [commentId] = await addComments(postId, [0]);
		await Promise.all(Array.from({ length: 100 }, () => likeComment(env.DB, 1, memberOf(likers[0]!), { postId, commentId: commentId! }, Date.now())));
		expect(await counts(commentId!)).toEqual({ likeCount: 1, likes: 1 });
		const members = likers.slice(0, 60);
		await Promise.all(members.map((id) => likeComment(env.DB, 1, memberOf(id), { postId, commentId: commentId! }, Date.now())));
		expect(await counts(commentId!)).toEqual({ likeCount: 60, likes: 60 });
		await Promise.all(members.map((id) => unlikeComment(env.DB, 1, memberOf(id), { postId, commentId: commentId! }, Date.now())));
		expect(await counts(commentId!)).toEqual({ likeCount: 0, likes: 0 });
	});

	it('writes at most 5 rows per like and unlike and none when repeated, whatever the comment already has', async () => {
		const postId = await freshPost();
		const [commentId] = await addComments(postId, [0]);
		const ids = { postId, commentId: commentId! };
		await Promise.all(likers.slice(0, 40).map((id) => likeComment(env.DB, 1, memberOf(id), ids, Date.now())));
		const member = memberOf(LIKER);
		const liked = await rowCost((db) => likeComment(db, 1, member, ids, Date.now()));
		const likedAgain = await rowCost((db) => likeComment(db, 1, member, ids, Date.now()));
		const unliked = await rowCost((db) => unlikeComment(db, 1, member, ids, Date.now()));
		const unlikedAgain = await rowCost((db) => unlikeComment(db, 1, member, ids, Date.now()));
		// The comment_likes row and its two index entries, the comment's row and its entry in comments_best.
		for (const cost of [liked, unliked]) expect(cost.written).toBeGreaterThan(0);
		for (const cost of [liked, unliked]) expect(cost.written).toBeLessThanOrEqual(5);
		expect([likedAgain.written, unlikedAgain.written]).toEqual([0, 0]);
		for (const cost of [liked, likedAgain, unliked, unlikedAgain]) expect(cost.read).toBeLessThanOrEqual(15);
	});
});

describe('what may be liked', () => {
	let postId = 0;
	let visible = 0;
	let deleted = 0;
	let hidden = 0;
	let otherPosts = 0;
	beforeAll(async () => {
		postId = await freshPost();
		[visible = 0, deleted = 0, hidden = 0] = await addComments(postId, [0, 0, 0]);
		await env.DB.prepare('UPDATE comments SET deleted_at = 1 WHERE id = ?1').bind(deleted).run();
		await env.DB.prepare('UPDATE comments SET hidden_by_admin = 1 WHERE id = ?1').bind(hidden).run();
		[otherPosts = 0] = await addComments(await freshPost(), [0]);
	});

	/** Each of PUT and DELETE on `url` as `cookie` answers `code`, and nothing changes. */
	async function refused(url: string, cookie: string | undefined, code: number): Promise<void> {
		const before = await snapshot();
		for (const method of ['PUT', 'DELETE']) {
			const answer = await call(url, { method, ...(cookie ? { cookie } : {}) });
			expect(answer.code, `${method} ${JSON.stringify(answer.body)}`).toBe(code);
		}
		expect(await snapshot()).toEqual(before);
	}

	it('refuses a deleted or hidden comment (CommentNotLikeable), an administrator too', async () => {
		await refused(at(postId, deleted), await signIn(LIKER), -4091494);
		await refused(at(postId, hidden), await signIn(LIKER), -4091494);
		await refused(at(postId, hidden), await signIn(1001), -4091494);
	});

	it("answers another post's comment and an unknown one as not found", async () => {
		await refused(at(postId, otherPosts), await signIn(LIKER), -4041406);
		await refused(at(postId, 987654321), await signIn(LIKER), -4041406);
	});

	it('answers a post the member may not read as not found, asks a guest to log in, gives a banned member the ban', async () => {
		const privatePost = await freshPost(1007, { isPrivate: true });
		const [mine] = await addComments(privatePost, [0]);
		await refused(at(privatePost, mine!), await signIn(LIKER), -4041403);
		await refused(at(postId, visible), undefined, -4011401);
		await refused(at(postId, visible), await signIn(1038), -4031452);
	});

	it.each([
		['a malformed comment id', () => ({ method: 'PUT', url: at(postId, 'abc') }), -4001400],
		['a zero comment id', () => ({ method: 'PUT', url: at(postId, 0) }), -4001400],
		['a comment id beyond 2^53', () => ({ method: 'DELETE', url: at(postId, '99999999999999999') }), -4001400],
		['a query string', () => ({ method: 'PUT', url: `${at(postId, visible)}?liked=true` }), -4001400],
		['a JSON body', () => ({ method: 'PUT', url: at(postId, visible), body: { liked: true } }), -4001400],
		['GET', () => ({ method: 'GET', url: at(postId, visible) }), -4051401],
		['POST', () => ({ method: 'POST', url: at(postId, visible) }), -4051401],
		['another site', () => ({ method: 'PUT', url: at(postId, visible), headers: { origin: 'https://evil.example' } }), -4031401],
	] as const)('bad input: %s is refused in the envelope and changes nothing', async (_name, ask, code) => {
		const before = await snapshot();
		const { method, url, ...rest } = ask() as { method: string; url: string; body?: unknown; headers?: Record<string, string> };
		const answer = await call(url, { method, cookie: await signIn(LIKER), ...rest });
		expect(answer.code, JSON.stringify(answer.body)).toBe(code);
		expect(answer.status).toBeLessThan(500);
		expect(await snapshot()).toEqual(before);
	});

	it('holds one member to the like rate limit (30 a minute): the 31st like is refused and writes nothing', async () => {
		const busy = await freshPost();
		const many = await addComments(busy, Array(31).fill(0) as number[]);
		const cookie = await signIn(1016);
		await startOfRateWindow();
		const answers: number[] = [];
		for (const commentId of many) answers.push((await like(busy, commentId, cookie)).code);
		expect(answers.slice(0, 30)).toEqual(Array(30).fill(0));
		expect(answers[30]).toBe(-4291401);
		expect(await counts(many[30]!)).toEqual({ likeCount: 0, likes: 0 });
	});
});

describe('the Best order', () => {
	it('orders top-level comments by likes, ties oldest first, with their first replies under them', async () => {
		const postId = await freshPost();
		const [a, b, c, d] = await addComments(postId, [2, 5, 5, 0]);
		const replies = await addComments(postId, [9, 0, 0, 0, 0], b!);
		const page = await listComments(env.DB, 1, postId, GUEST, null, 'best');
		expect(ids(page.comments)).toEqual([b!, ...replies.slice(0, BEST_REPLIES), c!, a!, d!]);
		expect(page.comments[0]).toMatchObject({ moreReplies: true, likeCount: 5 });
		expect(page.comments.find((item) => item.commentId === c)).not.toHaveProperty('moreReplies');
		expect(page.nextAfter).toBeNull();
		// Oldest first is unchanged.
		expect(ids((await listComments(env.DB, 1, postId, GUEST, null)).comments)).toEqual([a!, b!, ...replies, c!, d!]);
	});

	it('pages by keyset after a top-level comment, through ties, and refuses a made-up anchor', async () => {
		const postId = await freshPost();
		const likes = Array.from({ length: 45 }, (_, i) => i % 3);
		const made = await addComments(postId, likes);
		const expected = made.map((id, i) => ({ id, likes: likes[i]! })).sort((x, y) => y.likes - x.likes || x.id - y.id);
		const seen: number[] = [];
		let after: number | null = null;
		do {
			const page: Awaited<ReturnType<typeof listComments>> = await listComments(env.DB, 1, postId, GUEST, after, 'best');
			expect(page.comments.length).toBeLessThanOrEqual(BEST_THREADS);
			seen.push(...ids(page.comments));
			after = page.nextAfter;
		} while (after !== null);
		expect(seen).toEqual(expected.map((row) => row.id));
		await expect(listComments(env.DB, 1, postId, GUEST, 987654321, 'best')).rejects.toMatchObject({ codeName: 'CommentNotFound' });
	});

	it('reads a bounded number of rows through comments_best, however many comments the post has', async () => {
		const postId = await freshPost();
		const made = await addComments(
			postId,
			Array.from({ length: 600 }, (_, i) => i % 7),
		);
		for (const top of made.slice(0, 20)) await addComments(postId, [0, 0, 0, 0, 0, 0], top);
		const { db, statements } = recordingDb();
		const page = await listComments(db, 1, postId, GUEST, null, 'best');
		const later = await listComments(db, 1, postId, GUEST, page.nextAfter, 'best');
		expect(later.comments.length).toBeGreaterThan(0);
		for (const statement of statements) {
			// 21 threads and up to 4 replies of each, their authors and the replies' answered comments, the
			// Best comments and the post: about 210 rows here, with 600 comments as with 60.
			expect(statement.rowsRead).toBeLessThanOrEqual(300);
			const plan = (await queryPlan(statement)).join('\n');
			expect(plan).toContain('comments_best');
			expect(plan).not.toMatch(/SCAN c\b|SCAN comments\b/);
		}
	});

	it('answers the comments API in the Best order, and refuses an unknown order (CommentOrderInvalid)', async () => {
		const postId = await freshPost();
		const [a, b] = await addComments(postId, [0, 1]);
		const best = await call(`${PUBLIC}/posts/${postId}/comments?sort=best`);
		expect(ids((best.body['content'] as { comments: CommentItem[] }).comments)).toEqual([b!, a!]);
		const bad = await call(`${PUBLIC}/posts/${postId}/comments?sort=top`);
		expect([bad.status, bad.code]).toEqual([400, -4001495]);
	});
});

describe("a member's likes on every page of the comments API", () => {
	/** The ids of the comments marked `liked` in a page the comments API answered. */
	const likedIn = (answer: Answer) =>
		(answer.body['content'] as { comments: CommentItem[] }).comments
			.filter((item) => item.readable && item.liked === true)
			.map((item) => item.commentId);

	it("marks the comments they like on a later page (oldest first and Best), in the read's budget, and nothing for a guest or another member", async () => {
		const postId = await freshPost();
		// A first page of 100 and 30 more (oldest first); in the Best order, 20 threads a page.
		const made = await addComments(postId, Array(130).fill(0) as number[]);
		const cookie = await signIn(LIKER);
		const later = [made[104]!, made[120]!];
		for (const commentId of [made[3]!, ...later]) expect((await like(postId, commentId, cookie)).code).toBe(0);
		const first = await call(`${PUBLIC}/posts/${postId}/comments`, { cookie });
		const nextAfter = (first.body['content'] as { nextAfter: number }).nextAfter;
		expect(likedIn(first)).toEqual([made[3]]);
		const second = await call(`${PUBLIC}/posts/${postId}/comments?after=${nextAfter}`, { cookie });
		expect(likedIn(second)).toEqual(later);
		// The session is read first, then the page with the member's marks in its one query: the read's budget.
		expect(second.trips.depth).toBeLessThanOrEqual(ROUND_TRIP_BUDGET.read.signedIn);
		expect(second.headers.get('Cache-Control')).toBe('private, no-store');
		// The Best order's later pages too: the liked ones are the most liked, so the first page of 20; the rest follow.
		const bestFirst = await call(`${PUBLIC}/posts/${postId}/comments?sort=best`, { cookie });
		expect(likedIn(bestFirst).sort((x, y) => x - y)).toEqual([made[3]!, ...later].sort((x, y) => x - y));
		await env.DB.prepare('UPDATE comments SET like_count = 0 WHERE post_id = ?1').bind(postId).run();
		let after = (await call(`${PUBLIC}/posts/${postId}/comments?sort=best`, { cookie })).body['content'] as { nextAfter: number | null };
		const bestLiked: number[] = [];
		while (after.nextAfter !== null) {
			const page = await call(`${PUBLIC}/posts/${postId}/comments?sort=best&after=${after.nextAfter}`, { cookie });
			bestLiked.push(...likedIn(page));
			after = page.body['content'] as { nextAfter: number | null };
		}
		expect(bestLiked).toEqual(later);
		// A guest's page (the edge cache's) and another member's carry no one's likes.
		expect(likedIn(await call(`${PUBLIC}/posts/${postId}/comments?after=${nextAfter}`))).toEqual([]);
		expect(likedIn(await call(`${PUBLIC}/posts/${postId}/comments?after=${nextAfter}`, { cookie: await signIn(1015) }))).toEqual([]);
	});
});

describe("the post's liked comments a member's page made from the guest's reads", () => {
	/** The member's likes of the post's comments as the session's batch reads them, and the rows that cost. */
	async function likedRead(postId: number): Promise<{ liked: number[] | null; rowsRead: number }> {
		const { db, statements } = recordingDb();
		const row = await db
			.prepare(`SELECT ${likedCommentsOfPostSql('?1', '?2')} AS liked`)
			.bind(LIKER, postId)
			.first<{ liked: string }>();
		return { liked: likedCommentsOf(row?.liked), rowsRead: statements.reduce((sum, statement) => sum + statement.rowsRead, 0) };
	}

	const like = (postId: number, ids: number[]) => likeComments(LIKER, postId, ids);

	it(`lists them ascending, reads at most ${LIKED_COMMENTS_READ + 1} index entries however many they like, and says when they are past the bound`, async () => {
		const postId = await freshPost();
		const made = await addComments(
			postId,
			Array.from({ length: LIKED_COMMENTS_READ + 40 }, () => 0),
		);
		expect(await likedRead(postId)).toMatchObject({ liked: [] });
		await like(postId, made.slice(0, 3).reverse());
		expect((await likedRead(postId)).liked).toEqual(made.slice(0, 3));
		await like(postId, made.slice(3, LIKED_COMMENTS_READ));
		const atBound = await likedRead(postId);
		expect(atBound.liked).toEqual(made.slice(0, LIKED_COMMENTS_READ));
		await like(postId, made.slice(LIKED_COMMENTS_READ));
		const past = await likedRead(postId);
		// Past the bound: the full render answers (functions/shell/member-pages.ts's memberPageChoice).
		expect(past.liked).toBeNull();
		// The index's entries up to one past the bound, however many more they like.
		expect(past.rowsRead).toBeLessThanOrEqual(LIKED_COMMENTS_READ + 2);
		const plan = (
			await queryPlan({ sql: `SELECT ${likedCommentsOfPostSql('?1', '?2')}`, params: [LIKER, postId], rowsRead: 0, rowsWritten: 0 })
		).join('\n');
		expect(plan).toContain('USING COVERING INDEX comment_likes_by_member');
	});
});

describe('Best comments', () => {
	/** The Best comments of a first page as `viewer` sees them. */
	async function bestOf(postId: number, viewer = GUEST): Promise<number[]> {
		return ids((await getPostWithComments(env.DB, 1, postId, viewer)).best);
	}

	it('marks up to 3 top-level comments with at least 3 likes on a post of at least 10 comments, most liked first', async () => {
		const postId = await freshPost();
		const made = await addComments(postId, [3, 0, 8, 1, 2, 3, 9, 0, 4]);
		// Nine comments: none yet.
		expect(await bestOf(postId)).toEqual([]);
		await addComments(postId, [12], made[1]!); // a reply is never marked, but counts toward the ten
		expect(await bestOf(postId)).toEqual([made[6], made[2], made[8]]);
		// A hidden or deleted one is not marked, for an administrator either; the next takes its place.
		await env.DB.prepare('UPDATE comments SET hidden_by_admin = 1 WHERE id = ?1').bind(made[6]).run();
		await env.DB.prepare('UPDATE comments SET deleted_at = 1 WHERE id = ?1').bind(made[2]).run();
		expect(await bestOf(postId, ADMIN_VIEWER)).toEqual([made[8], made[0], made[5]]);
	});
});
