import { describe, expect, it } from 'vitest';
import { deletePost, mayChangePost } from '@/server/posts/writing';
import type { SessionMember } from '@/server/sign-in/sessions';
import { call, memberApi, publicApi, recordingDb, signIn, KOREAN, type Answer } from './harness';
import { communityDb, inCommunityRange, inLayout, LAYOUTS } from './layouts';

const MEMBER = memberApi();
const PUBLIC = publicApi();
const ADMIN = 1001;
const AUTHOR = 1007;
const OTHER = 1008;
const TEMPORARILY_BANNED = 1038;

const paragraph = (text: string) => ({ type: 'paragraph', children: [{ text }] });

function postBody(overrides: Record<string, unknown> = {}) {
	return {
		boardId: 12,
		subjectId: 121,
		title: 'Raid night recap',
		content: { type: 'doc', blocks: [paragraph('We cleared the second boss at last.')] },
		isPrivate: false,
		isNotice: false,
		requestId: crypto.randomUUID(),
		...overrides,
	};
}

async function write(memberId: number, overrides: Record<string, unknown> = {}): Promise<{ postId: number; cookie: string }> {
	const cookie = await signIn(memberId);
	const answer = await call(`${MEMBER}/posts`, { method: 'POST', cookie, body: postBody(overrides) });
	expect(answer.code, JSON.stringify(answer.body)).toBe(0);
	return { postId: (answer.body['content'] as { postId: number }).postId, cookie };
}

async function version(postId: number): Promise<number> {
	return (await communityDb().prepare('SELECT version FROM posts WHERE id = ?1').bind(postId).first<number>('version'))!;
}

async function postRow(postId: number) {
	return communityDb().prepare('SELECT * FROM posts WHERE id = ?1').bind(postId).first<Record<string, unknown>>();
}

async function listed(url: string): Promise<number[]> {
	const answer = await call(url);
	const content = answer.body['content'] as { posts: { postId: number }[] };
	return content.posts.map((post) => post.postId);
}

async function contentVersion(): Promise<number> {
	return (await communityDb().prepare('SELECT content_version FROM channels WHERE id = 1').first<number>('content_version'))!;
}

/** The edge cache's list versions of channel 1 (channels.list_versions). */
async function listVersions(): Promise<Record<string, number>> {
	return JSON.parse((await communityDb().prepare('SELECT list_versions FROM channels WHERE id = 1').first<string>('list_versions'))!) as Record<
		string,
		number
	>;
}

describe.each(LAYOUTS)('$name', (layout) => {
	inLayout(layout);

	describe('writing a post', () => {
		it('creates the post, lists it first in its board, its category and All Posts, and opens it', async () => {
			const before = await contentVersion();
			const lists = await listVersions();
			const { postId } = await write(AUTHOR);
			expect(postId, 'an id in the range of its database').toSatisfy((id: number) => inCommunityRange('posts', id));
			expect((await listed(`${PUBLIC}/posts?boardId=12`))[0]).toBe(postId);
			expect((await listed(`${PUBLIC}/posts?boardId=12&subjectId=121`))[0]).toBe(postId);
			expect((await listed(`${PUBLIC}/posts`))[0]).toBe(postId);
			const read = await call(`${PUBLIC}/posts/${postId}`);
			expect(read.body['content']).toMatchObject({ title: 'Raid night recap', readable: true });
			// Its board's list and All Posts go cold for guests; the layout (the content version) does not.
			expect(await contentVersion()).toBe(before);
			const after = await listVersions();
			expect([after['b12'], after['all']]).toEqual([(lists['b12'] ?? 0) + 1, (lists['all'] ?? 0) + 1]);
		});

		it('creates one post for a request sent twice, even at once', async () => {
			const cookie = await signIn(AUTHOR);
			const body = postBody({ title: 'Sent twice' });
			const [first, second] = await Promise.all([
				call(`${MEMBER}/posts`, { method: 'POST', cookie, body }),
				call(`${MEMBER}/posts`, { method: 'POST', cookie, body }),
			]);
			const third = await call(`${MEMBER}/posts`, { method: 'POST', cookie, body });
			const ids = [first, second, third].map((answer) => (answer.body['content'] as { postId: number }).postId);
			expect(new Set(ids).size).toBe(1);
			const count = await communityDb().prepare("SELECT count(*) AS n FROM posts WHERE title = 'Sent twice'").first<number>('n');
			expect(count).toBe(1);
		});

		it('keeps a private post out of every list, for its author to read', async () => {
			const { postId, cookie } = await write(AUTHOR, { isPrivate: true, title: 'Only mine' });
			expect(await listed(`${PUBLIC}/posts?boardId=12`)).not.toContain(postId);
			expect(await listed(`${PUBLIC}/posts`)).not.toContain(postId);
			expect((await call(`${PUBLIC}/posts/${postId}`)).body['content']).toMatchObject({ readable: false, state: 'PRIVATE' });
			expect((await call(`${PUBLIC}/posts/${postId}`, { cookie })).body['content']).toMatchObject({ readable: true, title: 'Only mine' });
		});

		it('stores a one-line, trimmed title and refuses a missing or too long one', async () => {
			const { postId } = await write(AUTHOR, { title: '  Two\nlines  ' });
			expect((await postRow(postId))?.['title']).toBe('Two lines');
			const cookie = await signIn(AUTHOR);
			const refuse = async (title: string) => (await call(`${MEMBER}/posts`, { method: 'POST', cookie, body: postBody({ title }) })).code;
			expect(await refuse('   ')).toBe(-4001431);
			expect(await refuse('가'.repeat(101))).toBe(-4001432);
			// 100 characters (an emoji is one) are allowed.
			expect(await refuse('😀'.repeat(100))).toBe(0);
		});

		it('refuses an empty body, and a body of only spaces', async () => {
			const cookie = await signIn(AUTHOR);
			for (const blocks of [[], [paragraph('   ')]]) {
				const answer = await call(`${MEMBER}/posts`, { method: 'POST', cookie, body: postBody({ content: { type: 'doc', blocks } }) });
				expect(answer.code).toBe(-4001433);
			}
		});

		it('answers each category rule with its own code (the subject alert codes of docs/reference/product-rules.md#errors-and-texts)', async () => {
			const admin = await signIn(ADMIN);
			// The announcements board (11) takes no category.
			expect((await call(`${MEMBER}/posts`, { method: 'POST', cookie: admin, body: postBody({ boardId: 11, subjectId: 121 }) })).code).toBe(-4001404);
			// Another board's category, and a disabled one.
			expect((await call(`${MEMBER}/posts`, { method: 'POST', cookie: admin, body: postBody({ subjectId: 131 }) })).code).toBe(-4041405);
			await communityDb().prepare('UPDATE board_subjects SET enabled = 0 WHERE id = 124').run();
			expect((await call(`${MEMBER}/posts`, { method: 'POST', cookie: admin, body: postBody({ subjectId: 124 }) })).code).toBe(-4041405);
			await communityDb().prepare('UPDATE board_subjects SET enabled = 1 WHERE id = 124').run();
			// 'None' is always allowed.
			expect((await call(`${MEMBER}/posts`, { method: 'POST', cookie: admin, body: postBody({ boardId: 11, subjectId: null }) })).code).toBe(0);
		});
	});

	describe('who may write where', () => {
		const AUTHOR = 1009;
		it('asks a guest to log in, and gives a banned member the ban', async () => {
			expect((await call(`${MEMBER}/posts`, { method: 'POST', body: postBody() })).code).toBe(-4011401);
			const banned = await call(`${MEMBER}/posts`, { method: 'POST', cookie: await signIn(TEMPORARILY_BANNED), body: postBody() });
			expect(banned.code).toBe(-4031452);
			expect(banned.body['ban']).toMatchObject({ kind: 'TEMPORARY' });
		});

		it('keeps members out of private and notice-only boards and off the notice flag; administrators may', async () => {
			const member = await signIn(AUTHOR);
			const admin = await signIn(ADMIN);
			expect((await call(`${MEMBER}/posts`, { method: 'POST', cookie: member, body: postBody({ boardId: 17, subjectId: null }) })).code).toBe(
				-4031404,
			);
			expect((await call(`${MEMBER}/posts`, { method: 'POST', cookie: member, body: postBody({ isNotice: true }) })).code).toBe(-4031403);
			await communityDb().prepare('UPDATE boards SET notice_only = 1 WHERE id = 11').run();
			try {
				expect((await call(`${MEMBER}/posts`, { method: 'POST', cookie: member, body: postBody({ boardId: 11, subjectId: null }) })).code).toBe(
					-4031431,
				);
				expect(
					(await call(`${MEMBER}/posts`, { method: 'POST', cookie: admin, body: postBody({ boardId: 11, subjectId: null, isNotice: true }) })).code,
				).toBe(0);
			} finally {
				await communityDb().prepare('UPDATE boards SET notice_only = 0 WHERE id = 11').run();
			}
			expect((await call(`${MEMBER}/posts`, { method: 'POST', cookie: admin, body: postBody({ boardId: 17, subjectId: null }) })).code).toBe(0);
		});

		it("refuses another channel's board as not found", async () => {
			// Board 22 belongs to the Korean community.
			const answer = await call(`${MEMBER}/posts`, {
				method: 'POST',
				cookie: await signIn(AUTHOR),
				body: postBody({ boardId: 22, subjectId: null }),
			});
			expect(answer.code).toBe(-4041402);
		});

		it('lets only the author edit, the author and an administrator delete, and nobody a post of another channel', async () => {
			const { postId } = await write(AUTHOR);
			const other = await signIn(OTHER);
			const edit = (cookie: string | undefined, id = postId, channel = MEMBER) =>
				call(`${channel}/posts/${id}`, {
					method: 'PUT',
					...(cookie ? { cookie } : {}),
					body: { ...postBody({ title: 'Changed' }), requestId: undefined, version: 1 },
				});
			expect((await edit(undefined)).code).toBe(-4011401);
			expect((await edit(other)).code).toBe(-4031403);
			expect((await call(`${MEMBER}/posts/${postId}`, { method: 'DELETE', cookie: other })).code).toBe(-4031403);
			expect((await edit(await signIn(TEMPORARILY_BANNED))).code).toBe(-4031452);
			// The same id under the Korean community is not found there.
			expect((await edit(await signIn(2007, KOREAN), postId, memberApi(KOREAN))).code).toBe(-4041403);
			// An administrator may not rewrite a member's post either: they hide or delete it.
			expect((await edit(await signIn(ADMIN))).code).toBe(-4031403);
			expect((await postRow(postId))?.['title']).toBe('Raid night recap');
			expect((await edit(await signIn(AUTHOR))).code).toBe(0);
			expect((await postRow(postId))?.['title']).toBe('Changed');
		});

		it("decides the post page's Edit and Delete by the rule the services apply (mayChangePost)", () => {
			const member = (userId: number, role: SessionMember['role']): SessionMember => ({
				userId,
				nickname: `m${userId}`,
				role,
				provider: 'GOOGLE',
				recentProvider: 'GOOGLE',
				joinedAt: 0,
			});
			expect(mayChangePost('edit', AUTHOR, member(AUTHOR, 'MEMBER'))).toBe(true);
			expect(mayChangePost('delete', AUTHOR, member(AUTHOR, 'MEMBER'))).toBe(true);
			expect(mayChangePost('edit', AUTHOR, member(OTHER, 'MEMBER'))).toBe(false);
			expect(mayChangePost('delete', AUTHOR, member(OTHER, 'MEMBER'))).toBe(false);
			expect(mayChangePost('edit', AUTHOR, member(ADMIN, 'ADMIN'))).toBe(false);
			expect(mayChangePost('delete', AUTHOR, member(ADMIN, 'ADMIN'))).toBe(true);
		});
	});

	describe("an administrator and a member's post", () => {
		const AUTHOR = 1014;
		const editBody = (overrides: Record<string, unknown>, version: number) => ({ ...postBody(overrides), requestId: undefined, version });
		const logRows = (postId: number) =>
			communityDb()
				.prepare("SELECT moderator_id, action, target_type, target_id, reason FROM moderation_log WHERE target_type = 'POST' AND target_id = ?1")
				.bind(postId)
				.all();

		it("refuses an administrator's edit of someone else's post, its move into the staff board and its editor, changing nothing", async () => {
			const { postId } = await write(AUTHOR);
			const admin = await signIn(ADMIN);
			const before = await postRow(postId);
			for (const overrides of [
				{ title: 'Rewritten by staff' },
				{ boardId: 17, subjectId: null },
				{ content: { type: 'doc', blocks: [paragraph('Not what the member wrote.')] } },
			]) {
				const answer = await call(`${MEMBER}/posts/${postId}`, { method: 'PUT', cookie: admin, body: editBody(overrides, 1) });
				expect([answer.status, answer.code], JSON.stringify(overrides)).toEqual([403, -4031403]);
			}
			expect(await postRow(postId)).toEqual(before);
			expect((await logRows(postId)).results).toEqual([]);
			// An administrator still edits their own post, anywhere they may write.
			const own = await write(ADMIN, { title: 'Staff note' });
			expect(
				(await call(`${MEMBER}/posts/${own.postId}`, { method: 'PUT', cookie: admin, body: editBody({ boardId: 17, subjectId: null }, 1) })).code,
			).toBe(0);
		});

		it("moves a member's post only to a board the member may write in, by the member's own rights", async () => {
			const { postId, cookie } = await write(AUTHOR);
			// The private staff board, and a notice-only board, are not the member's.
			expect((await call(`${MEMBER}/posts/${postId}`, { method: 'PUT', cookie, body: editBody({ boardId: 17, subjectId: null }, 1) })).code).toBe(
				-4031404,
			);
			await communityDb().prepare('UPDATE boards SET notice_only = 1 WHERE id = 11').run();
			try {
				expect((await call(`${MEMBER}/posts/${postId}`, { method: 'PUT', cookie, body: editBody({ boardId: 11, subjectId: null }, 1) })).code).toBe(
					-4031431,
				);
			} finally {
				await communityDb().prepare('UPDATE boards SET notice_only = 0 WHERE id = 11').run();
			}
			expect((await postRow(postId))?.['board_id']).toBe(12);
			expect(await version(postId)).toBe(1);
		});

		it("logs an administrator's deletion of someone else's post in the deletion's batch, and no one's own deletion", async () => {
			const { postId } = await write(AUTHOR);
			const admin = await signIn(ADMIN);
			const { db, statements } = recordingDb(communityDb());
			await deletePost(
				db,
				1,
				{ userId: ADMIN, nickname: 'admin', role: 'ADMIN', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 },
				postId,
				Date.now(),
			);
			// One batch: the re-check, the lists, the post, search, the log's row and the content version.
			const batch = statements.filter((statement) => /moderation_log/.test(statement.sql));
			expect(batch).toHaveLength(1);
			expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBeLessThanOrEqual(110);
			expect((await logRows(postId)).results).toEqual([
				{ moderator_id: ADMIN, action: 'DELETE_POST', target_type: 'POST', target_id: postId, reason: '' },
			]);
			// The author's own deletion, and an administrator's of their own post, are not moderation.
			const mine = await write(AUTHOR);
			expect((await call(`${MEMBER}/posts/${mine.postId}`, { method: 'DELETE', cookie: mine.cookie })).code).toBe(0);
			const staff = await write(ADMIN);
			expect((await call(`${MEMBER}/posts/${staff.postId}`, { method: 'DELETE', cookie: admin })).code).toBe(0);
			expect((await logRows(mine.postId)).results).toEqual([]);
			expect((await logRows(staff.postId)).results).toEqual([]);
		});

		it('a failed deletion writes no log row (deleted twice at once)', async () => {
			const { postId } = await write(AUTHOR);
			const admin = await signIn(ADMIN);
			const answers = await Promise.all([0, 1].map(() => call(`${MEMBER}/posts/${postId}`, { method: 'DELETE', cookie: admin })));
			expect(answers.map((answer) => answer.code).sort()).toEqual([-4041403, 0]);
			expect((await logRows(postId)).results).toHaveLength(1);
		});
	});

	describe('editing', () => {
		const AUTHOR = 1011;
		it('saves the fields, bumps the version and refuses an edit from an older version', async () => {
			const { postId, cookie } = await write(AUTHOR);
			const body = (overrides: Record<string, unknown>) => ({ ...postBody(overrides), requestId: undefined });
			const first = await call(`${MEMBER}/posts/${postId}`, { method: 'PUT', cookie, body: { ...body({ title: 'Edited once' }), version: 1 } });
			expect(first.body['content']).toEqual({ postId, version: 2 });
			const stale = await call(`${MEMBER}/posts/${postId}`, { method: 'PUT', cookie, body: { ...body({ title: 'From another tab' }), version: 1 } });
			expect(stale.status).toBe(409);
			expect(stale.code).toBe(-4091431);
			expect((await postRow(postId))?.['title']).toBe('Edited once');
			expect((await postRow(postId))?.['edited_at']).toEqual(expect.any(Number));
		});

		it('moves a post to another board and category, and back out of the lists when made private', async () => {
			const { postId, cookie } = await write(AUTHOR);
			const move = await call(`${MEMBER}/posts/${postId}`, {
				method: 'PUT',
				cookie,
				body: { ...postBody({ boardId: 13, subjectId: 131 }), requestId: undefined, version: 1 },
			});
			expect(move.code).toBe(0);
			expect(await listed(`${PUBLIC}/posts?boardId=12`)).not.toContain(postId);
			expect((await listed(`${PUBLIC}/posts?boardId=13&subjectId=131`))[0]).toBe(postId);
			const hide = await call(`${MEMBER}/posts/${postId}`, {
				method: 'PUT',
				cookie,
				body: { ...postBody({ boardId: 13, subjectId: 131, isPrivate: true }), requestId: undefined, version: 2 },
			});
			expect(hide.code).toBe(0);
			expect(await listed(`${PUBLIC}/posts?boardId=13`)).not.toContain(postId);
			expect(await listed(`${PUBLIC}/posts`)).not.toContain(postId);
		});
	});

	describe('deleting', () => {
		const AUTHOR = 1012;
		it('shows the deleted state, leaves every list and cannot be done twice', async () => {
			const { postId, cookie } = await write(AUTHOR);
			const boardCount = async () => (await communityDb().prepare('SELECT listed_count FROM boards WHERE id = 12').first<number>('listed_count'))!;
			const before = await boardCount();
			expect((await call(`${MEMBER}/posts/${postId}`, { method: 'DELETE', cookie })).code).toBe(0);
			expect(await boardCount()).toBe(before - 1);
			expect((await call(`${PUBLIC}/posts/${postId}`)).body['content']).toMatchObject({ readable: false, state: 'DELETED' });
			expect(await listed(`${PUBLIC}/posts?boardId=12`)).not.toContain(postId);
			expect((await call(`${MEMBER}/posts/${postId}`, { method: 'DELETE', cookie })).code).toBe(-4041403);
			const edit = await call(`${MEMBER}/posts/${postId}`, {
				method: 'PUT',
				cookie,
				body: { ...postBody(), requestId: undefined, version: await version(postId) },
			});
			expect(edit.code).toBe(-4041403);
			expect(await boardCount()).toBe(before - 1);
		});

		it("lets an administrator delete a member's post", async () => {
			const { postId } = await write(AUTHOR);
			expect((await call(`${MEMBER}/posts/${postId}`, { method: 'DELETE', cookie: await signIn(ADMIN) })).code).toBe(0);
		});
	});
});

describe('bad input changes nothing and is answered in the envelope', () => {
	const AUTHOR = 1013;
	const cases: [string, { method: string; path: string; body?: unknown; headers?: Record<string, string> }, number][] = [
		['a malformed post id', { method: 'PUT', path: '/posts/abc', body: {} }, -4001400],
		['a post id beyond 2^53', { method: 'DELETE', path: '/posts/99999999999999999' }, -4001400],
		['an unknown post', { method: 'DELETE', path: '/posts/987654321' }, -4041403],
		['a board id as a string', { method: 'POST', path: '/posts', body: postBody({ boardId: '12' }) }, -4001400],
		['a negative board id', { method: 'POST', path: '/posts', body: postBody({ boardId: -1 }) }, -4001400],
		['an unknown field', { method: 'POST', path: '/posts', body: { ...postBody(), memberId: ADMIN } }, -4001400],
		['a missing request id', { method: 'POST', path: '/posts', body: { ...postBody(), requestId: undefined } }, -4001400],
		['a body that is not a document', { method: 'POST', path: '/posts', body: postBody({ content: '<p>hi</p>' }) }, -4001400],
		[
			'a script block',
			{ method: 'POST', path: '/posts', body: postBody({ content: { type: 'doc', blocks: [{ type: 'script', children: [] }] } }) },
			-4001400,
		],
		[
			'a javascript: link',
			{
				method: 'POST',
				path: '/posts',
				body: postBody({ content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'x', link: 'javascript:alert(1)' }] }] } }),
			},
			-4001400,
		],
		['malformed JSON', { method: 'POST', path: '/posts', body: '{"boardId":' }, -4001405],
		['a form body', { method: 'POST', path: '/posts', body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, -4151401],
		['a body over 512 KB', { method: 'POST', path: '/posts', body: JSON.stringify(postBody({ title: 'x'.repeat(600_000) })) }, -4131401],
		['a query string', { method: 'POST', path: '/posts?boardId=12', body: postBody() }, -4001400],
		['GET on posts', { method: 'GET', path: '/posts' }, -4051401],
		['PATCH on a post', { method: 'PATCH', path: '/posts/1', body: {} }, -4051401],
	];
	it.each(cases)('%s', async (_name, request, code) => {
		const before = await communityDb().prepare('SELECT count(*) AS n, max(version) AS v, sum(length(title)) AS t FROM posts').first();
		const answer: Answer = await call(`${MEMBER}${request.path}`, {
			method: request.method,
			cookie: await signIn(AUTHOR),
			body: request.body,
			...(request.headers ? { headers: request.headers } : {}),
		});
		expect(answer.code).toBe(code);
		expect(answer.status).toBeLessThan(500);
		expect(await communityDb().prepare('SELECT count(*) AS n, max(version) AS v, sum(length(title)) AS t FROM posts').first()).toEqual(before);
	});

	it('refuses a write from another site', async () => {
		const answer = await call(`${MEMBER}/posts`, {
			method: 'POST',
			cookie: await signIn(AUTHOR),
			body: postBody(),
			headers: { origin: 'https://evil.example' },
		});
		expect(answer.code).toBe(-4031401);
	});
});
