/**
 * A comment and a like in one D1 round trip (src/server/platform/guarded-write.ts): the session's
 * check, the write's checking reads and its guarded statements in one batch. Accepted, each is one
 * round trip and keeps the session's hourly "last seen"; refused, in every way these routes refuse,
 * the answer is the catalogue code it always was and nothing is written (the guards in SQL and the
 * reads the refusal is decided from agree: a guarded write that wrote while its reads refused fails
 * loudly, guarded-write.ts `refuse`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { api } from '@functions/api/app';
import { countRoundTrips } from '@/server/platform/database';
import {
	call,
	memberApi,
	signIn,
	signUp,
	startOfRateWindow,
	KOREAN,
	ORIGIN,
	type Answer,
	freshPost as newPost,
	type FreshPostState,
} from './harness';
import { hashToken } from '@/server/platform/tokens';
import { LIMITERS, RATE_LIMITS } from '@/server/platform/rate-limit';
import { ResultCodes } from '@/server/platform/errors';
import { privacyIdsSql, type PrivacyIds } from '../read-routes';

const MEMBER = memberApi();
const ADMIN = 1001;
const TEMPORARILY_BANNED = 1038;
const PERMANENTLY_BANNED = 1039;

let ids: PrivacyIds;
beforeAll(async () => {
	ids = (await env.DB.prepare(privacyIdsSql(1)).first<PrivacyIds>())!;
});

let turn = 0;
/** One write as the browser sends it, each from its own address unless `ip` says (the address ceiling is not what these tests count). */
function send(method: string, path: string, cookie: string | null, body?: unknown, ip = `one-trip:${(turn += 1)}`): Promise<Answer> {
	return call(`${MEMBER}${path}`, {
		method,
		...(cookie === null ? {} : { cookie }),
		...(body === undefined ? {} : { body }),
		headers: { 'cf-connecting-ip': ip },
	});
}

/** A new post of the free board (12) by `authorId`, in any state. */
const freshPost = (authorId?: number, state?: FreshPostState) => newPost(authorId, state, 'One trip');

async function insertComment(postId: number, memberId: number, state: { hidden?: boolean; deleted?: boolean; channelId?: number } = {}) {
	return (await env.DB.prepare(
		`INSERT INTO comments (channel_id, post_id, member_id, content, created_at, deleted_at, hidden_by_admin) VALUES (?1, ?2, ?3, 'seeded', ?4, ?5, ?6) RETURNING id`,
	)
		.bind(state.channelId ?? 1, postId, memberId, Date.now(), state.deleted ? Date.now() : null, state.hidden ? 1 : 0)
		.first<number>('id'))!;
}

/** Everything a comment or a like may write: rows, counts, the cache's versions, the batch assertions. */
const snapshot = () =>
	env.DB.prepare(
		`SELECT (SELECT count(*) FROM comments) AS comments, (SELECT count(*) FROM post_likes) AS likes,
		        (SELECT sum(comment_count) FROM posts) AS comment_counts, (SELECT sum(like_count) FROM posts) AS like_counts,
		        (SELECT group_concat(post_versions || post_removal_versions || list_versions) FROM channels) AS versions,
		        (SELECT count(*) FROM batch_assertions) AS assertions`,
	).first();

const code = (name: keyof typeof ResultCodes) => ResultCodes[name].code;

const cookieHash = async (cookie: string) => hashToken(cookie.split('=')[1] ?? '');

type Write = { method: string; path: string; body?: unknown };
const comment = (postId: number | string, body: unknown = { content: 'refused?' }): Write => ({
	method: 'POST',
	path: `/posts/${postId}/comments`,
	body,
});
const like = (postId: number | string): Write => ({ method: 'PUT', path: `/posts/${postId}/like` });
const unlike = (postId: number | string): Write => ({ method: 'DELETE', path: `/posts/${postId}/like` });

/** Sends `write` as `cookie`; it must be refused with `expected` (and its status), and write nothing. */
async function refused(write: Write, cookie: string | null, expected: keyof typeof ResultCodes): Promise<Answer> {
	const before = await snapshot();
	const answer = await send(write.method, write.path, cookie, write.body);
	expect([write.method, write.path, answer.status, answer.code]).toEqual([write.method, write.path, ResultCodes[expected].status, code(expected)]);
	expect(await snapshot()).toEqual(before);
	return answer;
}

describe('an accepted comment or like', () => {
	it('is one round trip, for a comment, a reply, a mention, a retry, a like and an unlike', async () => {
		const postId = await freshPost();
		const cookie = await signIn(1020);
		const requestId = crypto.randomUUID();
		const nickname = (await env.DB.prepare('SELECT nickname FROM members WHERE id = 1021').first<string>('nickname'))!;
		const answers = [await send('POST', `/posts/${postId}/comments`, cookie, { content: 'one trip', requestId })];
		const commentId = (answers[0]!.body['content'] as { comment: { commentId: number } }).comment.commentId;
		answers.push(
			await send('POST', `/posts/${postId}/comments`, cookie, { content: 'one trip', requestId }),
			await send('POST', `/posts/${postId}/comments`, cookie, { content: 'a reply', parentId: commentId }),
			await send('POST', `/posts/${postId}/comments`, cookie, { content: `hello @${nickname}` }),
			await send('PUT', `/posts/${postId}/like`, cookie),
			await send('PUT', `/posts/${postId}/like`, cookie),
			await send('DELETE', `/posts/${postId}/like`, cookie),
		);
		for (const answer of answers) {
			expect(answer.code).toBe(0);
			expect([answer.trips.count, answer.trips.depth]).toEqual([1, 1]);
		}
		// The retry answered the first comment; the reply and the mention are stored as they always were.
		expect((answers[1]!.body['content'] as { comment: { commentId: number } }).comment.commentId).toBe(commentId);
		const stored = await env.DB.prepare('SELECT parent_id, mentions FROM comments WHERE post_id = ?1 ORDER BY id').bind(postId).all();
		expect(stored.results).toEqual([
			{ parent_id: null, mentions: null },
			{ parent_id: commentId, mentions: null },
			{ parent_id: null, mentions: JSON.stringify([[1021, nickname]]) },
		]);
		expect(await env.DB.prepare('SELECT comment_count, like_count FROM posts WHERE id = ?1').bind(postId).first()).toEqual({
			comment_count: 3,
			like_count: 0,
		});
	});

	it('is one round trip through an app that mounts the API, as the Worker does (src/fetch.ts)', async () => {
		const postId = await freshPost();
		const cookie = await signIn(1028);
		// src/fetch.ts routes the API into Astro's pipeline; Hono then wraps each handler of the API in its error handler.
		const mounting = new Hono().route('/', api);
		for (const write of [comment(postId, { content: 'mounted' }), like(postId), unlike(postId)]) {
			const { response, trips } = await countRoundTrips(async (counted) => {
				const answered = await mounting.request(`${MEMBER}${write.path}`, {
					method: write.method,
					headers: { origin: ORIGIN, cookie, 'content-type': 'application/json', 'cf-connecting-ip': `one-trip:${(turn += 1)}` },
					...(write.body === undefined ? {} : { body: JSON.stringify(write.body) }),
				});
				counted.answered = true;
				return { response: answered, trips: counted };
			});
			expect([write.method, response.status, trips.count, trips.depth]).toEqual([write.method, 200, 1, 1]);
		}
		// A refusal before the batch still answers the session's refusal first there.
		await env.DB.prepare('DELETE FROM sessions WHERE token_hash = ?1')
			.bind(await cookieHash(cookie))
			.run();
		const refusedThere = await mounting.request(`${MEMBER}/posts/${postId}/comments`, {
			method: 'POST',
			headers: { origin: ORIGIN, cookie, 'content-type': 'application/json', 'cf-connecting-ip': `one-trip:${(turn += 1)}` },
			body: JSON.stringify({ content: '' }),
		});
		expect(((await refusedThere.json()) as Answer['body']).header.resultCode).toBe(code('SessionRevoked'));
	});

	it("records the session's use at most hourly, after the answer, and moves its idle end", async () => {
		const postId = await freshPost();
		const cookie = await signIn(1022);
		const hash = await cookieHash(cookie);
		const session = () =>
			env.DB.prepare('SELECT last_seen_at, idle_expires_at FROM sessions WHERE token_hash = ?1')
				.bind(hash)
				.first<{ last_seen_at: number; idle_expires_at: number }>();
		for (const write of [comment(postId, { content: 'seen' }), like(postId)]) {
			const longAgo = Date.now() - 2 * 60 * 60 * 1000;
			const soon = Date.now() + 60_000;
			await env.DB.prepare('UPDATE sessions SET last_seen_at = ?2, idle_expires_at = ?3 WHERE token_hash = ?1').bind(hash, longAgo, soon).run();
			const answer = await send(write.method, write.path, cookie, write.body);
			expect([answer.code, answer.trips.depth]).toEqual([0, 1]);
			await expect.poll(async () => (await session())?.last_seen_at).toBeGreaterThan(longAgo);
			expect((await session())?.idle_expires_at).toBeGreaterThan(soon);
		}
	});
});

describe('a refused comment or like writes nothing and answers the code it always did', () => {
	it('refuses a guest, an ended, revoked, withdrawn or banned session, before any input', async () => {
		const postId = await freshPost();
		const writes = [comment(postId), like(postId), unlike(postId)];
		for (const write of [...writes, comment(postId, { content: '' }), comment('abc')]) await refused(write, null, 'LoginRequired');
		// A bad body, a bad path or a post that is not there: the session's refusal comes first, as it always did.
		const inputs: Write[] = [
			...writes,
			comment(postId, { content: '' }),
			comment(postId, []),
			comment(postId, { content: 'x'.repeat(17_000) }),
			comment(99_999_999),
			like(99_999_999),
			comment('abc'),
			{ method: 'PUT', path: `/posts/${postId}/like?x=1` },
		];
		const revoked = await signIn(1023);
		await env.DB.prepare('DELETE FROM sessions WHERE token_hash = ?1')
			.bind(await cookieHash(revoked))
			.run();
		for (const write of inputs) expect((await refused(write, revoked, 'SessionRevoked')).cookies.join()).toMatch(/Max-Age=0/);
		for (const write of inputs) {
			const expired = await signIn(1023);
			await env.DB.prepare('UPDATE sessions SET idle_expires_at = 1 WHERE token_hash = ?1')
				.bind(await cookieHash(expired))
				.run();
			expect((await refused(write, expired, 'SessionExpired')).cookies.join()).toMatch(/Max-Age=0/);
		}
		const leaver = await signUp('one-trip-leaver', 'OneTripLeaver');
		await env.DB.prepare('UPDATE members SET withdrawn_at = ?2 WHERE id = ?1').bind(leaver.userId, Date.now()).run();
		for (const write of inputs) await refused(write, leaver.cookie, 'SessionRevoked');
		for (const banned of [TEMPORARILY_BANNED, PERMANENTLY_BANNED]) {
			const cookie = await signIn(banned);
			for (const write of inputs) {
				const answer = await refused(write, cookie, 'Banned');
				expect(answer.body['ban']).toMatchObject({ kind: banned === PERMANENTLY_BANNED ? 'PERMANENT' : 'TEMPORARY' });
			}
		}
	});

	it('refuses posts the member may not read, bodies and ids it does not take, and parents it may not answer', async () => {
		const cookie = await signIn(1024);
		const readable = await freshPost();
		const foreign = await freshPost(2001, {
			channelId: KOREAN.id,
			boardId: (await env.DB.prepare('SELECT id FROM boards WHERE channel_id = 2 AND is_public = 1 LIMIT 1').first<number>('id'))!,
		});
		const deleted = await freshPost(1016, { deleted: true });
		const hidden = await freshPost(1016, { hidden: true });
		const notReadable = [
			foreign,
			await freshPost(ADMIN, { boardId: ids.privateBoard }),
			deleted,
			hidden,
			await freshPost(1016, { isPrivate: true }),
			99_999_999,
		];
		for (const postId of notReadable)
			for (const write of [comment(postId), like(postId), unlike(postId)]) await refused(write, cookie, 'PostNotFound');
		// The author of a hidden post may not comment on it; nor an administrator on a deleted one.
		await refused(comment(hidden), await signIn(1016), 'PostNotFound');
		await refused(like(deleted), await signIn(ADMIN), 'PostNotFound');
		for (const [body, expected] of [
			[{ content: '' }, 'CommentRequired'],
			[{ content: ' \n ' }, 'CommentRequired'],
			[{ content: 'x'.repeat(1001) }, 'CommentTooLong'],
			[{ content: 1 }, 'InvalidParameter'],
			[{ content: 'x', unknown: 1 }, 'InvalidParameter'],
			[{ content: 'x', parentId: 0 }, 'InvalidParameter'],
			[{ content: 'x', requestId: 'not-a-uuid' }, 'InvalidParameter'],
		] as const)
			await refused(comment(readable, body), cookie, expected);
		await refused({ method: 'PUT', path: `/posts/${readable}/like`, body: { liked: true } }, cookie, 'InvalidParameter');
		await refused({ method: 'PUT', path: `/posts/${readable}/like?x=1` }, cookie, 'InvalidParameter');
		await refused(like(0), cookie, 'InvalidParameter');
		// Parents: another post's, another channel's, deleted, hidden (for a member), none at all.
		const otherPost = await freshPost();
		const parents = [
			await insertComment(otherPost, 1007),
			await insertComment(foreign, 2001, { channelId: KOREAN.id }),
			await insertComment(readable, 1007, { deleted: true }),
			await insertComment(readable, 1007, { hidden: true }),
			99_999_999,
		];
		for (const parentId of parents) await refused(comment(readable, { content: 'a reply', parentId }), cookie, 'CommentNotFound');
		// The post's refusal comes before the parent's.
		await refused(comment(deleted, { content: 'a reply', parentId: parents[2] }), cookie, 'PostNotFound');
		// An administrator may answer a hidden comment.
		expect((await send('POST', `/posts/${readable}/comments`, await signIn(ADMIN), { content: 'reply', parentId: parents[3] })).code).toBe(0);
	});

	it("refuses a request id used for another post, and a new member's links, mentions and comments past the limits", async () => {
		const cookie = await signIn(1025);
		const [first, second] = [await freshPost(), await freshPost()];
		const requestId = crypto.randomUUID();
		expect((await send('POST', `/posts/${first}/comments`, cookie, { content: 'once', requestId })).code).toBe(0);
		await refused(comment(second, { content: 'once', requestId }), cookie, 'Conflict');
		const newcomer = await signUp('one-trip-newcomer', 'OneTripNewcomer');
		const names = (
			await env.DB.prepare(
				"SELECT nickname FROM members WHERE channel_id = 1 AND role = 'MEMBER' AND withdrawn_at IS NULL AND nickname IS NOT NULL ORDER BY id LIMIT 3",
			).all<{ nickname: string }>()
		).results.map((row) => row.nickname);
		const links = 'https://a.example https://b.example https://c.example';
		await refused(comment(first, { content: links }), newcomer.cookie, 'NewMemberTooManyLinks');
		await refused(comment(first, { content: names.map((name) => `@${name}`).join(' ') }), newcomer.cookie, 'NewMemberTooManyMentions');
		// The text's limits come before the post's check, as they always did.
		await refused(comment(99_999_999, { content: links }), newcomer.cookie, 'NewMemberTooManyLinks');
		await env.DB.prepare(
			`INSERT INTO comments (channel_id, post_id, member_id, content, created_at) SELECT 1, ?1, ?2, 'filler', ?3 FROM json_each(?4)`,
		)
			.bind(first, newcomer.userId, Date.now(), JSON.stringify(new Array(20).fill(0)))
			.run();
		const answer = await refused(comment(first, { content: 'the 21st' }), newcomer.cookie, 'NewMemberCommentLimit');
		expect(answer.body['limit']).toBe(20);
		// The post's refusal comes before the count's.
		await refused(comment(99_999_999, { content: 'the 21st' }), newcomer.cookie, 'PostNotFound');
	});

	it('refuses writes past the rate limit, writing nothing, and answers a banned member with the ban past it too', async () => {
		await startOfRateWindow();
		const postId = await freshPost();
		const cookie = await signIn(1026);
		const ip = 'one-trip-rate';
		const { limit } = LIMITERS[RATE_LIMITS.like.member];
		let sent = 0;
		let last: Answer | null = null;
		while (sent < 3 * limit && last?.code !== code('TooManyRequests')) {
			last = await send(sent % 2 === 0 ? 'PUT' : 'DELETE', `/posts/${postId}/like`, cookie, undefined, ip);
			sent += 1;
			if (sent <= limit) expect(last.code).toBe(0);
		}
		const over = await refused(like(postId), cookie, 'TooManyRequests');
		expect(over.headers.get('retry-after')).toBe('60');
		// Another member at the address has a budget of their own.
		expect((await send('PUT', `/posts/${postId}/like`, await signIn(1027), undefined, ip)).code).toBe(0);
		// A banned member is answered with the ban, within the limit and past it, as before.
		const banned = await signIn(TEMPORARILY_BANNED);
		for (let i = 0; i <= limit; i += 1)
			expect((await send('PUT', `/posts/${postId}/like`, banned, undefined, 'one-trip-banned')).code).toBe(code('Banned'));
	});
});
