/**
 * A reply's context and a member's comment reports on the post page: each
 * reply names the comment it answers (`replyTo`: the reply it was written to, stored in
 * reply_to_id by migration 0024, or its thread's top-level comment), in the API's answers and the
 * post page's read alike; the post page marks the comments the signed-in member has reported.
 * Both are read with the page's one query, a bounded number of rows per item.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, GLOBAL, memberApi, publicApi, recordingDb, signIn, type Answer } from './harness';
import type { CommentItem } from '@/server/comments/comments';
import { listComments } from '@/server/comments/pages';
import { getPostWithComments, postWithCommentsOf, postWithCommentsRead } from '@/server/loaders/post-page';
import { run } from '@/server/platform/reads';
import { GUEST, type Viewer } from '@/server/visibility/visibility';
import { hashToken } from '@/server/platform/tokens';
import { COMMENT_PAGE_SIZE } from '@/schemas/comment-limits';

const MEMBER = memberApi();
const PUBLIC = publicApi();
const ADMIN: Viewer = { kind: 'member', memberId: 1001, admin: true };

let turn = 0;
const cookies = new Map<number, string>();
async function cookieOf(memberId: number): Promise<string> {
	let cookie = cookies.get(memberId);
	if (!cookie) cookies.set(memberId, (cookie = await signIn(memberId)));
	return cookie;
}
async function send(method: string, path: string, memberId: number, body?: unknown): Promise<Answer> {
	turn += 1;
	return call(`${MEMBER}${path}`, {
		method,
		cookie: await cookieOf(memberId),
		...(body === undefined ? {} : { body }),
		headers: { 'cf-connecting-ip': `replies-test:${turn}` },
	});
}
const comment = async (postId: number, memberId: number, body: { content: string; parentId?: number }) => {
	const answer = await send('POST', `/posts/${postId}/comments`, memberId, body);
	expect(answer.code, JSON.stringify(answer.body)).toBe(0);
	return (answer.body['content'] as { comment: CommentItem }).comment;
};
const nicknameOf = async (memberId: number) =>
	(await env.DB.prepare('SELECT nickname FROM members WHERE id = ?1').bind(memberId).first<string>('nickname'))!;
const tokenHashOf = async (memberId: number) => {
	const cookie = await cookieOf(memberId);
	return hashToken(cookie.slice(cookie.indexOf('=') + 1));
};

async function freshPost(authorId = 1007): Promise<number> {
	const row = await env.DB.prepare(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (1, 12, ?1, 'Replies test', '{"type":"doc","blocks":[]}', '', ?2) RETURNING id`,
	)
		.bind(authorId, Date.now())
		.first<{ id: number }>();
	return row!.id;
}

/** The post page's read of `postId` as the member of `tokenHash` (or a guest) and `viewer`. */
async function pageRead(postId: number, viewer: Viewer, tokenHash: string | null, db: Db = env.DB) {
	const row = await run(db, postWithCommentsRead(db, GLOBAL.id, postId, { kind: 'first' }, tokenHash));
	return postWithCommentsOf(row, viewer, { kind: 'first' })!.comments;
}

describe("a reply's context", () => {
	it('names the comment a reply answers: the top-level comment, or the reply it was written to', async () => {
		const postId = await freshPost();
		const top = await comment(postId, 1003, { content: 'top' });
		const reply = await comment(postId, 1004, { content: 'reply', parentId: top.commentId });
		const replyToReply = await comment(postId, 1005, { content: 'reply to a reply', parentId: reply.commentId });
		const [first, second] = [await nicknameOf(1003), await nicknameOf(1004)];
		// The answers of the API say it at once; a top-level comment has no context.
		expect(top).not.toHaveProperty('replyTo');
		expect(reply).toMatchObject({ parentId: top.commentId, replyTo: { commentId: top.commentId, nickname: first } });
		expect(replyToReply).toMatchObject({ parentId: top.commentId, replyTo: { commentId: reply.commentId, nickname: second } });
		// Stored: the reply answered (migration 0024), NULL when it is the thread's own comment.
		const stored = await env.DB.prepare('SELECT id, reply_to_id FROM comments WHERE post_id = ?1 ORDER BY id')
			.bind(postId)
			.all<{ id: number; reply_to_id: number | null }>();
		expect(stored.results.map((row) => row.reply_to_id)).toEqual([null, null, reply.commentId]);
		// The API's page, the post page's read and an edit's answer say the same.
		const page = (await call(`${PUBLIC}/posts/${postId}/comments`)).body['content'] as { comments: CommentItem[] };
		expect(page.comments).toEqual([top, reply, replyToReply]);
		expect(await pageRead(postId, GUEST, null)).toEqual([top, reply, replyToReply]);
		const edited = await send('PATCH', `/posts/${postId}/comments/${replyToReply.commentId}`, 1005, { content: 'changed' });
		expect((edited.body['content'] as { comment: CommentItem }).comment).toMatchObject({ replyTo: { commentId: reply.commentId, nickname: second } });
	});

	it('stands in the thread for a deleted reply, and names nobody the reader may not read', async () => {
		const postId = await freshPost();
		const top = await comment(postId, 1003, { content: 'top' });
		const gone = await comment(postId, 1004, { content: 'to be deleted', parentId: top.commentId });
		const hidden = await comment(postId, 1006, { content: 'to be hidden', parentId: top.commentId });
		const afterGone = await comment(postId, 1005, { content: 'answer', parentId: gone.commentId });
		const afterHidden = await comment(postId, 1005, { content: 'answer', parentId: hidden.commentId });
		expect((await send('DELETE', `/posts/${postId}/comments/${gone.commentId}`, 1004)).code).toBe(0);
		await env.DB.prepare('UPDATE comments SET hidden_by_admin = 1 WHERE id = ?1').bind(hidden.commentId).run();
		const replyTo = (items: CommentItem[], id: number) =>
			items.find((item) => item.commentId === id && item.readable)?.readable &&
			(items.find((item) => item.commentId === id) as { replyTo?: unknown }).replyTo;
		const guest = await pageRead(postId, GUEST, null);
		// The deleted reply is not listed: the link goes to its thread's comment, unnamed.
		expect(replyTo(guest, afterGone.commentId)).toEqual({ commentId: top.commentId, nickname: null });
		// The hidden one keeps its place: linked, but its author is named to administrators only.
		expect(replyTo(guest, afterHidden.commentId)).toEqual({ commentId: hidden.commentId, nickname: null });
		const admin = await getPostWithComments(env.DB, GLOBAL.id, postId, ADMIN);
		expect(replyTo(admin.comments, afterHidden.commentId)).toEqual({ commentId: hidden.commentId, nickname: await nicknameOf(1006) });
		// A withdrawn author is not named either (their nickname is gone).
		const withdrawn = await env.DB.prepare('SELECT id FROM members WHERE withdrawn_at IS NOT NULL LIMIT 1').first<number>('id');
		if (withdrawn !== null) {
			const left = (await env.DB.prepare(
				"INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at) VALUES (1, ?1, NULL, ?2, 'old', ?3) RETURNING id",
			)
				.bind(postId, withdrawn, Date.now())
				.first<number>('id'))!;
			const answer = await comment(postId, 1003, { content: 'to a withdrawn member', parentId: left });
			expect(answer).toMatchObject({ replyTo: { commentId: left, nickname: null } });
		}
	});
});

describe("the post page marks the member's reported comments", () => {
	it('marks the comments the member reported, for them alone, and the API never', async () => {
		const postId = await freshPost();
		const a = await comment(postId, 1003, { content: 'first' });
		const b = await comment(postId, 1004, { content: 'second', parentId: a.commentId });
		turn += 1;
		const reported = await call(`${MEMBER}/reports`, {
			method: 'POST',
			cookie: await cookieOf(1008),
			body: { targetType: 'COMMENT', targetId: b.commentId, reason: 'SPAM', detail: '' },
			headers: { 'cf-connecting-ip': `replies-test:${turn}` },
		});
		expect(reported.code, JSON.stringify(reported.body)).toBe(0);
		const viewer: Viewer = { kind: 'member', memberId: 1008, admin: false };
		const marks = (items: CommentItem[]) => items.map((item) => (item as { reported?: true }).reported ?? false);
		expect(marks(await pageRead(postId, viewer, await tokenHashOf(1008)))).toEqual([false, true]);
		// Another member, a guest (the shared cached page) and the API's page carry no mark.
		expect(marks(await pageRead(postId, { kind: 'member', memberId: 1009, admin: false }, await tokenHashOf(1009)))).toEqual([false, false]);
		expect(marks(await pageRead(postId, GUEST, null))).toEqual([false, false]);
		expect(marks((await listComments(env.DB, GLOBAL.id, postId, viewer, null)).comments)).toEqual([false, false]);
		// A session token of another channel finds nothing.
		const other = await env.DB.prepare('SELECT id FROM channels WHERE id <> 1 LIMIT 1').first<number>('id');
		const read = await run(env.DB, postWithCommentsRead(env.DB, other!, postId, { kind: 'first' }, await tokenHashOf(1008)));
		expect(read).toBeNull();
	});

	it('reads a bounded number of rows per page: each item, its author, the answered comment and its author, one report probe', async () => {
		const postId = await freshPost();
		// A full page and more: 40 threads of a comment and three replies (two to the comment, one to a reply).
		const rows: string[] = [];
		const now = Date.now();
		for (let thread = 0; thread < 40; thread += 1) rows.push(`(1, ${postId}, NULL, ${1002 + (thread % 30)}, 'c', ${now})`);
		await env.DB.prepare(`INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at) VALUES ${rows.join(', ')}`).run();
		const tops = (await env.DB.prepare('SELECT id FROM comments WHERE post_id = ?1 ORDER BY id').bind(postId).all<{ id: number }>()).results.map(
			(row) => row.id,
		);
		const replies = tops.flatMap((top, i) => [
			`(1, ${postId}, ${top}, NULL, ${1003 + (i % 30)}, 'r', ${now})`,
			`(1, ${postId}, ${top}, NULL, ${1004 + (i % 30)}, 'r', ${now})`,
		]);
		await env.DB.prepare(
			`INSERT INTO comments (channel_id, post_id, parent_id, reply_to_id, member_id, content, created_at) VALUES ${replies.join(', ')}`,
		).run();
		await env.DB.prepare(
			`INSERT INTO comments (channel_id, post_id, parent_id, reply_to_id, member_id, content, created_at)
			 SELECT 1, post_id, parent_id, max(id), 1010, 'rr', ?2 FROM comments WHERE post_id = ?1 AND parent_id IS NOT NULL GROUP BY parent_id`,
		)
			.bind(postId, now)
			.run();
		const { db, statements } = recordingDb();
		const items = await pageRead(postId, { kind: 'member', memberId: 1008, admin: false }, await tokenHashOf(1008), db);
		expect(items).toHaveLength(COMMENT_PAGE_SIZE);
		expect(statements).toHaveLength(1);
		// COMMENT_PAGE_SIZE + 1 items: the item and its author (2 rows), for a reply the comment it
		// answers and its author (2 more), a probe of the reports index (none found: 0 rows), the
		// session once; the post, its board, author and category: 4 × 101 + 12 = 416 at most.
		expect(statements[0]!.rowsRead).toBeLessThanOrEqual(4 * (COMMENT_PAGE_SIZE + 1) + 12);
	});
});
