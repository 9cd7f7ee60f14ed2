/**
 * The admin API (functions/api/routers/admin.ts): who may use each route (a guest, a member, an
 * administrator of another community, a revoked and a banned administrator are refused: a guest
 * with -4011401, a banned one with the ban, the others with -4031403; and change nothing), what hide and unhide change for readers (lists, search, the post's
 * state) and the audit log they write.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { searchPosts } from '@/server/search/search';
import { setMemberRole } from '@/server/members/roles';
import { call, postWhere, publicApi, queryPlan, recordingDb, signIn, signUp, startOfRateWindow, KOREAN, ORIGIN } from './harness';
import { removedText } from '@/server/moderation/removed-text';
import { listLog, logStatement, TARGET_EXCERPT } from '@/server/moderation/log';
import { closeReportsStatement, listClosedReports } from '@/server/moderation/reports-queue';

const ADMIN_API = `${ORIGIN}/admin/v1/starfall/global`;
const ADMIN = 1001;
const MEMBER = 1007;

async function newComment(postId: number): Promise<number> {
	const answer = await call(`${ORIGIN}/v1/starfall/global/posts/${postId}/comments`, {
		method: 'POST',
		cookie: await signIn(MEMBER),
		body: { content: `moderated ${crypto.randomUUID()}` },
	});
	expect(answer.code, JSON.stringify(answer.body)).toBe(0);
	return (answer.body['content'] as { comment: { commentId: number } }).comment.commentId;
}

/** Every admin route, as [method, path, body]. */
function routes(postId: number, commentId: number): [string, string, unknown][] {
	return [
		['POST', `/posts/${postId}/hide`, { reason: 'spam' }],
		['POST', `/posts/${postId}/unhide`, {}],
		['POST', `/comments/${commentId}/hide`, {}],
		['POST', `/comments/${commentId}/unhide`, {}],
		['GET', '/audit-log', undefined],
		['POST', `/members/${MEMBER}/ban`, { kind: 'PERMANENT', reason: 'spam' }],
		['POST', `/members/${MEMBER}/unban`, {}],
		['GET', `/members/${MEMBER}/bans`, undefined],
		['GET', '/reports', undefined],
		['GET', '/reports/history', undefined],
		['POST', `/reports/posts/${postId}/dismiss`, {}],
		['GET', '/bans', undefined],
		['GET', '/members?nickname=anyone', undefined],
		['GET', '/settings', undefined],
		['PUT', '/settings', { autoHideReports: 3 }],
		['PUT', '/settings', { reportMinAgeHours: 0 }],
		['POST', `/content/posts/${postId}`, undefined],
		['POST', `/content/comments/${commentId}`, undefined],
	];
}

describe('who may use the admin API', () => {
	it('refuses everyone but an administrator of the community, on every route, changing nothing', async () => {
		const postId = await postWhere('board_id = 12 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
		const commentId = await newComment(postId);
		// Two administrators who stop being one: a revoked one and a banned one, signed in while they were.
		await env.DB.prepare("UPDATE members SET role = 'ADMIN' WHERE id IN (1011, 1012)").run();
		const revoked = await signIn(1011);
		const banned = await signIn(1012);
		await env.DB.prepare("UPDATE members SET role = 'MEMBER' WHERE id = 1011").run();
		await env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, 1012, 'PERMANENT', NULL, ?1)")
			.bind(Date.now())
			.run();
		// Authentication first (a guest here: LoginRequired; a banned one: the ban), then the role (Forbidden).
		const readers: [string, string | undefined, [number, number]][] = [
			['a guest', undefined, [401, -4011401]],
			['a member', await signIn(MEMBER), [403, -4031403]],
			["another community's administrator", await signIn(2001, KOREAN), [401, -4011401]],
			['a revoked administrator', revoked, [403, -4031403]],
			['a banned administrator', banned, [403, -4031452]],
		];
		const log = async () =>
			env.DB.prepare(
				"SELECT (SELECT count(*) FROM moderation_log) + (SELECT count(*) FROM bans) + (SELECT count(*) FROM reports WHERE status <> 'OPEN') + (SELECT count(*) FROM channels WHERE auto_hide_reports IS NOT NULL OR report_min_age_hours <> 72) AS n",
			).first<number>('n');
		const before = { log: await log(), post: await env.DB.prepare('SELECT hidden_by_admin, version FROM posts WHERE id = ?1').bind(postId).first() };
		for (const [name, cookie, refusal] of readers) {
			for (const [method, path, body] of routes(postId, commentId)) {
				const answer = await call(`${ADMIN_API}${path}`, { method, ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { body }) });
				expect([answer.status, answer.code], `${name} ${method} ${path}`).toEqual(refusal);
			}
		}
		expect(await log()).toBe(before.log);
		expect(await env.DB.prepare('SELECT hidden_by_admin, version FROM posts WHERE id = ?1').bind(postId).first()).toEqual(before.post);
		await env.DB.prepare('DELETE FROM bans WHERE member_id = 1012').run();
		await env.DB.prepare("UPDATE members SET role = 'MEMBER' WHERE id = 1012").run();
	});

	it("answers an administrator, never from a cache, and refuses another site's mutation and bad input", async () => {
		const cookie = await signIn(ADMIN);
		const logRead = await call(`${ADMIN_API}/audit-log`, { cookie });
		expect(logRead.code).toBe(0);
		expect(logRead.headers.get('cache-control')).toBe('private, no-store');
		const postId = await postWhere('board_id = 12 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
		const foreign = await call(`${ADMIN_API}/posts/${postId}/hide`, {
			method: 'POST',
			cookie,
			body: {},
			headers: { origin: 'https://evil.example' },
		});
		expect(foreign.status).toBe(403);
		expect(foreign.code).not.toBe(0);
		for (const [path, body] of [
			['/posts/abc/hide', {}],
			['/posts/0/hide', {}],
			[`/posts/${postId}/hide`, { reason: 'x'.repeat(501) }],
			[`/posts/${postId}/hide`, { reason: 5 }],
			[`/posts/${postId}/hide`, { extra: true }],
			[`/posts/${postId}/hide`, '{not json'],
		] as [string, unknown][]) {
			const answer = await call(`${ADMIN_API}${path}`, { method: 'POST', cookie, body });
			expect(answer.status, path).toBe(400);
		}
		expect((await call(`${ADMIN_API}/posts/987654321/hide`, { method: 'POST', cookie, body: {} })).status).toBe(404);
		const korean = await postWhere('channel_seq IS NOT NULL', KOREAN.id);
		expect((await call(`${ADMIN_API}/posts/${korean}/hide`, { method: 'POST', cookie, body: {} })).status).toBe(404);
		expect((await call(`${ADMIN_API}/audit-log?page=0`, { cookie })).status).toBe(400);
		expect(await env.DB.prepare('SELECT hidden_by_admin FROM posts WHERE id = ?1').bind(postId).first<number>('hidden_by_admin')).toBe(0);
	});
});

describe('hide and unhide, as readers see them', () => {
	it('a hidden post leaves lists and search and comes back to its place; the log says who, what and why', async () => {
		const cookie = await signIn(ADMIN);
		const row = (await env.DB.prepare(
			`SELECT id, title, board_seq FROM posts WHERE board_id = 12 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL AND is_notice = 0
			 ORDER BY board_seq DESC LIMIT 1 OFFSET 3`,
		).first<{ id: number; title: string; board_seq: number }>())!;
		const query = Array.from(row.title).slice(0, 6).join('');
		const found = async () => (await searchPosts(env.DB, 1, query, 'TITLE', 1)).posts.some((post) => post.postId === row.id);
		const listed = async () =>
			((await call(`${publicApi()}/posts?boardId=12`)).body['content'] as { posts: { postId: number }[] }).posts.map((post) => post.postId);
		expect(await found()).toBe(true);
		const place = (await listed()).indexOf(row.id);
		expect(place).toBeGreaterThanOrEqual(0);

		expect((await call(`${ADMIN_API}/posts/${row.id}/hide`, { method: 'POST', cookie, body: { reason: 'Off-topic advertising' } })).code).toBe(0);
		expect(await found()).toBe(false);
		expect(await listed()).not.toContain(row.id);
		expect((await call(`${publicApi()}/posts/${row.id}`)).body['content']).toMatchObject({ readable: false, state: 'HIDDEN_BY_ADMIN' });

		expect((await call(`${ADMIN_API}/posts/${row.id}/unhide`, { method: 'POST', cookie, body: {} })).code).toBe(0);
		expect(await found()).toBe(true);
		expect((await listed()).indexOf(row.id)).toBe(place);
		expect(await env.DB.prepare('SELECT board_seq FROM posts WHERE id = ?1').bind(row.id).first<number>('board_seq')).toBe(row.board_seq);

		const log = (await call(`${ADMIN_API}/audit-log`, { cookie })).body['content'] as {
			entries: { action: string; targetId: number; reason: string; moderator: { userId: number; nickname: string } }[];
			totalCount: number;
		};
		expect(log.entries.slice(0, 2).map((entry) => [entry.action, entry.targetId, entry.reason, entry.moderator.userId])).toEqual([
			['UNHIDE_POST', row.id, '', ADMIN],
			['HIDE_POST', row.id, 'Off-topic advertising', ADMIN],
		]);
		// Unhiding a visible post changes nothing and logs nothing.
		expect((await call(`${ADMIN_API}/posts/${row.id}/unhide`, { method: 'POST', cookie, body: {} })).code).toBe(0);
		expect(((await call(`${ADMIN_API}/audit-log`, { cookie })).body['content'] as { totalCount: number }).totalCount).toBe(log.totalCount);
	});

	it('a hidden comment is counted again when shown again', async () => {
		const cookie = await signIn(ADMIN);
		const postId = await postWhere('board_id = 12 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
		const commentId = await newComment(postId);
		const count = async () => env.DB.prepare('SELECT comment_count FROM posts WHERE id = ?1').bind(postId).first<number>('comment_count');
		const before = await count();
		expect((await call(`${ADMIN_API}/comments/${commentId}/hide`, { method: 'POST', cookie, body: { reason: 'insult' } })).code).toBe(0);
		expect(await count()).toBe(before! - 1);
		expect((await call(`${ADMIN_API}/comments/${commentId}/unhide`, { method: 'POST', cookie, body: {} })).code).toBe(0);
		expect(await count()).toBe(before);
		const comments = (await call(`${publicApi()}/posts/${postId}/comments`)).body['content'];
		expect(JSON.stringify(comments)).toContain('moderated');
	});
});

describe('removed text for appeals', () => {
	const stored = async (cookie: string, path: string) => call(`${ADMIN_API}/content/${path}`, { method: 'POST', cookie });
	// An administrator of its own reads: each read counts against the moderation limit, which this
	// file's other tests spend for ADMIN.
	let reader: { cookie: string; userId: number };
	beforeAll(async () => {
		reader = await signUp('removed-text-reader', 'TextReader');
		await env.DB.prepare("UPDATE members SET role = 'ADMIN' WHERE id = ?1").bind(reader.userId).run();
	});

	it("reads the stored text of hidden and author-deleted posts and comments, a withdrawn member's too, for the community's administrators", async () => {
		const admin = await signIn(ADMIN);
		const author = await signIn(MEMBER);
		const written = await call(`${ORIGIN}/v1/starfall/global/posts`, {
			method: 'POST',
			cookie: author,
			body: {
				boardId: 12,
				subjectId: null,
				title: 'Regretted rant',
				content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Words the writer took back <b>later</b>' }] }] },
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		const postId = (written.body['content'] as { postId: number }).postId;
		const commentId = await newComment(postId);
		const commentText = (await env.DB.prepare('SELECT content FROM comments WHERE id = ?1').bind(commentId).first<string>('content'))!;
		// The writer deletes the post; a moderator hides the comment, which its writer can then no longer delete.
		expect((await call(`${ORIGIN}/v1/starfall/global/posts/${postId}`, { method: 'DELETE', cookie: author })).code).toBe(0);
		expect((await call(`${ADMIN_API}/comments/${commentId}/hide`, { method: 'POST', cookie: admin, body: { reason: 'insult' } })).code).toBe(0);
		expect((await call(`${ORIGIN}/v1/starfall/global/posts/${postId}/comments/${commentId}`, { method: 'DELETE', cookie: author })).code).not.toBe(0);

		const post = await stored(reader.cookie, `posts/${postId}`);
		expect(post.code).toBe(0);
		expect(post.headers.get('cache-control')).toBe('private, no-store');
		expect(post.body['content']).toMatchObject({
			targetType: 'POST',
			targetId: postId,
			postId,
			title: 'Regretted rant',
			text: 'Words the writer took back <b>later</b>',
			writer: { userId: MEMBER, withdrawn: false },
			deletedAt: expect.any(Number),
			hidden: false,
			autoHidden: false,
		});
		expect((await stored(reader.cookie, `comments/${commentId}`)).body['content']).toMatchObject({
			targetType: 'COMMENT',
			targetId: commentId,
			postId,
			title: null,
			text: commentText,
			deletedAt: null,
			hidden: true,
			autoHidden: false,
		});

		// A withdrawn writer's text stays for the moderators, without the nickname they gave up.
		const withdrawn = (await env.DB.prepare(
			`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at, deleted_at)
			 VALUES (1, 12, 1040, 'Before leaving', '{"type":"doc","blocks":[]}', 'Said before leaving', ?1, ?1) RETURNING id`,
		)
			.bind(Date.now())
			.first<number>('id'))!;
		expect((await stored(reader.cookie, `posts/${withdrawn}`)).body['content']).toMatchObject({
			text: 'Said before leaving',
			writer: { userId: 1040, nickname: null, withdrawn: true },
		});
	});

	it("refuses another community's target, a bad path or query, and other methods, in the envelope", async () => {
		const admin = reader.cookie;
		const korean = await postWhere('deleted_at IS NULL', KOREAN.id);
		expect([(await stored(reader.cookie, `posts/${korean}`)).status, (await stored(reader.cookie, `posts/${korean}`)).code]).toEqual([404, -4041403]);
		expect((await stored(reader.cookie, 'comments/987654321')).code).toBe(-4041406);
		for (const path of ['boards/1', 'posts/abc', 'posts/0', 'posts/1?full=1']) {
			const answer = await stored(reader.cookie, path);
			expect([answer.status, answer.code], path).toEqual([400, -4001400]);
		}
		const postId = await postWhere('deleted_at IS NULL');
		expect((await call(`${ADMIN_API}/content/posts/${postId}`, { method: 'DELETE', cookie: admin })).status).toBe(405);
		// The other community's administrator cannot read this community's text through their own prefix either.
		expect(
			(await call(`${ORIGIN}/admin/v1/starfall/kr/content/posts/${postId}`, { method: 'POST', cookie: await signIn(2001, KOREAN) })).status,
		).toBe(404);
	});

	it('writes one row of the audit log per read: who, which post or comment, when; a refused read, a GET or another site writes none', async () => {
		const admin = reader.cookie;
		const postId = await postWhere('deleted_at IS NOT NULL');
		const commentId = (await env.DB.prepare('SELECT id FROM comments WHERE channel_id = 1 ORDER BY id LIMIT 1').first<number>('id'))!;
		const korean = await postWhere('deleted_at IS NULL', KOREAN.id);
		const rows = () => env.DB.prepare('SELECT count(*) AS n FROM moderation_log').first<number>('n');
		const before = await rows();
		const started = Date.now();
		const { db, statements } = recordingDb();
		await removedText(db, 1, { type: 'POST', id: postId }, reader.userId, started);
		// One row and its entry in the log's index, in the read's one batch.
		expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBe(2);
		expect((await stored(reader.cookie, `comments/${commentId}`)).code).toBe(0);
		expect((await stored(reader.cookie, `posts/${postId}`)).code).toBe(0);
		const written = await env.DB.prepare(
			'SELECT moderator_id, action, target_type, target_id, reason, created_at FROM moderation_log WHERE id > (SELECT max(id) - 3 FROM moderation_log) ORDER BY id',
		).all<{ moderator_id: number; action: string; target_type: string; target_id: number; reason: string; created_at: number }>();
		expect(written.results.map(({ created_at: at, ...row }) => [row, at >= started])).toEqual([
			[{ moderator_id: reader.userId, action: 'VIEW_POST_TEXT', target_type: 'POST', target_id: postId, reason: '' }, true],
			[{ moderator_id: reader.userId, action: 'VIEW_COMMENT_TEXT', target_type: 'COMMENT', target_id: commentId, reason: '' }, true],
			[{ moderator_id: reader.userId, action: 'VIEW_POST_TEXT', target_type: 'POST', target_id: postId, reason: '' }, true],
		]);
		expect(await rows()).toBe((before ?? 0) + 3);
		// The admin area's log names the reads.
		const log = (await call(`${ADMIN_API}/audit-log`, { cookie: admin })).body['content'] as {
			entries: { action: string; moderator: { userId: number } }[];
		};
		expect(log.entries.slice(0, 2).map((entry) => [entry.action, entry.moderator.userId])).toEqual([
			['VIEW_POST_TEXT', reader.userId],
			['VIEW_COMMENT_TEXT', reader.userId],
		]);

		// Refused: another community's post, a missing comment, a GET (what another site's link sends), another site's POST, a body.
		expect((await stored(reader.cookie, `posts/${korean}`)).code).toBe(-4041403);
		expect((await stored(reader.cookie, 'comments/987654321')).code).toBe(-4041406);
		expect((await call(`${ADMIN_API}/content/posts/${postId}`, { cookie: admin })).code).toBe(-4051401);
		const foreign = await call(`${ADMIN_API}/content/posts/${postId}`, {
			method: 'POST',
			cookie: admin,
			headers: { origin: 'https://evil.example' },
		});
		expect(foreign.code).toBe(-4031401);
		expect((await call(`${ADMIN_API}/content/posts/${postId}`, { method: 'POST', cookie: admin, body: { all: true } })).code).toBe(-4001400);
		expect(await rows()).toBe((before ?? 0) + 3);
	});

	it('holds an administrator to the moderation rate limit: past 30 reads a minute, refused and not logged', async () => {
		// An administrator of its own, whose moderation this file's other tests have not counted.
		const { cookie: admin, userId } = await signUp('reveal-rate-limit', 'RevealLimit');
		await env.DB.prepare("UPDATE members SET role = 'ADMIN' WHERE id = ?1").bind(userId).run();
		await startOfRateWindow();
		const postId = await postWhere('deleted_at IS NULL');
		const rows = () => env.DB.prepare('SELECT count(*) AS n FROM moderation_log').first<number>('n');
		const before = (await rows()) ?? 0;
		const codes: number[] = [];
		for (let i = 0; i < 31; i += 1) codes.push((await stored(admin, `posts/${postId}`)).code);
		expect(codes.slice(0, 30).every((code) => code === 0)).toBe(true);
		expect(codes[30]).toBe(-4291401);
		expect(await rows()).toBe(before + 30);
	});
});

describe('bans from the admin API', () => {
	it('bans a member until a date or for good, keeps their sessions (reads pass, the rest tells the ban), lifts the ban, and keeps the history and the log', async () => {
		const admin = await signIn(ADMIN);
		const target = 1013;
		const theirs = await signIn(target);
		const endsAt = Date.now() + 3 * 86_400_000;
		const banned = await call(`${ADMIN_API}/members/${target}/ban`, {
			method: 'POST',
			cookie: admin,
			body: { kind: 'TEMPORARY', endsAt, reason: 'Flooding the board' },
		});
		expect(banned.code, JSON.stringify(banned.body)).toBe(0);
		// The member's session stays (docs/reference/moderation.md#a-banned-member): they are told of the ban, not
		// asked to log in again. The answer's text and its `ban` carry the end and the reason.
		const told = await call(`${ORIGIN}/v1/starfall/global/me`, { cookie: theirs });
		expect(told.code).toBe(-4031452);
		expect(told.body['header']).toMatchObject({
			resultMessage: `Your access to this community is restricted until ${new Date(endsAt).toISOString()}; you can still read it. Reason: Flooding the board`,
		});
		expect(told.body['ban']).toEqual({ kind: 'TEMPORARY', endsAt, reason: 'Flooding the board' });
		expect((await call(`${ORIGIN}/public/v1/starfall/global/auth/status`, { cookie: theirs })).code).toBe(-4031452);
		// Reading goes on with the same session; a write is refused with the ban.
		expect((await call(`${ORIGIN}/public/v1/starfall/global/boards`, { cookie: theirs })).code).toBe(0);
		const aPost = (await env.DB.prepare(
			'SELECT id FROM posts WHERE channel_id = 1 AND deleted_at IS NULL AND hidden_by_admin = 0 ORDER BY id LIMIT 1',
		).first<{
			id: number;
		}>())!.id;
		expect((await call(`${ORIGIN}/public/v1/starfall/global/posts/${aPost}/comments`, { cookie: theirs })).code).toBe(0);
		expect((await call(`${ORIGIN}/public/v1/starfall/global/posts/${aPost}/views`, { method: 'POST', cookie: theirs })).code).toBe(-4031452);
		const again = await call(`${ORIGIN}/v1/starfall/global/me`, { cookie: await signIn(target) });
		expect(again.code).toBe(-4031452);
		expect((await call(`${ADMIN_API}/members/${target}/unban`, { method: 'POST', cookie: admin, body: { reason: 'Appeal accepted' } })).code).toBe(0);
		expect((await call(`${ORIGIN}/v1/starfall/global/me`, { cookie: await signIn(target) })).code).toBe(0);
		const permanent = await call(`${ADMIN_API}/members/${target}/ban`, {
			method: 'POST',
			cookie: admin,
			body: { kind: 'PERMANENT', reason: 'Second time' },
		});
		expect(permanent.code).toBe(0);
		expect((await call(`${ADMIN_API}/members/${target}/unban`, { method: 'POST', cookie: admin, body: {} })).code).toBe(0);
		const history = (await call(`${ADMIN_API}/members/${target}/bans`, { cookie: admin })).body['content'] as {
			bans: { kind: string; endsAt: number | null; reason: string; liftedAt: number | null }[];
		};
		expect(history.bans.slice(-2).map((ban) => [ban.kind, ban.endsAt, ban.reason, ban.liftedAt !== null])).toEqual([
			['TEMPORARY', endsAt, 'Flooding the board', true],
			['PERMANENT', null, 'Second time', true],
		]);
		const log = (await call(`${ADMIN_API}/audit-log`, { cookie: admin })).body['content'] as {
			entries: { action: string; targetType: string; targetId: number; reason: string }[];
		};
		expect(log.entries.slice(0, 4).map((entry) => [entry.action, entry.targetType, entry.targetId, entry.reason])).toEqual([
			['UNBAN', 'MEMBER', target, ''],
			['BAN', 'MEMBER', target, 'Second time'],
			['UNBAN', 'MEMBER', target, 'Appeal accepted'],
			['BAN', 'MEMBER', target, 'Flooding the board'],
		]);
		// Lifting when there is no ban logs nothing.
		expect((await call(`${ADMIN_API}/members/${target}/unban`, { method: 'POST', cookie: admin, body: {} })).code).toBe(0);
		const after = (await call(`${ADMIN_API}/audit-log`, { cookie: admin })).body['content'] as { entries: { action: string }[] };
		expect(after.entries[0]).toEqual(log.entries[0]);
	});

	it('refuses a ban of an administrator, of oneself, of a stranger, and a ban that is not one', async () => {
		const admin = await signIn(ADMIN);
		const ban = (userId: number | string, body: unknown) => call(`${ADMIN_API}/members/${userId}/ban`, { method: 'POST', cookie: admin, body });
		expect((await ban(ADMIN, { kind: 'PERMANENT' })).code).toBe(-4031403);
		expect((await ban(2001, { kind: 'PERMANENT' })).status).toBe(404);
		expect((await ban(987654, { kind: 'PERMANENT' })).status).toBe(404);
		for (const body of [
			{ kind: 'TEMPORARY' },
			{ kind: 'TEMPORARY', endsAt: Date.now() - 1000 },
			{ kind: 'TEMPORARY', endsAt: 'tomorrow' },
			{ kind: 'PERMANENT', endsAt: Date.now() + 1000 },
			{ kind: 'FOREVER' },
			{ kind: 'PERMANENT', reason: 'x'.repeat(501) },
		]) {
			expect((await ban(1014, body)).status, JSON.stringify(body).slice(0, 60)).toBe(400);
		}
		expect((await ban('abc', { kind: 'PERMANENT' })).status).toBe(400);
		expect(await env.DB.prepare('SELECT count(*) AS n FROM bans WHERE member_id IN (1001, 1014)').first<number>('n')).toBe(0);
	});
});

describe('the reports queue', () => {
	it('groups open reports by target, most reported first, and closes them by dismissal or by hiding, into the history', async () => {
		const admin = await signIn(ADMIN);
		const postId = await postWhere('board_id = 13 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
		const commentId = await newComment(postId);
		const report = async (memberId: number, targetType: 'POST' | 'COMMENT', targetId: number, reason: string, detail = '') => {
			const answer = await call(`${ORIGIN}/v1/starfall/global/reports`, {
				method: 'POST',
				cookie: await signIn(memberId),
				body: { targetType, targetId, reason, detail },
			});
			expect(answer.code, JSON.stringify(answer.body)).toBe(0);
		};
		await report(1015, 'POST', postId, 'SPAM');
		await report(1016, 'POST', postId, 'OTHER', 'Copies another guide <b>word for word</b>');
		await report(1017, 'POST', postId, 'SPAM');
		await report(1015, 'COMMENT', commentId, 'ABUSE');

		const queue = async (order = 'most') =>
			(await call(`${ADMIN_API}/reports?order=${order}`, { cookie: admin })).body['content'] as {
				groups: {
					targetType: string;
					targetId: number;
					count: number;
					writer: { userId: number } | null;
					excerpt: string | null;
					reports: { reporter: { userId: number }; reasonCode: string; reasonText: string }[];
				}[];
				totalCount: number;
			};
		const most = await queue();
		const post = most.groups.find((group) => group.targetType === 'POST' && group.targetId === postId)!;
		expect(post.count).toBe(3);
		expect(post.reports.map((item) => item.reporter.userId).sort()).toEqual([1015, 1016, 1017]);
		expect(post.reports.find((item) => item.reasonCode === 'OTHER')?.reasonText).toBe('Copies another guide <b>word for word</b>');
		expect(most.groups.findIndex((group) => group.targetId === postId && group.targetType === 'POST')).toBeLessThan(
			most.groups.findIndex((group) => group.targetId === commentId && group.targetType === 'COMMENT'),
		);
		const newest = await queue('newest');
		expect(newest.groups[0]).toMatchObject({ targetType: 'COMMENT', targetId: commentId, count: 1, writer: { userId: MEMBER } });

		// Dismissing the comment's reports closes them; dismissing again finds none.
		expect(
			(await call(`${ADMIN_API}/reports/comments/${commentId}/dismiss`, { method: 'POST', cookie: admin, body: { reason: 'Banter' } })).code,
		).toBe(0);
		expect((await call(`${ADMIN_API}/reports/comments/${commentId}/dismiss`, { method: 'POST', cookie: admin, body: {} })).code).toBe(-4041409);
		// Hiding the post resolves its reports in the hide's batch.
		expect((await call(`${ADMIN_API}/posts/${postId}/hide`, { method: 'POST', cookie: admin, body: { reason: 'Plagiarism' } })).code).toBe(0);
		const left = await queue();
		expect(left.groups.some((group) => group.targetId === postId || group.targetId === commentId)).toBe(false);
		const history = (await call(`${ADMIN_API}/reports/history`, { cookie: admin })).body['content'] as {
			reports: { targetType: string; targetId: number; status: string; resolvedBy: { userId: number } | null }[];
		};
		const closed = history.reports.filter(
			(item) => (item.targetType === 'POST' && item.targetId === postId) || (item.targetType === 'COMMENT' && item.targetId === commentId),
		);
		expect(closed.map((item) => [item.targetType, item.status, item.resolvedBy?.userId]).sort()).toEqual([
			['COMMENT', 'DISMISSED', ADMIN],
			['POST', 'RESOLVED', ADMIN],
			['POST', 'RESOLVED', ADMIN],
			['POST', 'RESOLVED', ADMIN],
		]);
		const log = (await call(`${ADMIN_API}/audit-log`, { cookie: admin })).body['content'] as {
			entries: { action: string; targetType: string; targetId: number; reason: string }[];
		};
		expect(log.entries.slice(0, 2).map((entry) => [entry.action, entry.targetType, entry.targetId, entry.reason])).toEqual([
			['HIDE_POST', 'POST', postId, 'Plagiarism'],
			['DISMISS_REPORTS', 'COMMENT', commentId, 'Banter'],
		]);
		await call(`${ADMIN_API}/posts/${postId}/unhide`, { method: 'POST', cookie: admin, body: {} });
		expect((await call(`${ADMIN_API}/reports?order=sideways`, { cookie: admin })).status).toBe(400);
		expect((await call(`${ADMIN_API}/reports/boards/1/dismiss`, { method: 'POST', cookie: admin, body: {} })).status).toBe(400);
	});
});

describe('granting and revoking the role', () => {
	it('holds from the next request, and the log says so', async () => {
		const cookie = await signIn(1018);
		expect((await call(`${ADMIN_API}/audit-log`, { cookie })).code).toBe(-4031403);
		expect(await setMemberRole(env.DB, 1, 1018, 'ADMIN')).toBe(true);
		expect(await setMemberRole(env.DB, 1, 1018, 'ADMIN')).toBe(false);
		const granted = (await call(`${ADMIN_API}/audit-log`, { cookie })).body['content'] as {
			entries: { action: string; targetId: number; moderator: unknown }[];
		};
		expect(granted.entries[0]).toMatchObject({ action: 'GRANT_ADMIN', targetId: 1018, moderator: null });
		expect(await setMemberRole(env.DB, 1, 1018, 'MEMBER')).toBe(true);
		expect((await call(`${ADMIN_API}/audit-log`, { cookie })).code).toBe(-4031403);
		const log = (await call(`${ADMIN_API}/audit-log`, { cookie: await signIn(ADMIN) })).body['content'] as {
			entries: { action: string; targetId: number }[];
		};
		expect(log.entries[0]).toMatchObject({ action: 'REVOKE_ADMIN', targetId: 1018 });
		await expect(setMemberRole(env.DB, 1, 2001, 'MEMBER')).rejects.toMatchObject({ codeName: 'UserNotFound' });
	});
});

describe('the audit log and the history name their targets', () => {
	type Label = { postId: number | null; title: string | null; excerpt: string | null; nickname: string | null };
	it("labels posts by title, comments by excerpt and their post's title, members by nickname, in the page's own query", async () => {
		const admin = await signIn(ADMIN);
		const postId = await postWhere('board_id = 14 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
		const title = (await env.DB.prepare('SELECT title FROM posts WHERE id = ?1').bind(postId).first<string>('title'))!;
		const commentId = await newComment(postId);
		const commentText = (await env.DB.prepare('SELECT content FROM comments WHERE id = ?1').bind(commentId).first<string>('content'))!;
		const target = 1021;
		const nickname = (await env.DB.prepare('SELECT nickname FROM members WHERE id = ?1').bind(target).first<string>('nickname'))!;
		const reported = await call(`${ORIGIN}/v1/starfall/global/reports`, {
			method: 'POST',
			cookie: await signIn(1018),
			body: { targetType: 'COMMENT', targetId: commentId, reason: 'SPAM', detail: '' },
		});
		expect(reported.code, JSON.stringify(reported.body)).toBe(0);
		// The log rows and the closing of the report as the actions write them (the actions themselves,
		// and their rate limit, are tested above; this reads what they leave).
		const now = Date.now();
		await env.DB.batch([
			logStatement(env.DB, 1, ADMIN, 'HIDE_POST', { type: 'POST', id: postId }, '', now),
			logStatement(env.DB, 1, ADMIN, 'HIDE_COMMENT', { type: 'COMMENT', id: commentId }, '', now),
			logStatement(env.DB, 1, ADMIN, 'BAN', { type: 'MEMBER', id: target }, '', now),
			closeReportsStatement(env.DB, 1, { type: 'COMMENT', id: commentId }, 'RESOLVED', ADMIN, now),
		]);

		const log = (await call(`${ADMIN_API}/audit-log`, { cookie: admin })).body['content'] as {
			entries: { action: string; targetId: number; target: Label }[];
		};
		const labelOf = (action: string) => log.entries.find((entry) => entry.action === action)?.target;
		expect(labelOf('HIDE_POST')).toEqual({ postId, title, excerpt: null, nickname: null });
		expect(labelOf('HIDE_COMMENT')).toEqual({ postId, title, excerpt: Array.from(commentText).slice(0, TARGET_EXCERPT).join(''), nickname: null });
		expect(labelOf('BAN')).toEqual({ postId: null, title: null, excerpt: null, nickname });
		// The comment's reports, closed by its hiding, name it in the history too.
		const history = (await call(`${ADMIN_API}/reports/history`, { cookie: admin })).body['content'] as {
			reports: { targetType: string; targetId: number; target: Label }[];
		};
		expect(history.reports.find((item) => item.targetType === 'COMMENT' && item.targetId === commentId)?.target).toMatchObject({
			postId,
			title,
			excerpt: commentText,
		});

		// A deleted post's title is not shown, administrators included; its id still is.
		await env.DB.prepare('UPDATE posts SET deleted_at = 1 WHERE id = ?1').bind(postId).run();
		try {
			const after = (await call(`${ADMIN_API}/audit-log`, { cookie: admin })).body['content'] as { entries: { action: string; target: Label }[] };
			expect(after.entries.find((entry) => entry.action === 'HIDE_POST')?.target).toEqual({ postId, title: null, excerpt: null, nickname: null });
		} finally {
			await env.DB.prepare('UPDATE posts SET deleted_at = NULL WHERE id = ?1').bind(postId).run();
		}

		// Bounded: one query for the page's entries with their labels (joins on primary keys), one for the count.
		const { db, statements } = recordingDb();
		await listLog(db, 1, 1);
		expect(statements).toHaveLength(2);
		const plan = (await queryPlan(statements[0]!)).join('\n');
		expect(plan).not.toMatch(/SCAN (tp|tc|tcp|tm)\b/);
		statements.length = 0;
		await listClosedReports(db, 1, 1);
		expect(statements).toHaveLength(2);
		expect((await queryPlan(statements[0]!)).join('\n')).not.toMatch(/SCAN (tp|tc|tcp|tm)\b/);
	});
});
