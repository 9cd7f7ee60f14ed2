/**
 * Edit history (docs/reference/edit-history.md): the grace period (times chosen by the test), the
 * version an edit replaces stored in its own batch, 20 kept a post or comment with a bounded number
 * of rows per edit, the bytes bound, who reads them (GET …/revisions) with the catalogue's codes,
 * and their end: deletion, withdrawal, and the member's export.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, freshPost, GLOBAL, KOREAN, memberOf, publicApi, recordingDb, signIn } from './harness';
import { editPost, deletePost } from '@/server/posts/writing';
import { createComment, deleteComment, editComment } from '@/server/comments/writing';
import { listComments } from '@/server/comments/pages';
import { withdrawMember } from '@/server/accounts/withdrawal';
import { exportStream } from '@/server/members/export';
import { REVISIONS_PER_CONTENT } from '@/server/revisions/revisions';
import { EDIT_GRACE_MS } from '@/server/revisions/revisions';
import { GUEST } from '@/server/visibility/visibility';
import { InvalidParameter, MethodNotAllowed, PostNotFound, CommentNotFound, RevisionsHidden } from '@/lib/result-codes';

const PUBLIC = publicApi();
const AUTHOR = 1007;
const ADMIN = 1001;
const MINUTE = 60_000;

const doc = (text: string) => ({ type: 'doc' as const, blocks: [{ type: 'paragraph' as const, children: [{ text }] }] });

/** The author's edit of a post of the free board, at `now`. */
async function editAt(postId: number, title: string, text: string, now: number, db: Db = env.DB, authorId = AUTHOR) {
	const version = (await env.DB.prepare('SELECT version FROM posts WHERE id = ?1').bind(postId).first<number>('version'))!;
	const input = { boardId: 12, subjectId: null, title, content: doc(text), isPrivate: false, isNotice: false, version };
	return editPost(db, 1, memberOf(authorId), postId, input, now);
}

const createdAt = async (table: 'posts' | 'comments', id: number) =>
	(await env.DB.prepare(`SELECT created_at FROM ${table} WHERE id = ?1`).bind(id).first<number>('created_at'))!;

const stored = (type: 'POST' | 'COMMENT', id: number) =>
	env.DB.prepare('SELECT title, content, written_at, replaced_at FROM revisions WHERE content_type = ?1 AND content_id = ?2 ORDER BY id')
		.bind(type, id)
		.all<{ title: string | null; content: string; written_at: number; replaced_at: number }>()
		.then((result) => result.results);

async function revisionsOf(path: string, cookie?: string) {
	return call(`${PUBLIC}${path}/revisions`, cookie === undefined ? {} : { cookie });
}

/** A comment by `memberId` on `postId`, written at its creation time. */
async function commentOn(postId: number, memberId: number, content: string) {
	return (await createComment(env.DB, 1, memberOf(memberId), postId, { content }, Date.now())).comment.commentId;
}

describe('the grace period', () => {
	it('keeps no revision and no mark for an edit within 5 minutes; a later edit stores the version it replaced and shows its time', async () => {
		const postId = await freshPost(AUTHOR, {}, 'First title');
		const t0 = await createdAt('posts', postId);
		await editAt(postId, 'Second title', 'second words', t0 + EDIT_GRACE_MS - MINUTE);
		expect(await stored('POST', postId)).toEqual([]);
		const inGrace = await call(`${PUBLIC}/posts/${postId}`);
		expect(inGrace.body['content']).toMatchObject({ editedAt: t0 + EDIT_GRACE_MS - MINUTE });
		const page = await revisionsOf(`/posts/${postId}`);
		expect(page.code).toBe(0);
		expect(page.body['content']).toEqual({ revisions: [] });

		await editAt(postId, 'Third title', 'third words', t0 + EDIT_GRACE_MS + MINUTE);
		await editAt(postId, 'Fourth title', 'fourth words', t0 + EDIT_GRACE_MS + 2 * MINUTE);
		expect(await stored('POST', postId)).toEqual([
			{ title: 'Second title', content: 'second words', written_at: t0 + EDIT_GRACE_MS - MINUTE, replaced_at: t0 + EDIT_GRACE_MS + MINUTE },
			{ title: 'Third title', content: 'third words', written_at: t0 + EDIT_GRACE_MS + MINUTE, replaced_at: t0 + EDIT_GRACE_MS + 2 * MINUTE },
		]);
		// Anyone who reads the post reads them, newest first.
		const answer = await revisionsOf(`/posts/${postId}`);
		expect(answer.code).toBe(0);
		expect(answer.body['content']).toEqual({
			revisions: [
				{ title: 'Third title', content: 'third words', writtenAt: t0 + EDIT_GRACE_MS + MINUTE, replacedAt: t0 + EDIT_GRACE_MS + 2 * MINUTE },
				{ title: 'Second title', content: 'second words', writtenAt: t0 + EDIT_GRACE_MS - MINUTE, replacedAt: t0 + EDIT_GRACE_MS + MINUTE },
			],
		});
		// Never kept by the edge cache.
		expect(answer.headers.get('cache-control') ?? '').not.toMatch(/s-maxage|public/);
	});

	it('marks a comment edited, with its time, only after the grace period, and keeps its earlier text', async () => {
		const postId = await freshPost(AUTHOR);
		const commentId = await commentOn(postId, 1012, 'first text');
		const t0 = await createdAt('comments', commentId);
		const early = await editComment(env.DB, 1, memberOf(1012), postId, commentId, { content: 'second text' }, t0 + MINUTE);
		expect(early.comment).toMatchObject({ edited: false });
		expect(early.comment).not.toHaveProperty('editedAt');
		expect(await stored('COMMENT', commentId)).toEqual([]);
		const late = await editComment(env.DB, 1, memberOf(1012), postId, commentId, { content: 'third text' }, t0 + EDIT_GRACE_MS + 1);
		expect(late.comment).toMatchObject({ edited: true, editedAt: t0 + EDIT_GRACE_MS + 1 });
		const listed = await listComments(env.DB, 1, postId, GUEST, null);
		expect(listed.comments[0]).toMatchObject({ commentId, edited: true, editedAt: t0 + EDIT_GRACE_MS + 1, content: 'third text' });
		const answer = await revisionsOf(`/posts/${postId}/comments/${commentId}`);
		expect(answer.body['content']).toEqual({ revisions: [{ content: 'second text', writtenAt: t0 + MINUTE, replacedAt: t0 + EDIT_GRACE_MS + 1 }] });
	});
});

describe('bounds', () => {
	it(`keeps ${REVISIONS_PER_CONTENT} revisions through 100 edits, each edit writing at most one revision and deleting at most one`, async () => {
		const postId = await freshPost(AUTHOR, {}, 'Edit 0');
		const t0 = await createdAt('posts', postId);
		// Inside the grace period: the edit's own rows, the baseline.
		const baseline = recordingDb();
		await editAt(postId, 'Edit 0', 'text 0', t0 + 1, baseline.db);
		const written = (statements: { rowsWritten: number }[]) => statements.reduce((sum, statement) => sum + statement.rowsWritten, 0);
		for (let i = 1; i < 100; i += 1) await editAt(postId, `Edit ${i}`, `text ${i}`, t0 + EDIT_GRACE_MS + i * 1000);
		const revisions = await stored('POST', postId);
		expect(revisions).toHaveLength(REVISIONS_PER_CONTENT);
		// The newest twenty earlier versions: edits 79 to 98 (edit 99 is the post itself).
		expect(revisions.map((revision) => revision.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Edit ${79 + i}`));
		// The hundred-and-first edit: the edit's rows + 1 revision (its row and 2 index entries) + 1 deletion of the oldest (the same).
		const last = recordingDb();
		await editAt(postId, 'Edit 100', 'text 100', t0 + EDIT_GRACE_MS + 100_000, last.db);
		const onRevisions = last.statements.filter((statement) => /revisions/.test(statement.sql));
		expect(onRevisions).toHaveLength(2);
		for (const statement of onRevisions) expect(statement.rowsWritten).toBeGreaterThan(0);
		for (const statement of onRevisions) expect(statement.rowsWritten).toBeLessThanOrEqual(3);
		expect(written(last.statements)).toBeLessThanOrEqual(written(baseline.statements) + 6);
		expect(await stored('POST', postId)).toHaveLength(REVISIONS_PER_CONTENT);
		// A comment edited 30 times keeps 20 too.
		const commentId = await commentOn(postId, 1013, 'c 0');
		const c0 = await createdAt('comments', commentId);
		for (let i = 1; i <= 30; i += 1) await editComment(env.DB, 1, memberOf(1013), postId, commentId, { content: `c ${i}` }, c0 + EDIT_GRACE_MS + i);
		expect((await stored('COMMENT', commentId)).map((revision) => revision.content)).toEqual(Array.from({ length: 20 }, (_, i) => `c ${10 + i}`));
	});

	it('bounds a revision by its content: a post of 40,000 characters keeps 20 versions of at most that', async () => {
		const postId = await freshPost(AUTHOR, {}, 'Long');
		const t0 = await createdAt('posts', postId);
		for (let i = 0; i < 22; i += 1) await editAt(postId, 'Long', String(i % 10).repeat(40_000), t0 + EDIT_GRACE_MS + i + 1);
		const size = await env.DB.prepare(
			`SELECT count(*) AS n, max(length(content)) AS longest, sum(length(CAST(content AS BLOB)) + length(CAST(coalesce(title, '') AS BLOB))) AS bytes
			 FROM revisions WHERE content_type = 'POST' AND content_id = ?1`,
		)
			.bind(postId)
			.first<{ n: number; longest: number; bytes: number }>();
		expect(size).toMatchObject({ n: 20, longest: 40_000 });
		// 20 × (the body's maximum, 40,000 characters of at most 4 bytes, and a title of 100 characters).
		expect(size!.bytes).toBeLessThanOrEqual(20 * (40_000 + 100) * 4);
	});
});

describe('who reads them', () => {
	/** A post of `state` with one revision (its text edited after the grace period). */
	async function editedPost(state: Parameters<typeof freshPost>[1] = {}) {
		const postId = await freshPost(AUTHOR, {}, 'Before');
		await editAt(postId, 'After', 'after', (await createdAt('posts', postId)) + EDIT_GRACE_MS + 1);
		if (state.isPrivate) await env.DB.prepare('UPDATE posts SET is_private = 1 WHERE id = ?1').bind(postId).run();
		if (state.hidden) await env.DB.prepare('UPDATE posts SET hidden_by_admin = 1 WHERE id = ?1').bind(postId).run();
		return postId;
	}

	it("lets the post's readers read a post's; a hidden post's administrators only; a private one its author and administrators", async () => {
		const [guest, author, admin, other] = [undefined, await signIn(AUTHOR), await signIn(ADMIN), await signIn(1012)];
		const visible = await editedPost();
		for (const cookie of [guest, author, admin, other]) expect((await revisionsOf(`/posts/${visible}`, cookie)).code).toBe(0);
		const hidden = await editedPost({ hidden: true });
		for (const cookie of [guest, author, other]) {
			const refused = await revisionsOf(`/posts/${hidden}`, cookie);
			expect([refused.status, refused.code]).toEqual([403, RevisionsHidden.code]);
		}
		expect((await revisionsOf(`/posts/${hidden}`, admin)).body['content']).toMatchObject({ revisions: [{ title: 'Before' }] });
		const privatePost = await editedPost({ isPrivate: true });
		for (const cookie of [guest, other]) expect((await revisionsOf(`/posts/${privatePost}`, cookie)).code).toBe(PostNotFound.code);
		for (const cookie of [author, admin]) expect((await revisionsOf(`/posts/${privatePost}`, cookie)).code).toBe(0);
	});

	it("answers a hidden comment's to administrators only, and none for a deleted one", async () => {
		const postId = await freshPost(AUTHOR);
		const commentId = await commentOn(postId, 1014, 'was');
		await editComment(env.DB, 1, memberOf(1014), postId, commentId, { content: 'is' }, (await createdAt('comments', commentId)) + EDIT_GRACE_MS + 1);
		await env.DB.prepare('UPDATE comments SET hidden_by_admin = 1 WHERE id = ?1').bind(commentId).run();
		for (const cookie of [undefined, await signIn(1014)]) {
			expect((await revisionsOf(`/posts/${postId}/comments/${commentId}`, cookie)).code).toBe(RevisionsHidden.code);
		}
		const admin = await signIn(ADMIN);
		expect((await revisionsOf(`/posts/${postId}/comments/${commentId}`, admin)).body['content']).toEqual({
			revisions: [expect.objectContaining({ content: 'was' })],
		});
		await env.DB.prepare('UPDATE comments SET deleted_at = ?2 WHERE id = ?1').bind(commentId, Date.now()).run();
		expect((await revisionsOf(`/posts/${postId}/comments/${commentId}`, admin)).code).toBe(CommentNotFound.code);
	});

	it("answers bad ids, another post's comment, another community's ids, a query and other methods with their codes", async () => {
		const postId = await editedPost();
		const otherPost = await freshPost(AUTHOR);
		const commentId = await commentOn(otherPost, 1015, 'elsewhere');
		const korean = await freshPost(AUTHOR, { channelId: KOREAN.id, boardId: await koreanBoard() });
		for (const [path, code] of [
			['/posts/abc', InvalidParameter.code],
			['/posts/0', InvalidParameter.code],
			['/posts/-1', InvalidParameter.code],
			[`/posts/${postId}/comments/x`, InvalidParameter.code],
			[`/posts/99999999`, PostNotFound.code],
			[`/posts/${korean}`, PostNotFound.code],
			[`/posts/${postId}/comments/${commentId}`, CommentNotFound.code],
			[`/posts/${postId}/comments/99999999`, CommentNotFound.code],
		] as const) {
			const answer = await revisionsOf(path);
			expect(answer.code, path).toBe(code);
			expect(answer.body.header.isSuccessful).toBe(false);
		}
		expect((await call(`${PUBLIC}/posts/${postId}/revisions?x=1`)).code).toBe(InvalidParameter.code);
		for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
			expect((await call(`${PUBLIC}/posts/${postId}/revisions`, { method, body: {} })).code, method).toBe(MethodNotAllowed.code);
		}
	});
});

async function koreanBoard(): Promise<number> {
	return (await env.DB.prepare('SELECT id FROM boards WHERE channel_id = ?1 AND is_public = 1 ORDER BY id LIMIT 1')
		.bind(KOREAN.id)
		.first<number>('id'))!;
}

describe('their end', () => {
	it("goes with the post's or the comment's deletion (at most 20 rows each), and with the author's withdrawal", async () => {
		const postId = await freshPost(AUTHOR);
		const t0 = await createdAt('posts', postId);
		await editAt(postId, 'A', 'a', t0 + EDIT_GRACE_MS + 1);
		const commentId = await commentOn(postId, 1016, 'x');
		await editComment(env.DB, 1, memberOf(1016), postId, commentId, { content: 'y' }, (await createdAt('comments', commentId)) + EDIT_GRACE_MS + 1);
		await deleteComment(env.DB, 1, memberOf(1016), postId, commentId, Date.now());
		expect(await stored('COMMENT', commentId)).toEqual([]);
		expect(await stored('POST', postId)).toHaveLength(1);
		await deletePost(env.DB, 1, memberOf(AUTHOR), postId, Date.now());
		expect(await stored('POST', postId)).toEqual([]);
		expect((await revisionsOf(`/posts/${postId}`)).code).toBe(PostNotFound.code);

		const kept = await freshPost(1017);
		await editAt(kept, 'B', 'b', (await createdAt('posts', kept)) + EDIT_GRACE_MS + 1, env.DB, 1017);
		expect(await stored('POST', kept)).toHaveLength(1);
		await withdrawMember(env.DB, 1, 1017);
		expect(await stored('POST', kept)).toEqual([]);
	});

	it("is in the member's export: their own revisions, nobody else's", async () => {
		const mine = await freshPost(1018, {}, 'Mine');
		await editAt(mine, 'Mine 2', 'two', (await createdAt('posts', mine)) + EDIT_GRACE_MS + 1, env.DB, 1018);
		const theirs = await commentOn(mine, 1019, 'theirs');
		await editComment(env.DB, 1, memberOf(1019), mine, theirs, { content: 'theirs 2' }, (await createdAt('comments', theirs)) + EDIT_GRACE_MS + 1);
		const channel = { id: GLOBAL.id, domain: GLOBAL.domain, slug: GLOBAL.slug, title: 'Global' };
		const file = JSON.parse(await new Response(exportStream(env.DB, { channel, memberId: 1018, origin: 'http://localhost' }, Date.now())).text()) as {
			revisions: unknown[];
		};
		expect(file.revisions).toEqual([
			{ type: 'POST', id: mine, title: 'Mine', content: '', writtenAt: expect.any(String), replacedAt: expect.any(String) },
		]);
	});
});
