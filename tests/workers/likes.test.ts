import { beforeAll, describe, expect, it } from 'vitest';
import {
	call,
	deletingFirst,
	memberApi,
	postActionBadInput,
	postWhere,
	recordingDb,
	refusedEach,
	rowCost,
	signIn,
	KOREAN,
	type Answer,
	memberOf,
} from './harness';
import { communityDb, inLayout, LAYOUTS } from './layouts';
import { getLikeState, likedByTokenRead, likePost, unlikePost, type LikeState } from '@/server/likes/likes';
import { run, together } from '@/server/platform/reads';
import { resolveChannel } from '@/server/channels/channels';
import { requestSession } from '@/server/sign-in/request-session';
import { hashToken } from '@/server/platform/tokens';
import { listMyLikes } from '@/server/members/activity';
import { api } from '@functions/api/app';

const MEMBER = memberApi();
const ADMIN = 1001;
const TEMPORARILY_BANNED = 1038;

/** A member as the session gives it to the services. */

/** A new visible post of the free board (12) by `authorId`, with no likes. */
async function freshPost(authorId = 1007, overrides: { isPrivate?: boolean; boardId?: number } = {}): Promise<number> {
	const row = await communityDb()
		.prepare(
			`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, is_private, created_at)
		 VALUES (1, ?1, ?2, 'Likes test', '{"type":"doc","blocks":[]}', '', ?3, ?4) RETURNING id`,
		)
		.bind(overrides.boardId ?? 12, authorId, overrides.isPrivate ? 1 : 0, Date.now())
		.first<{ id: number }>();
	return row!.id;
}

/** The post's stored count and the likes it really has. */
async function counts(postId: number): Promise<{ likeCount: number; likes: number }> {
	const row = await communityDb()
		.prepare('SELECT like_count, (SELECT count(*) FROM post_likes WHERE post_id = ?1) AS likes FROM posts WHERE id = ?1')
		.bind(postId)
		.first<{ like_count: number; likes: number }>();
	return { likeCount: row!.like_count, likes: row!.likes };
}

/** Everything a like could change, anywhere. */
async function snapshot() {
	return communityDb()
		.prepare(
			'SELECT (SELECT count(*) FROM post_likes) AS likes, (SELECT sum(like_count) FROM posts) AS counted, (SELECT content_version FROM channels WHERE id = 1) AS version',
		)
		.first();
}

const like = (postId: number, cookie?: string, channel = MEMBER) =>
	call(`${channel}/posts/${postId}/like`, { method: 'PUT', ...(cookie ? { cookie } : {}) });
const unlike = (postId: number, cookie?: string) => call(`${MEMBER}/posts/${postId}/like`, { method: 'DELETE', ...(cookie ? { cookie } : {}) });
const state = (postId: number, cookie?: string) => call(`${MEMBER}/posts/${postId}/like`, { ...(cookie ? { cookie } : {}) });
const content = (answer: Answer) => answer.body['content'] as LikeState;

describe('D1 batches keep changes() of the statement before', () => {
	it('moves the count only after an INSERT or DELETE that changed a row, in one batch', async () => {
		const postId = await freshPost();
		const insert = () =>
			communityDb()
				.prepare('INSERT INTO post_likes (post_id, member_id, channel_id, created_at) VALUES (?1, 1002, 1, 0) ON CONFLICT DO NOTHING')
				.bind(postId);
		const add = () => communityDb().prepare('UPDATE posts SET like_count = like_count + 1 WHERE id = ?1 AND changes() = 1').bind(postId);
		// A statement that changes many rows first: changes() must not leak across to the guard.
		const noise = () => communityDb().prepare('UPDATE channels SET list_top = list_top WHERE id > 0');
		const first = await communityDb().batch([noise(), insert(), add()]);
		expect([first[1]!.meta.changes, first[2]!.meta.changes]).toEqual([1, 1]);
		const again = await communityDb().batch([noise(), insert(), add()]);
		expect([again[1]!.meta.changes, again[2]!.meta.changes]).toEqual([0, 0]);
		const remove = () => communityDb().prepare('DELETE FROM post_likes WHERE post_id = ?1 AND member_id = 1002').bind(postId);
		const subtract = () => communityDb().prepare('UPDATE posts SET like_count = like_count - 1 WHERE id = ?1 AND changes() = 1').bind(postId);
		expect((await communityDb().batch([noise(), remove(), subtract()]))[2]!.meta.changes).toBe(1);
		expect((await communityDb().batch([noise(), remove(), subtract()]))[2]!.meta.changes).toBe(0);
		expect(await counts(postId)).toEqual({ likeCount: 0, likes: 0 });
	});
});

describe.each(LAYOUTS)('$name', (layout) => {
	inLayout(layout);

	describe('liking and unliking', () => {
		it('likes, reads the state, unlikes, and answers the same when asked twice', async () => {
			const postId = await freshPost();
			const cookie = await signIn(1003);
			expect(content(await state(postId, cookie))).toEqual({ liked: false, likeCount: 0 });
			const first = await like(postId, cookie);
			expect(first.code, JSON.stringify(first.body)).toBe(0);
			expect(content(first)).toEqual({ liked: true, likeCount: 1 });
			expect(content(await like(postId, cookie))).toEqual({ liked: true, likeCount: 1 });
			expect(content(await state(postId, cookie))).toEqual({ liked: true, likeCount: 1 });
			// Another member sees the count and their own state.
			expect(content(await state(postId, await signIn(1004)))).toEqual({ liked: false, likeCount: 1 });
			expect(content(await unlike(postId, cookie))).toEqual({ liked: false, likeCount: 0 });
			expect(content(await unlike(postId, cookie))).toEqual({ liked: false, likeCount: 0 });
			expect(await counts(postId)).toEqual({ likeCount: 0, likes: 0 });
		});

		it("lets a member like their own post (a like counts each member once), and doesn't bump the content version", async () => {
			const postId = await freshPost(1005);
			const before = await snapshot();
			expect(content(await like(postId, await signIn(1005)))).toEqual({ liked: true, likeCount: 1 });
			expect((await snapshot())?.['version']).toBe(before?.['version']);
		});

		it('runs no middleware of another router: nothing is mounted on every path under posts/*', () => {
			// The writing router forgets the channel after a write on its own handlers, so router order does not matter.
			expect(api.routes.filter((route) => route.method === 'ALL' && route.path.startsWith('/v1/:domain/:slug/posts'))).toEqual([]);
		});

		it("shows a new like on the member's My Page likes tab, newest first", async () => {
			const memberId = 1006;
			const postId = await freshPost(1007);
			expect((await listMyLikes(communityDb(), 1, memberId, 1)).items.map((item) => item.postId)).not.toContain(postId);
			expect((await like(postId, await signIn(memberId))).code).toBe(0);
			const page = await listMyLikes(communityDb(), 1, memberId, 1);
			expect(page.items[0]).toMatchObject({ postId, likeCount: 1 });
			await unlike(postId, await signIn(memberId));
			expect((await listMyLikes(communityDb(), 1, memberId, 1)).items.map((item) => item.postId)).not.toContain(postId);
		});
	});

	describe("the post page's like state", () => {
		it("is read with the session's row in one D1 batch, from the session's own member, bound to the channel, reading at most one like", async () => {
			const postId = await freshPost();
			const member = memberOf(1012);
			const cookie = await signIn(member.userId);
			const global = (await resolveChannel(communityDb(), 'starfall', 'global'))!;
			const ask = async (asked = cookie) => {
				const { db, statements } = recordingDb(communityDb());
				const request = new Request(`http://localhost/starfall/global/posts/${postId}`, { headers: { cookie: asked } });
				const { session, read } = await requestSession(db, global, request, (tokenHash) =>
					together({ ...(tokenHash !== null && { liked: likedByTokenRead(db, global.id, tokenHash, postId) }) }),
				);
				const liked = read?.liked ?? null;
				return { session: session.kind, liked, batches: statements.length, likeRowsRead: statements[1]?.rowsRead ?? 0 };
			};
			expect(await ask()).toMatchObject({ session: 'member', liked: false, batches: 2 });
			await likePost(communityDb(), 1, member, postId, Date.now());
			const liked = await ask();
			expect(liked).toMatchObject({ session: 'member', liked: true, batches: 2 });
			expect(liked.likeRowsRead).toBeLessThanOrEqual(3);
			// Another member's session does not see it; a guest's page makes no such read.
			expect(await ask(await signIn(1013))).toMatchObject({ session: 'member', liked: false });
			expect(await ask('')).toMatchObject({ session: 'guest', liked: null, batches: 0 });
			// The same token asked under another channel finds nothing.
			const hash = await hashToken(cookie.slice(cookie.indexOf('=') + 1));
			expect(await run(communityDb(), likedByTokenRead(communityDb(), KOREAN.id, hash, postId))).toBe(false);
			expect(await run(communityDb(), likedByTokenRead(communityDb(), 1, hash, postId))).toBe(true);
			await unlikePost(communityDb(), 1, member, postId);
			expect((await ask()).liked).toBe(false);
		});
	});

	describe('who may like what', () => {
		const LIKER = 1014;
		const methods = ['GET', 'PUT', 'DELETE'] as const;

		/** Asks each method for the post as `cookie`; every answer must be `code`, and nothing changes. */
		const refusedEverywhere = (postId: number, cookie: string | undefined, code: number, channel = MEMBER): Promise<Answer[]> =>
			refusedEach(`${channel}/posts/${postId}/like`, methods, cookie, code, snapshot);

		it('asks a guest to log in', async () => {
			await refusedEverywhere(await freshPost(), undefined, -4011401);
		});

		it('gives a banned member the ban', async () => {
			const answers = await refusedEverywhere(await freshPost(), await signIn(TEMPORARILY_BANNED), -4031452);
			expect(answers[1]!.body['ban']).toMatchObject({ kind: 'TEMPORARY' });
		});

		it("answers another channel's post as not found", async () => {
			const korean = await postWhere(
				'deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND board_id IN (SELECT id FROM boards WHERE is_public = 1)',
				KOREAN.id,
			);
			await refusedEverywhere(korean, await signIn(LIKER), -4041403);
			// The same post under its own community, by a Korean member, is fine.
			expect((await like(korean, await signIn(2007, KOREAN), memberApi(KOREAN))).code).toBe(0);
		});

		it('answers a private post of someone else as not found; its author and an administrator may like it', async () => {
			const postId = await freshPost(1007, { isPrivate: true });
			await refusedEverywhere(postId, await signIn(LIKER), -4041403);
			expect(content(await like(postId, await signIn(1007)))).toEqual({ liked: true, likeCount: 1 });
			expect(content(await like(postId, await signIn(ADMIN)))).toEqual({ liked: true, likeCount: 2 });
		});

		it('answers a deleted post as not found, to everyone', async () => {
			const postId = await postWhere('deleted_at IS NOT NULL');
			await refusedEverywhere(postId, await signIn(LIKER), -4041403);
			await refusedEverywhere(postId, await signIn(ADMIN), -4041403);
		});

		it('answers a hidden post as not found to members; an administrator reads it and may like it', async () => {
			const postId = await postWhere('hidden_by_admin = 1 AND deleted_at IS NULL');
			await refusedEverywhere(postId, await signIn(LIKER), -4041403);
			expect((await state(postId, await signIn(ADMIN))).code).toBe(0);
		});

		it("answers a private board's post as not found to a member", async () => {
			const postId = await postWhere(
				'deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND board_id IN (SELECT id FROM boards WHERE is_public = 0)',
			);
			await refusedEverywhere(postId, await signIn(LIKER), -4041403);
		});

		it('refuses a like of a post deleted between the check and the write', async () => {
			const postId = await freshPost();
			const member = memberOf(LIKER);
			// The batch re-checks the state it read: delete the post while the like is on its way.
			const racing = deletingFirst(postId, communityDb());
			await expect(likePost(racing, 1, member, postId, Date.now())).rejects.toMatchObject({ codeName: 'PostNotFound' });
			expect(await counts(postId)).toEqual({ likeCount: 0, likes: 0 });
		});
	});
});

describe('exact under concurrency', () => {
	/** 500 new members of the global community, created in one batch. */
	let likers: number[] = [];
	beforeAll(async () => {
		const [created] = await communityDb().batch([
			communityDb().prepare(
				`INSERT INTO members (channel_id, nickname, provider, recent_provider, joined_at)
				 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
				 SELECT 1, 'liker ' || i, 'GOOGLE', 'GOOGLE', 0 FROM n RETURNING id`,
			),
		]);
		likers = (created!.results as { id: number }[]).map((row) => row.id);
		expect(likers).toHaveLength(500);
	});

	// The service, not the route: the route counts every request against the `like` rate limit
	// (30 a minute per member and per address), which would refuse all but the first 30 and test
	// the limiter instead of the count. The rate limit has its own tests (abuse-limits.test.ts).
	it('leaves one like and a count of 1 after 200 concurrent likes by one member', async () => {
		const postId = await freshPost();
		const member = memberOf(likers[0]!);
		const answers = await Promise.all(Array.from({ length: 200 }, () => likePost(communityDb(), 1, member, postId, Date.now())));
		expect(answers.every((answer) => answer.liked)).toBe(true);
		expect(await counts(postId)).toEqual({ likeCount: 1, likes: 1 });
		const unlikes = await Promise.all(Array.from({ length: 200 }, () => unlikePost(communityDb(), 1, member, postId)));
		expect(unlikes.every((answer) => !answer.liked)).toBe(true);
		expect(await counts(postId)).toEqual({ likeCount: 0, likes: 0 });
	});

	it('leaves 500 likes and a count of 500 when 500 members like at once', async () => {
		const postId = await freshPost();
		await Promise.all(likers.map((id) => likePost(communityDb(), 1, memberOf(id), postId, Date.now())));
		expect(await counts(postId)).toEqual({ likeCount: 500, likes: 500 });
		expect(await getLikeState(communityDb(), 1, memberOf(likers[499]!), postId)).toEqual({ liked: true, likeCount: 500 });
	});

	it('keeps the count equal to the likes through concurrent like and unlike storms', async () => {
		const postId = await freshPost();
		// A deterministic shuffle of 60 members each liking and unliking a few times, all at once (3 rounds of 200).
		let seed = 7;
		const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
		for (let round = 0; round < 3; round += 1) {
			const actions = Array.from({ length: 200 }, () => {
				const member = memberOf(likers[next() % 60]!);
				return next() % 2 === 0 ? () => likePost(communityDb(), 1, member, postId, Date.now()) : () => unlikePost(communityDb(), 1, member, postId);
			});
			await Promise.all(actions.map((action) => action()));
			const after = await counts(postId);
			expect(after.likeCount).toBe(after.likes);
			expect(after.likes).toBeLessThanOrEqual(60);
		}
	});

	it('leaves one like after concurrent likes through the route, within the rate limit', async () => {
		const postId = await freshPost();
		const cookie = await signIn(1010);
		const answers = await Promise.all(Array.from({ length: 10 }, () => like(postId, cookie)));
		expect(answers.map((answer) => answer.code)).toEqual(Array(10).fill(0));
		expect(await counts(postId)).toEqual({ likeCount: 1, likes: 1 });
	});

	it('writes a bounded number of rows per like and unlike, and reads no list of likes', async () => {
		// A post with 500 likes already: an action costs the same as on a post with none.
		const postId = await freshPost();
		await Promise.all(likers.map((id) => likePost(communityDb(), 1, memberOf(id), postId, Date.now())));
		const member = memberOf(1011);
		const liked = await rowCost((db) => likePost(db, 1, member, postId, Date.now()), communityDb());
		const likedAgain = await rowCost((db) => likePost(db, 1, member, postId, Date.now()), communityDb());
		const unliked = await rowCost((db) => unlikePost(db, 1, member, postId), communityDb());
		const unlikedAgain = await rowCost((db) => unlikePost(db, 1, member, postId), communityDb());
		// D1 counts a like as 4 rows (the post_likes row, its two index entries, the post's row) and
		// an unlike as 2, here with 500 likes on the post as with none.
		expect(liked.written).toBeGreaterThan(0);
		expect(liked.written).toBeLessThanOrEqual(4);
		expect(unliked.written).toBeGreaterThan(0);
		expect(unliked.written).toBeLessThanOrEqual(4);
		// Asked again, nothing is written.
		expect(likedAgain.written).toBe(0);
		expect(unlikedAgain.written).toBe(0);
		for (const { read } of [liked, likedAgain, unliked, unlikedAgain]) expect(read).toBeLessThanOrEqual(12);
		expect(await counts(postId)).toEqual({ likeCount: 500, likes: 500 });
	});
});

describe('bad input changes nothing and is answered in the envelope', () => {
	const AUTHOR = 1015;
	let postId = 0;
	beforeAll(async () => {
		postId = await freshPost();
	});
	const cases = postActionBadInput('like', 'liked');
	it.each(cases)('%s', async (_name, request, code) => {
		const { method, path, body, headers } = request(postId);
		const before = await snapshot();
		const answer = await call(`${MEMBER}${path}`, { method, cookie: await signIn(AUTHOR), body, ...(headers ? { headers } : {}) });
		expect(answer.code, JSON.stringify(answer.body)).toBe(code);
		expect(answer.status).toBeLessThan(500);
		expect(await snapshot()).toEqual(before);
	});

	it('accepts an empty body, as fetch sends for a PUT without one', async () => {
		const answer = await call(`${MEMBER}/posts/${postId}/like`, {
			method: 'PUT',
			cookie: await signIn(AUTHOR),
			body: '',
			headers: { 'content-type': 'text/plain' },
		});
		expect(answer.code).toBe(0);
		await unlike(postId, await signIn(AUTHOR));
	});
});
