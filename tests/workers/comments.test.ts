/**
 * Comments (POST/PATCH/DELETE /v1/{domain}/{slug}/posts/{postId}/comments[/{commentId}] and the
 * paged public read): who may write, edit and delete what, bad input that changes nothing, paging
 * in thread order over thousands of comments with bounded reads, the deleted-with-replies rule,
 * an exact comment count under concurrency, bounded writes, and My Page's comments tab.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
	call,
	GLOBAL,
	KOREAN,
	memberApi,
	publicApi,
	recordingDb,
	signIn,
	signUp,
	startOfRateWindow,
	type Answer,
	memberOf,
	freshPost as newPost,
	type FreshPostState,
} from './harness';
import { communityDb, inCommunityRange, inLayout, LAYOUTS } from './layouts';
import { privacyIdsSql, type PrivacyIds } from '../read-routes';
import { createComment, deleteComment, editComment } from '@/server/comments/writing';
import type { CommentItem } from '@/server/comments/comments';
import { listComments } from '@/server/comments/pages';
import { groupThreads } from '@/islands/comments/model';
import { getPostWithComments } from '@/server/loaders/post-page';
import { listMyComments } from '@/server/members/activity';
import { GUEST, type Viewer } from '@/server/visibility/visibility';
import { COMMENT_MAX_LENGTH, COMMENT_PAGE_SIZE } from '@/schemas/comment-limits';
import { NEW_ID_ROWS_READ } from '@/server/databases/ids';

const MEMBER = memberApi();
const PUBLIC = publicApi();
const ADMIN = 1001;
const TEMPORARILY_BANNED = 1038;
const PERMANENTLY_BANNED = 1039;
const ADMIN_VIEWER: Viewer = { kind: 'member', memberId: ADMIN, admin: true };

let ids: PrivacyIds;
beforeAll(async () => {
	const found = await communityDb().prepare(privacyIdsSql(GLOBAL.id)).first<PrivacyIds>();
	if (!found || Object.values(found).some((value) => value === null)) throw new Error(`The demo lacks a privacy target: ${JSON.stringify(found)}`);
	ids = found;
});

/** A member as the session gives it to the services. */

const cookies = new Map<number, string>();
async function cookieOf(memberId: number): Promise<string> {
	let cookie = cookies.get(memberId);
	if (!cookie) cookies.set(memberId, (cookie = await signIn(memberId)));
	return cookie;
}

/**
 * Comment writes are limited to 30 a minute per member and per address (RATE_LIMIT_WRITE): every
 * call comes from its own address, and the tests spread their calls over the demo's members.
 */
let turn = 0;
async function send(method: string, path: string, memberId: number | null, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
	turn += 1;
	return call(`${MEMBER}${path}`, {
		method,
		...(memberId === null ? {} : { cookie: await cookieOf(memberId) }),
		...(body === undefined ? {} : { body }),
		headers: { 'cf-connecting-ip': `comments-test:${turn}`, ...headers },
	});
}
const post = (postId: number | string, memberId: number | null, body: unknown = { content: 'gg' }) =>
	send('POST', `/posts/${postId}/comments`, memberId, body);
const patch = (postId: number | string, commentId: number | string, memberId: number | null, body: unknown = { content: 'edited' }) =>
	send('PATCH', `/posts/${postId}/comments/${commentId}`, memberId, body);
const remove = (postId: number | string, commentId: number | string, memberId: number | null) =>
	send('DELETE', `/posts/${postId}/comments/${commentId}`, memberId);
const read = (postId: number | string, query = '') => call(`${PUBLIC}/posts/${postId}/comments${query}`);

type CommentAnswer = { comment: CommentItem; commentCount: number };
const contentOf = <T>(answer: Answer) => answer.body['content'] as T;

/** A new post of the free board (12) by `authorId`, in any state. */
const freshPost = (authorId?: number, state?: FreshPostState) => newPost(authorId, state, 'Comments test');

/** Adds a comment row directly (the demo's way), for states the API cannot make (hidden). */
async function insertComment(
	postId: number,
	memberId: number,
	options: { parentId?: number; hidden?: boolean; deleted?: boolean } = {},
): Promise<number> {
	const row = await communityDb()
		.prepare(
			`INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at, deleted_at, hidden_by_admin)
		 VALUES (1, ?1, ?2, ?3, 'seeded', ?4, ?5, ?6) RETURNING id`,
		)
		.bind(postId, options.parentId ?? null, memberId, Date.now(), options.deleted ? Date.now() : null, options.hidden ? 1 : 0)
		.first<{ id: number }>();
	return row!.id;
}

/** The post's stored count and the comments that really count (neither deleted nor hidden). */
async function counts(postId: number): Promise<{ commentCount: number; counted: number }> {
	const row = await communityDb()
		.prepare(
			'SELECT comment_count, (SELECT count(*) FROM comments WHERE post_id = ?1 AND deleted_at IS NULL AND hidden_by_admin = 0) AS counted FROM posts WHERE id = ?1',
		)
		.bind(postId)
		.first<{ comment_count: number; counted: number }>();
	return { commentCount: row!.comment_count, counted: row!.counted };
}

/** Everything a comment request could change, anywhere. */
async function snapshot() {
	return communityDb()
		.prepare(
			`SELECT (SELECT count(*) FROM comments) AS comments, (SELECT max(id) FROM comments) AS lastId,
			(SELECT count(*) FROM comments WHERE deleted_at IS NOT NULL) AS deleted, (SELECT count(*) FROM comments WHERE edited_at IS NOT NULL) AS edited,
			(SELECT sum(comment_count) FROM posts) AS counted, (SELECT group_concat(content_version) FROM channels) AS versions`,
		)
		.first();
}

describe.each(LAYOUTS)('$name', (layout) => {
	inLayout(layout);
	// The sessions of the layout before are gone with its rows.
	beforeAll(() => cookies.clear());

	describe('writing, replying, editing and deleting', () => {
		it('writes a comment and a reply, stores a reply to a reply under the top-level comment, edits and deletes', async () => {
			const postId = await freshPost();
			const created = await post(postId, 1003, { content: '  First!\r\nhttps://starfall.example  ' });
			expect(created.code, JSON.stringify(created.body)).toBe(0);
			const first = contentOf<CommentAnswer>(created);
			expect(first.comment.commentId, 'an id in the range of its database').toSatisfy((id: number) => inCommunityRange('comments', id));
			expect(first).toEqual({
				comment: {
					readable: true,
					commentId: expect.any(Number),
					parentId: null,
					state: 'VISIBLE',
					author: { userId: 1003, nickname: expect.any(String), withdrawn: false, admin: false },
					content: 'First!\nhttps://starfall.example',
					createdAt: expect.any(Number),
					edited: false,
					likeCount: 0,
				},
				commentCount: 1,
			});
			const topId = first.comment.commentId;
			const reply = contentOf<CommentAnswer>(await post(postId, 1004, { content: 'reply', parentId: topId }));
			expect(reply.comment).toMatchObject({ parentId: topId });
			const replyToReply = contentOf<CommentAnswer>(await post(postId, 1005, { content: 'reply to a reply', parentId: reply.comment.commentId }));
			expect(replyToReply).toMatchObject({ comment: { parentId: topId }, commentCount: 3 });

			// Within the 5-minute grace period: no "edited" mark (tests/workers/revisions.test.ts has the rest).
			const edited = await patch(postId, reply.comment.commentId, 1004, { content: ' better reply ' });
			expect(edited.code).toBe(0);
			expect(contentOf<{ comment: CommentItem }>(edited)).toEqual({ comment: { ...reply.comment, content: 'better reply', edited: false } });

			const deleted = await remove(postId, replyToReply.comment.commentId, 1005);
			expect(deleted.body['content']).toEqual({ commentCount: 2 });
			const page = contentOf<{ comments: CommentItem[]; nextAfter: number | null; commentCount: number }>(await read(postId));
			expect(page).toEqual({
				comments: [first.comment, { ...reply.comment, content: 'better reply', edited: false }],
				nextAfter: null,
				commentCount: 2,
			});
			expect(await counts(postId)).toEqual({ commentCount: 2, counted: 2 });
		});

		it('keeps a deleted top-level comment as a tombstone while a reply remains, and drops it after', async () => {
			const postId = await freshPost();
			const top = contentOf<CommentAnswer>(await post(postId, 1006)).comment.commentId;
			const reply = contentOf<CommentAnswer>(await post(postId, 1007, { content: 'r', parentId: top })).comment.commentId;
			const lone = contentOf<CommentAnswer>(await post(postId, 1008)).comment.commentId;
			expect((await remove(postId, top, 1006)).code).toBe(0);
			expect((await remove(postId, lone, 1008)).code).toBe(0);
			const items = contentOf<{ comments: CommentItem[] }>(await read(postId)).comments;
			expect(items.map((item) => [item.commentId, item.readable, item.state])).toEqual([
				[top, false, 'DELETED'],
				[reply, true, 'VISIBLE'],
			]);
			expect(items[0]).toEqual({ readable: false, commentId: top, parentId: null, state: 'DELETED' });
			expect(groupThreads(items)).toEqual([{ comment: items[0], replies: [items[1]] }]);
			expect((await remove(postId, reply, 1007)).code).toBe(0);
			expect(contentOf<{ comments: CommentItem[]; commentCount: number }>(await read(postId))).toMatchObject({ comments: [], commentCount: 0 });
		});

		it('shows a hidden comment as its state to readers and in full to administrators, and does not count it', async () => {
			const postId = await freshPost();
			const hidden = await insertComment(postId, 1009, { hidden: true });
			const shown = contentOf<CommentAnswer>(await post(postId, 1010)).comment;
			expect(shown).toBeDefined();
			expect(await counts(postId)).toEqual({ commentCount: 1, counted: 1 });
			const guestPage = await listComments(communityDb(), 1, postId, GUEST, null);
			expect(guestPage.comments[0]).toEqual({ readable: false, commentId: hidden, parentId: null, state: 'HIDDEN_BY_ADMIN' });
			const adminPage = await listComments(communityDb(), 1, postId, ADMIN_VIEWER, null);
			expect(adminPage.comments[0]).toMatchObject({ readable: true, commentId: hidden, state: 'HIDDEN_BY_ADMIN', content: 'seeded' });
			// Its author may no longer delete it; an administrator may, and the count, which never held it, stays.
			expect((await remove(postId, hidden, 1009)).code).toBe(-4041406);
			expect((await remove(postId, hidden, ADMIN)).body['content']).toEqual({ commentCount: 1 });
			expect(await counts(postId)).toEqual({ commentCount: 1, counted: 1 });
		});

		it('writes one comment for a request sent twice, and twice at once', async () => {
			const postId = await freshPost();
			const requestId = crypto.randomUUID();
			const once = await post(postId, 1011, { content: 'once', requestId });
			const again = await post(postId, 1011, { content: 'once', requestId });
			expect(contentOf<CommentAnswer>(again)).toEqual(contentOf<CommentAnswer>(once));
			const racing = crypto.randomUUID();
			const answers = await Promise.all(
				Array.from({ length: 10 }, () => createComment(communityDb(), 1, memberOf(1011), postId, { content: 'race', requestId: racing }, Date.now())),
			);
			expect(new Set(answers.map((answer) => answer.comment.commentId)).size).toBe(1);
			expect(await counts(postId)).toEqual({ commentCount: 2, counted: 2 });
			// The same request id for another post is not a retry.
			expect((await post(await freshPost(), 1011, { content: 'x', requestId })).code).toBe(-4091401);
		});

		it('puts a new comment on My Page, shows its edit and drops it when deleted', async () => {
			const memberId = 1012;
			const postId = await freshPost();
			const commentId = contentOf<CommentAnswer>(await post(postId, memberId, { content: 'on my page' })).comment.commentId;
			const mine = async () => (await listMyComments(communityDb(), 1, memberId, 1)).items.find((item) => item.commentId === commentId);
			expect(await mine()).toMatchObject({ postId, content: 'on my page' });
			await patch(postId, commentId, memberId, { content: 'edited on my page' });
			expect(await mine()).toMatchObject({ content: 'edited on my page' });
			await remove(postId, commentId, memberId);
			expect(await mine()).toBeUndefined();
		});
	});

	describe('who may comment, edit and delete', () => {
		it('asks a guest to log in, and answers a banned member with the ban', async () => {
			const postId = await freshPost();
			const commentId = await insertComment(postId, 1013);
			const before = await snapshot();
			for (const answer of [await post(postId, null), await patch(postId, commentId, null), await remove(postId, commentId, null)]) {
				expect([answer.status, answer.code]).toEqual([401, -4011401]);
			}
			for (const banned of [TEMPORARILY_BANNED, PERMANENTLY_BANNED]) {
				for (const answer of [await post(postId, banned), await patch(postId, commentId, banned), await remove(postId, commentId, banned)]) {
					expect([answer.status, answer.code]).toEqual([403, -4031452]);
					expect(answer.body['ban']).toMatchObject({ kind: banned === PERMANENTLY_BANNED ? 'PERMANENT' : 'TEMPORARY' });
				}
			}
			expect(await snapshot()).toEqual(before);
		});

		it('refuses a member who has withdrawn (their session ended) and keeps their comments under the withdrawn label', async () => {
			const { cookie, userId } = await signUp('comment-leaver', 'CommentLeaver');
			cookies.set(userId, cookie);
			const postId = await freshPost();
			const commentId = contentOf<CommentAnswer>(await post(postId, userId, { content: 'bye' })).comment.commentId;
			expect((await send('POST', '/me/withdrawal', userId, { agree: true })).code).toBe(0);
			expect((await post(postId, userId)).code).toBe(-4011415);
			expect((await remove(postId, commentId, userId)).code).toBe(-4011415);
			const items = contentOf<{ comments: CommentItem[] }>(await read(postId)).comments;
			expect(items).toEqual([expect.objectContaining({ commentId, author: { userId, nickname: null, withdrawn: true, admin: false } })]);
		});

		it("lets only the author edit, the author or an administrator delete, and refuses someone else's with Forbidden", async () => {
			const postId = await freshPost();
			const commentId = contentOf<CommentAnswer>(await post(postId, 1014)).comment.commentId;
			const before = await snapshot();
			expect([(await patch(postId, commentId, 1015)).code, (await remove(postId, commentId, 1015)).code]).toEqual([-4031403, -4031403]);
			expect((await patch(postId, commentId, ADMIN)).code).toBe(-4031403);
			expect(await snapshot()).toEqual(before);
			expect((await remove(postId, commentId, ADMIN)).body['content']).toEqual({ commentCount: 0 });
		});

		it('refuses posts the member may not read: another channel, a private board, deleted, hidden, someone else’s private post', async () => {
			const foreignPost = await freshPost(2001, {
				channelId: KOREAN.id,
				boardId: (await communityDb().prepare('SELECT id FROM boards WHERE channel_id = 2 AND is_public = 1 LIMIT 1').first<number>('id'))!,
			});
			const privateBoardPost = await freshPost(ADMIN, { boardId: ids.privateBoard });
			const deletedPost = await freshPost(1016, { deleted: true });
			const hiddenPost = await freshPost(1016, { hidden: true });
			const privatePost = await freshPost(1016, { isPrivate: true });
			const before = await snapshot();
			for (const postId of [foreignPost, privateBoardPost, deletedPost, hiddenPost, privatePost, 99_999_999]) {
				const answer = await post(postId, 1017);
				expect([postId, answer.status, answer.code]).toEqual([postId, 404, -4041403]);
			}
			// The author of a hidden or deleted post may not comment either; the admin only where moderation reads.
			expect((await post(hiddenPost, 1016)).code).toBe(-4041403);
			expect((await post(deletedPost, ADMIN)).code).toBe(-4041403);
			expect(await snapshot()).toEqual(before);
			expect((await post(privatePost, 1016)).code).toBe(0);
			expect((await post(privateBoardPost, ADMIN)).code).toBe(0);
			expect((await post(hiddenPost, ADMIN)).code).toBe(0);
		});

		it('refuses edits and deletions on a post that has since gone, and comments of another post', async () => {
			const postId = await freshPost();
			const otherPost = await freshPost();
			const commentId = contentOf<CommentAnswer>(await post(postId, 1018)).comment.commentId;
			const before = await snapshot();
			expect((await patch(otherPost, commentId, 1018)).code).toBe(-4041406);
			expect((await remove(otherPost, commentId, 1018)).code).toBe(-4041406);
			expect((await post(otherPost, 1018, { content: 'x', parentId: commentId })).code).toBe(-4041406);
			expect((await patch(postId, 99_999_999, 1018)).code).toBe(-4041406);
			expect(await snapshot()).toEqual(before);
			await communityDb().prepare('UPDATE posts SET deleted_at = 1 WHERE id = ?1').bind(postId).run();
			expect((await patch(postId, commentId, 1018)).code).toBe(-4041403);
			expect((await remove(postId, commentId, 1018)).code).toBe(-4041403);
			expect((await read(postId)).code).toBe(-4041403);
		});

		it('refuses replies to deleted or hidden comments, edits of them, and deleting twice', async () => {
			const postId = await freshPost();
			const hidden = await insertComment(postId, 1019, { hidden: true });
			const deleted = await insertComment(postId, 1019, { deleted: true });
			const before = await snapshot();
			expect((await post(postId, 1020, { content: 'x', parentId: hidden })).code).toBe(-4041406);
			expect((await post(postId, 1020, { content: 'x', parentId: deleted })).code).toBe(-4041406);
			expect((await patch(postId, hidden, 1019)).code).toBe(-4031403);
			expect((await patch(postId, deleted, 1019)).code).toBe(-4041406);
			expect((await remove(postId, deleted, 1019)).code).toBe(-4041406);
			expect(await snapshot()).toEqual(before);
			// An administrator reads the hidden one and may answer it.
			expect((await post(postId, ADMIN, { content: 'mod note', parentId: hidden })).code).toBe(0);
		});

		it("refuses the author's deletion of a hidden comment as a hidden post's is refused, and keeps it for the moderators", async () => {
			const postId = await freshPost();
			const hidden = await insertComment(postId, 1027, { hidden: true });
			const hiddenPost = await freshPost(1027, { hidden: true });
			const before = await snapshot();
			// The author of a hidden post is answered as if it were gone; a hidden comment's author alike.
			expect((await send('DELETE', `/posts/${hiddenPost}`, 1027)).code).toBe(-4041403);
			const answer = await remove(postId, hidden, 1027);
			expect([answer.status, answer.code]).toEqual([404, -4041406]);
			expect(await snapshot()).toEqual(before);
			expect(await communityDb().prepare('SELECT deleted_at, content FROM comments WHERE id = ?1').bind(hidden).first()).toEqual({
				deleted_at: null,
				content: 'seeded',
			});
			// An administrator may still delete it; the deletion of someone else's comment is logged, and keeps the text.
			expect((await remove(postId, hidden, ADMIN)).code).toBe(0);
			expect(
				await communityDb()
					.prepare("SELECT moderator_id, action, reason FROM moderation_log WHERE target_type = 'COMMENT' AND target_id = ?1")
					.bind(hidden)
					.all()
					.then((rows) => rows.results),
			).toEqual([{ moderator_id: ADMIN, action: 'DELETE_COMMENT', reason: '' }]);
			expect(await communityDb().prepare('SELECT content FROM comments WHERE id = ?1').bind(hidden).first<string>('content')).toBe('seeded');
			// The author's own deletion of a visible comment is no moderation: nothing is logged.
			const own = contentOf<CommentAnswer>(await post(postId, 1027)).comment.commentId;
			expect((await remove(postId, own, 1027)).code).toBe(0);
			expect(
				await communityDb()
					.prepare("SELECT count(*) AS n FROM moderation_log WHERE target_type = 'COMMENT' AND target_id = ?1")
					.bind(own)
					.first<number>('n'),
			).toBe(0);
		});

		it('refuses the deletion when the comment is hidden between the read and the batch', async () => {
			const postId = await freshPost();
			const commentId = contentOf<CommentAnswer>(await post(postId, 1028)).comment.commentId;
			// A database whose first read of the comment still sees it visible: the batch re-checks it.
			const racing = {
				prepare: (sql: string) => communityDb().prepare(sql),
				batch: async (statements: D1PreparedStatement[]) => {
					await communityDb().prepare('UPDATE comments SET hidden_by_admin = 1 WHERE id = ?1').bind(commentId).run();
					return communityDb().batch(statements);
				},
			} as unknown as Db;
			await expect(deleteComment(racing, 1, memberOf(1028), postId, commentId, Date.now())).rejects.toMatchObject({ codeName: 'CommentNotFound' });
			expect(
				await communityDb().prepare('SELECT deleted_at FROM comments WHERE id = ?1').bind(commentId).first<number | null>('deleted_at'),
			).toBeNull();
		});

		it('answers 405 to other methods on the comment paths, and the public API takes no writes', async () => {
			const postId = await freshPost();
			expect((await send('GET', `/posts/${postId}/comments`, 1021)).status).toBe(405);
			expect((await send('PUT', `/posts/${postId}/comments/1`, 1021, { content: 'x' })).status).toBe(405);
			const publicWrite = await call(`${PUBLIC}/posts/${postId}/comments`, { method: 'POST', cookie: await cookieOf(1021), body: { content: 'x' } });
			expect(publicWrite.status).toBeGreaterThanOrEqual(400);
			expect(publicWrite.status).toBeLessThan(500);
			expect(await counts(postId)).toEqual({ commentCount: 0, counted: 0 });
		});
	});
});

describe('the comment rate limit', () => {
	it('limits comment writes to 30 a minute per member', async () => {
		const postId = await freshPost();
		const answers: number[] = [];
		await startOfRateWindow();
		for (let i = 0; i < 31; i += 1) answers.push((await post(postId, 1022, { content: `${i}` })).code);
		expect(answers.slice(0, 30)).toEqual(Array(30).fill(0));
		expect(answers[30]).toBe(-4291401);
		expect(await counts(postId)).toEqual({ commentCount: 30, counted: 30 });
	});
});

describe('bad input gets a 4xx envelope and changes nothing', () => {
	let postId: number;
	let commentId: number;
	beforeAll(async () => {
		postId = await freshPost();
		commentId = contentOf<CommentAnswer>(await post(postId, 1023)).comment.commentId;
	});

	const cases: [string, () => Promise<Answer>, number][] = [
		['an empty comment', () => post(postId, 1024, { content: '' }), -4001451],
		['a comment of white space', () => post(postId, 1024, { content: ' \n\t\r\n ' }), -4001451],
		['a comment one character too long', () => post(postId, 1024, { content: '가'.repeat(COMMENT_MAX_LENGTH + 1) }), -4001452],
		['an edit to nothing', () => patch(postId, commentId, 1023, { content: '   ' }), -4001451],
		['an edit too long', () => patch(postId, commentId, 1023, { content: '😀'.repeat(COMMENT_MAX_LENGTH + 1) }), -4001452],
		['no body', () => send('POST', `/posts/${postId}/comments`, 1024), -4151401],
		['a body that is not JSON', () => send('POST', `/posts/${postId}/comments`, 1024, '{"content":'), -4001405],
		[
			'a form body',
			() => send('POST', `/posts/${postId}/comments`, 1024, 'content=hi', { 'content-type': 'application/x-www-form-urlencoded' }),
			-4151401,
		],
		['a JSON array', () => post(postId, 1024, ['gg']), -4001400],
		['JSON null', () => post(postId, 1024, null), -4001400],
		['content as a number', () => post(postId, 1024, { content: 42 }), -4001400],
		['content as an object', () => post(postId, 1024, { content: { text: 'x' } }), -4001400],
		['no content', () => post(postId, 1024, {}), -4001451],
		['an unknown key', () => post(postId, 1024, { content: 'x', postId }), -4001400],
		['an unknown key on an edit', () => patch(postId, commentId, 1023, { content: 'x', parentId: null }), -4001400],
		['a parentId as a string', () => post(postId, 1024, { content: 'x', parentId: String(commentId) }), -4001400],
		['a parentId of zero', () => post(postId, 1024, { content: 'x', parentId: 0 }), -4001400],
		['a fractional parentId', () => post(postId, 1024, { content: 'x', parentId: 1.5 }), -4001400],
		['a parentId beyond 2^53', () => send('POST', `/posts/${postId}/comments`, 1024, `{"content":"x","parentId":1e300}`), -4001400],
		['a requestId that is not a UUID', () => post(postId, 1024, { content: 'x', requestId: 'again' }), -4001400],
		['a body over 16 KB', () => post(postId, 1024, { content: 'x'.repeat(17 * 1024) }), -4131401],
		['a query string', () => send('POST', `/posts/${postId}/comments?parentId=1`, 1024, { content: 'x' }), -4001400],
		['a post id that is not a number', () => post('abc', 1024), -4001400],
		['a post id of zero', () => post('0', 1024), -4001400],
		['a negative post id', () => post('-1', 1024), -4001400],
		['a post id beyond 2^53', () => post('99999999999999999', 1024), -4001400],
		['a comment id that is not a number', () => patch(postId, 'x1', 1023), -4001400],
		['a comment id with a fraction', () => remove(postId, '1.5', 1023), -4001400],
		['a comment id with a leading zero', () => remove(postId, `0${commentId}`, 1023), -4001400],
		['an unknown query key on the public read', () => read(postId, '?page=2'), -4001400],
		['an after that is not an id', () => read(postId, '?after=first'), -4001400],
		['an after of another post', () => read(postId, `?after=${ids.deletedComment}`), -4041406],
		['a repeated after', () => read(postId, `?after=${commentId}&after=${commentId}`), -4001400],
	];

	it.each(cases)('refuses %s', async (_what, send, code) => {
		const before = await snapshot();
		const answer = await send();
		expect({ status: answer.status, code: answer.code, successful: answer.body.header.isSuccessful }).toEqual({
			status: expect.any(Number),
			code,
			successful: false,
		});
		expect(answer.status).toBeGreaterThanOrEqual(400);
		expect(answer.status).toBeLessThan(500);
		expect(await snapshot()).toEqual(before);
	});

	it('takes a comment of exactly the limit, counted in code points after trimming', async () => {
		const answer = await post(postId, 1025, { content: `  ${'😀'.repeat(COMMENT_MAX_LENGTH)}\n` });
		expect(answer.code).toBe(0);
		expect([...contentOf<{ comment: { content: string } }>(answer).comment.content]).toHaveLength(COMMENT_MAX_LENGTH);
	});
});

describe('a post with thousands of comments', () => {
	const THREADS = 1000;
	const REPLIES = 4;
	let postId: number;
	/** Every item in thread order, as a reader should see them. */
	let expected: number[];

	beforeAll(async () => {
		postId = await freshPost();
		// 1,000 top-level comments with 4 replies each: 5,000 comments, ids in writing order.
		await communityDb()
			.prepare(
				`INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at)
			 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
			 SELECT 1, ?1, NULL, 1002 + (i % 30), 'top ' || i, i FROM n`,
			)
			.bind(postId, THREADS)
			.run();
		await communityDb()
			.prepare(
				`INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at)
			 WITH RECURSIVE r(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < ?2)
			 SELECT 1, ?1, c.id, 1003, 'reply ' || r.k, c.created_at + r.k FROM comments c, r WHERE c.post_id = ?1 AND c.parent_id IS NULL ORDER BY r.k, c.id`,
			)
			.bind(postId, REPLIES)
			.run();
		await communityDb()
			.prepare('UPDATE posts SET comment_count = (SELECT count(*) FROM comments WHERE post_id = ?1) WHERE id = ?1')
			.bind(postId)
			.run();
		const all = await communityDb()
			.prepare('SELECT id FROM comments WHERE post_id = ?1 ORDER BY coalesce(parent_id, id), id')
			.bind(postId)
			.all<{ id: number }>();
		expected = all.results.map((row) => row.id);
		expect(expected).toHaveLength(THREADS * (REPLIES + 1));
	});

	async function walk(): Promise<number[]> {
		const seen: number[] = [];
		let after: number | null = null;
		for (let pages = 0; pages < 100; pages += 1) {
			const answer = await read(postId, after === null ? '' : `?after=${after}`);
			expect(answer.code).toBe(0);
			const page = contentOf<{ comments: CommentItem[]; nextAfter: number | null; commentCount: number }>(answer);
			expect(page.comments.length).toBeLessThanOrEqual(COMMENT_PAGE_SIZE);
			seen.push(...page.comments.map((item) => item.commentId));
			if (page.nextAfter === null) return seen;
			expect(page.nextAfter).toBe(page.comments.at(-1)?.commentId);
			after = page.nextAfter;
		}
		throw new Error('too many pages');
	}

	it('covers every comment exactly once, in thread order, in pages of COMMENT_PAGE_SIZE', async () => {
		expect(await walk()).toEqual(expected);
	});

	it('pages on after an item deleted since, and leaves deleted items out', async () => {
		const anchor = expected[COMMENT_PAGE_SIZE - 1]!;
		const deletedReply = expected[COMMENT_PAGE_SIZE + 2]!;
		await communityDb().prepare('UPDATE comments SET deleted_at = 1 WHERE id IN (?1, ?2)').bind(anchor, deletedReply).run();
		try {
			const page = contentOf<{ comments: CommentItem[] }>(await read(postId, `?after=${anchor}`));
			expect(page.comments.map((item) => item.commentId)).toEqual(
				expected
					.slice(COMMENT_PAGE_SIZE, COMMENT_PAGE_SIZE * 3)
					.filter((id) => id !== deletedReply)
					.slice(0, COMMENT_PAGE_SIZE),
			);
		} finally {
			await communityDb().prepare('UPDATE comments SET deleted_at = NULL WHERE id IN (?1, ?2)').bind(anchor, deletedReply).run();
		}
	});

	it("opens the post page at a comment's thread, and knows whether it is the first page", async () => {
		const first = await getPostWithComments(communityDb(), 1, postId, GUEST);
		expect(first.comments.map((item) => item.commentId)).toEqual(expected.slice(0, COMMENT_PAGE_SIZE));
		expect(first).toMatchObject({ startsAtBeginning: true, nextAfter: expected[COMMENT_PAGE_SIZE - 1] });
		// A reply deep in the list: the page starts at its top-level comment.
		const reply = expected[2503]!;
		const top = (await communityDb().prepare('SELECT parent_id FROM comments WHERE id = ?1').bind(reply).first<number>('parent_id'))!;
		const atReply = await getPostWithComments(communityDb(), 1, postId, GUEST, { from: reply });
		expect(atReply.comments[0]?.commentId).toBe(top);
		expect(atReply.comments.map((item) => item.commentId)).toContain(reply);
		expect(atReply.startsAtBeginning).toBe(false);
		const atFirst = await getPostWithComments(communityDb(), 1, postId, GUEST, { from: expected[1]! });
		expect(atFirst.startsAtBeginning).toBe(true);
		// An id of no comment of the post gives the first page.
		expect((await getPostWithComments(communityDb(), 1, postId, GUEST, { from: ids.deletedComment })).comments).toEqual(first.comments);
		expect(groupThreads(first.comments)).toHaveLength(COMMENT_PAGE_SIZE / (REPLIES + 1));
	});

	it('reads about one page of rows in one query, however many comments the post has', async () => {
		for (const read of [
			(db: Db) => getPostWithComments(db, 1, postId, GUEST),
			(db: Db) => getPostWithComments(db, 1, postId, GUEST, { from: expected[4000]! }),
			(db: Db) => listComments(db, 1, postId, GUEST, expected[3000]!),
		]) {
			const { db, statements } = recordingDb(communityDb());
			await read(db);
			expect(statements).toHaveLength(1);
			// Up to COMMENT_PAGE_SIZE + 1 comments with their authors (2 rows each) and, for a reply, the
			// comment it answers and its author (2 more, tests/workers/replies.test.ts), the post, its
			// board, author and category, the anchor and the earlier-items check: 5,000 comments, ~420 rows.
			expect(statements[0]!.rowsRead).toBeLessThanOrEqual(4 * (COMMENT_PAGE_SIZE + 1) + 12);
		}
	});

	it('writes a bounded number of rows per comment, reply, edit and deletion on a post with 5,000 comments', async () => {
		const cost = async (action: (db: Db) => Promise<unknown>) => {
			const { db, statements } = recordingDb(communityDb());
			await action(db);
			return { read: statements.reduce((sum, s) => sum + s.rowsRead, 0), written: statements.reduce((sum, s) => sum + s.rowsWritten, 0) };
		};
		const member = memberOf(1026);
		let created = 0;
		const written = await cost(
			async (db) =>
				(created = (await createComment(db, 1, member, postId, { content: 'bounded', requestId: crypto.randomUUID() }, Date.now())).comment
					.commentId),
		);
		const replied = await cost((db) => createComment(db, 1, member, postId, { content: 'bounded reply', parentId: expected[10]! }, Date.now()));
		const edited = await cost((db) => editComment(db, 1, member, postId, created, { content: 'edited' }, Date.now()));
		const deleted = await cost((db) => deleteComment(db, 1, member, postId, created, Date.now()));
		// A comment: its row and 4 index entries (thread order, member, request id, rowid), the post's
		// row and touchPost's channel row; as D1 counts them, at most 8.
		for (const action of [written, replied, edited, deleted]) {
			expect(action.written).toBeGreaterThan(0);
			expect(action.written).toBeLessThanOrEqual(8);
			expect(action.read).toBeLessThanOrEqual(20 + NEW_ID_ROWS_READ);
		}
	});
});

describe('an exact comment count under concurrency', () => {
	it('counts 100 comments written at once as 100, and 20 deletions of one comment as one', async () => {
		const postId = await freshPost();
		const writers = Array.from({ length: 100 }, (_, i) => memberOf(1002 + (i % 36)));
		const answers = await Promise.all(writers.map((member, i) => createComment(communityDb(), 1, member, postId, { content: `#${i}` }, Date.now())));
		expect(new Set(answers.map((answer) => answer.comment.commentId)).size).toBe(100);
		expect(await counts(postId)).toEqual({ commentCount: 100, counted: 100 });
		const target = answers[0]!.comment.commentId;
		const deletions = await Promise.allSettled(
			Array.from({ length: 20 }, () => deleteComment(communityDb(), 1, writers[0]!, postId, target, Date.now())),
		);
		expect(deletions.some((outcome) => outcome.status === 'fulfilled')).toBe(true);
		expect(await counts(postId)).toEqual({ commentCount: 99, counted: 99 });
	});

	it('keeps the count equal to the comments through a storm of writes and deletions', async () => {
		const postId = await freshPost();
		const seeded = await Promise.all(
			Array.from({ length: 40 }, (_, i) => createComment(communityDb(), 1, memberOf(1002 + (i % 36)), postId, { content: 'seed' }, Date.now())),
		);
		const actions = [
			...seeded.map((answer, i) => () => deleteComment(communityDb(), 1, memberOf(1002 + (i % 36)), postId, answer.comment.commentId, Date.now())),
			...seeded.map(
				(answer, i) => () =>
					createComment(communityDb(), 1, memberOf(1002 + (i % 36)), postId, { content: 'reply', parentId: answer.comment.commentId }, Date.now()),
			),
			...Array.from(
				{ length: 40 },
				(_, i) => () => createComment(communityDb(), 1, memberOf(1002 + (i % 36)), postId, { content: 'more' }, Date.now()),
			),
		];
		await Promise.allSettled(actions.map((action) => action()));
		const after = await counts(postId);
		expect(after.commentCount).toBe(after.counted);
		expect(after.counted).toBeGreaterThanOrEqual(40);
	});
});
