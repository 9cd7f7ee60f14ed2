/**
 * The admin area's reads and settings (functions/api/routers/admin.ts): the bans in force, a
 * member found by nickname, the community's automatic hide at a number of reports (the report that
 * reaches it hides the target with no moderator and leaves the reports open; a moderator keeps it
 * hidden or shows it again), and what each writes to the audit log and costs in rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { searchPosts } from '@/server/search/search';
import { createReport } from '@/server/reports/reports';
import { call, memberApi, postWhere, publicApi, queryPlan, recordingDb, signIn, signUp, GLOBAL, KOREAN, ORIGIN } from './harness';
import type { SessionMember } from '@/server/sign-in/sessions';

const ADMIN_API = `${ORIGIN}/admin/v1/starfall/global`;
const ADMIN = 1001;

interface LogEntry {
	action: string;
	targetType: string;
	targetId: number;
	reason: string;
	moderator: { userId: number } | null;
}
const logEntries = async (cookie: string) =>
	(await call(`${ADMIN_API}/audit-log`, { cookie })).body['content'] as { entries: LogEntry[]; totalCount: number };

/** A session member as the services take it, for reports made straight through the service. */
function member(userId: number): SessionMember {
	return { userId, nickname: `member ${userId}`, role: 'MEMBER', joinedAt: 0, provider: 'GOOGLE', recentProvider: 'GOOGLE' };
}

describe('bans in force and finding a member', () => {
	it('lists each banned member once, newest ban first, and leaves out lifted and ended bans', async () => {
		const cookie = await signIn(ADMIN);
		const now = Date.now();
		await env.DB.batch([
			env.DB.prepare(
				"INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (1, 1020, 'TEMPORARY', ?1, 'first', ?2)",
			).bind(now + 86_400_000, now - 5000),
			env.DB.prepare(
				"INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (1, 1020, 'TEMPORARY', ?1, 'second', ?2)",
			).bind(now + 3 * 86_400_000, now - 4000),
			env.DB.prepare(
				"INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (1, 1021, 'TEMPORARY', ?1, 'ended', ?2)",
			).bind(now - 1000, now - 9000),
			env.DB.prepare(
				"INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at, lifted_at) VALUES (1, 1022, 'PERMANENT', NULL, 'lifted', ?1, ?1)",
			).bind(now - 3000),
		]);
		const list = (await call(`${ADMIN_API}/bans`, { cookie })).body['content'] as {
			bans: { member: { userId: number }; kind: string; endsAt: number | null; reason: string }[];
			totalCount: number;
		};
		const ids = list.bans.map((ban) => ban.member.userId);
		expect(ids[0]).toBe(1020);
		expect(list.bans[0]).toMatchObject({ kind: 'TEMPORARY', endsAt: now + 3 * 86_400_000, reason: 'second' });
		expect(ids).not.toContain(1021);
		expect(ids).not.toContain(1022);
		// The seed's temporarily and permanently banned members of this community, and no other community's.
		expect(ids).toEqual(expect.arrayContaining([1038, 1039]));
		expect(new Set(ids).size).toBe(ids.length);
		expect(list.totalCount).toBe(ids.length);
		expect(ids.every((id) => id > 1000 && id < 2000)).toBe(true);

		expect((await call(`${ADMIN_API}/members/1020/unban`, { method: 'POST', cookie, body: { reason: 'appeal accepted' } })).code).toBe(0);
		const after = (await call(`${ADMIN_API}/bans`, { cookie })).body['content'] as { bans: { member: { userId: number } }[] };
		expect(after.bans.map((ban) => ban.member.userId)).not.toContain(1020);
		expect((await call(`${ADMIN_API}/bans?page=abc`, { cookie })).status).toBe(400);
		expect((await call(`${ADMIN_API}/bans?extra=1`, { cookie })).status).toBe(400);
	});

	it('finds an active member by nickname as nicknames compare, and no one else', async () => {
		const cookie = await signIn(ADMIN);
		const nickname = (await env.DB.prepare('SELECT nickname FROM members WHERE id = 1010').first<string>('nickname'))!;
		const found = await call(`${ADMIN_API}/members?nickname=${encodeURIComponent(`  ${nickname.toUpperCase()} `)}`, { cookie });
		expect(found.code).toBe(0);
		expect(found.body['content']).toMatchObject({ member: { userId: 1010, nickname, withdrawn: false, admin: false }, bans: [] });
		const withdrawn = (await env.DB.prepare('SELECT nickname FROM nickname_claims WHERE member_id = 1040').first<string>('nickname'))!;
		const korean = (await env.DB.prepare('SELECT nickname FROM members WHERE id = 2010').first<string>('nickname'))!;
		for (const name of [withdrawn, korean, 'nobody by this name']) {
			const answer = await call(`${ADMIN_API}/members?nickname=${encodeURIComponent(name)}`, { cookie });
			expect([answer.status, answer.code], name).toEqual([404, -4041404]);
		}
		for (const query of ['', '?nickname=', `?nickname=${'x'.repeat(101)}`, '?nickname=a&page=2']) {
			expect((await call(`${ADMIN_API}/members${query}`, { cookie })).status, query).toBe(400);
		}
	});
});

describe('automatic hide at a number of reports', () => {
	it('stores the threshold and the minimum age, logs a change once, and refuses a bad one with its code, changing nothing', async () => {
		const cookie = await signIn(ADMIN);
		// Off by default; reports count from members of three days.
		expect((await call(`${ADMIN_API}/settings`, { cookie })).body['content']).toEqual({ autoHideReports: null, reportMinAgeHours: 72 });
		const before = (await logEntries(cookie)).totalCount;
		const refusals: [unknown, number][] = [
			[{ autoHideReports: 0 }, -4001472],
			[{ autoHideReports: 1001 }, -4001472],
			[{ autoHideReports: '3' }, -4001472],
			[{ autoHideReports: 2.5 }, -4001472],
			[{ autoHideReports: 3, reportMinAgeHours: -1 }, -4001462],
			[{ autoHideReports: 3, reportMinAgeHours: 8761 }, -4001462],
			[{ autoHideReports: 3, reportMinAgeHours: '72' }, -4001462],
			[{ autoHideReports: 3, reportMinAgeHours: 1.5 }, -4001462],
			[{ autoHideReports: 3, reportMinAgeHours: null }, -4001462],
			[{ autoHideReports: 3, extra: 1 }, -4001400],
			['[]', -4001400],
		];
		for (const [body, code] of refusals) {
			const answer = await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body });
			expect([answer.status, answer.code], JSON.stringify(body)).toEqual([400, code]);
			if (code !== -4001400) expect(answer.body.header.resultMessage, JSON.stringify(body)).not.toMatch(/zod|expected|received/i);
		}
		expect((await call(`${ADMIN_API}/settings`, { method: 'POST', cookie, body: { autoHideReports: 3 } })).status).toBe(405);
		expect((await logEntries(cookie)).totalCount).toBe(before);
		expect(await env.DB.prepare('SELECT auto_hide_reports, report_min_age_hours FROM channels WHERE id = 1').first()).toEqual({
			auto_hide_reports: null,
			report_min_age_hours: 72,
		});
		// A setting left out keeps its value; the same values again log nothing.
		expect((await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body: { autoHideReports: 3 } })).body['content']).toEqual({
			autoHideReports: 3,
			reportMinAgeHours: 72,
		});
		expect((await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body: { autoHideReports: 3, reportMinAgeHours: 72 } })).code).toBe(0);
		const log = await logEntries(cookie);
		expect(log.totalCount).toBe(before + 1);
		expect(log.entries[0]).toMatchObject({
			action: 'SETTINGS',
			targetType: 'CHANNEL',
			targetId: 1,
			reason: 'autoHideReports=3 reportMinAgeHours=72',
			moderator: { userId: ADMIN },
		});
		expect((await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body: { reportMinAgeHours: 24 } })).body['content']).toEqual({
			autoHideReports: 3,
			reportMinAgeHours: 24,
		});
		expect((await logEntries(cookie)).entries[0]).toMatchObject({ action: 'SETTINGS', reason: 'autoHideReports=3 reportMinAgeHours=24' });
		// Another community's settings are its own.
		expect(await env.DB.prepare('SELECT auto_hide_reports, report_min_age_hours FROM channels WHERE id = ?1').bind(KOREAN.id).first()).toEqual({
			auto_hide_reports: null,
			report_min_age_hours: 72,
		});
		expect((await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body: { autoHideReports: null, reportMinAgeHours: 72 } })).code).toBe(0);
		expect((await logEntries(cookie)).entries[0]).toMatchObject({ action: 'SETTINGS', reason: 'autoHideReports=off reportMinAgeHours=72' });
	});

	it('the report that reaches the threshold hides the post, keeps the reports open, and a moderator decides', async () => {
		const cookie = await signIn(ADMIN);
		await env.DB.prepare('UPDATE channels SET auto_hide_reports = 2 WHERE id = 1').run();
		try {
			const row = (await env.DB.prepare(
				`SELECT id, title, member_id FROM posts WHERE board_id = 13 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL
				 AND member_id NOT IN (1030, 1031) ORDER BY id DESC LIMIT 1`,
			).first<{ id: number; title: string; member_id: number }>())!;
			const found = async () =>
				(await searchPosts(env.DB, 1, Array.from(row.title).slice(0, 6).join(''), 'TITLE', 1)).posts.some((post) => post.postId === row.id);
			expect(await found()).toBe(true);
			await createReport(env.DB, GLOBAL.id, member(1030), { targetType: 'POST', targetId: row.id, reason: 'SPAM', detail: '' }, Date.now());
			expect(await env.DB.prepare('SELECT hidden_by_admin FROM posts WHERE id = ?1').bind(row.id).first<number>('hidden_by_admin')).toBe(0);

			// The second report: its batch writes the report, then the hide writes a bounded number of rows.
			const { db, statements } = recordingDb();
			await createReport(db, GLOBAL.id, member(1031), { targetType: 'POST', targetId: row.id, reason: 'ABUSE', detail: 'again' }, Date.now());
			expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBeLessThanOrEqual(120);
			expect((await call(`${publicApi()}/posts/${row.id}`)).body['content']).toMatchObject({ readable: false, state: 'HIDDEN_BY_ADMIN' });
			expect(await found()).toBe(false);
			const log = await logEntries(cookie);
			expect(log.entries[0]).toMatchObject({ action: 'AUTO_HIDE_POST', targetType: 'POST', targetId: row.id, moderator: null });

			// Still in the queue, shown as hidden, for a moderator.
			const queue = (await call(`${ADMIN_API}/reports`, { cookie })).body['content'] as {
				groups: { targetType: string; targetId: number; hidden: boolean; count: number }[];
			};
			expect(queue.groups.find((group) => group.targetType === 'POST' && group.targetId === row.id)).toMatchObject({ hidden: true, count: 2 });

			// Shown again: back in search, its reports dismissed by the moderator.
			expect((await call(`${ADMIN_API}/posts/${row.id}/unhide`, { method: 'POST', cookie, body: { reason: 'not spam' } })).code).toBe(0);
			expect(await found()).toBe(true);
			const statuses = await env.DB.prepare("SELECT status, resolved_by FROM reports WHERE target_type = 'POST' AND target_id = ?1")
				.bind(row.id)
				.all();
			expect(statuses.results).toEqual([
				{ status: 'DISMISSED', resolved_by: ADMIN },
				{ status: 'DISMISSED', resolved_by: ADMIN },
			]);
			const queueAfter = (await call(`${ADMIN_API}/reports`, { cookie })).body['content'] as { groups: { targetId: number }[] };
			expect(queueAfter.groups.map((group) => group.targetId)).not.toContain(row.id);
		} finally {
			await env.DB.prepare('UPDATE channels SET auto_hide_reports = NULL WHERE id = 1').run();
		}
	});

	it('a comment hidden at the threshold is kept hidden by a moderator, which resolves its reports', async () => {
		const cookie = await signIn(ADMIN);
		await env.DB.prepare('UPDATE channels SET auto_hide_reports = 1 WHERE id = 1').run();
		try {
			const postId = await postWhere('board_id = 12 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
			const written = await call(`${memberApi()}/posts/${postId}/comments`, {
				method: 'POST',
				cookie: await signIn(1025),
				body: { content: `auto ${crypto.randomUUID()}` },
			});
			const commentId = (written.body['content'] as { comment: { commentId: number } }).comment.commentId;
			const count = async () => env.DB.prepare('SELECT comment_count FROM posts WHERE id = ?1').bind(postId).first<number>('comment_count');
			const before = await count();
			await createReport(env.DB, GLOBAL.id, member(1026), { targetType: 'COMMENT', targetId: commentId, reason: 'ABUSE', detail: '' }, Date.now());
			expect(await env.DB.prepare('SELECT hidden_by_admin FROM comments WHERE id = ?1').bind(commentId).first<number>('hidden_by_admin')).toBe(1);
			expect(await count()).toBe(before! - 1);
			expect((await logEntries(cookie)).entries[0]).toMatchObject({ action: 'AUTO_HIDE_COMMENT', targetId: commentId, moderator: null });

			// Keep hidden: the hide of a hidden comment resolves its open reports, logged once.
			expect((await call(`${ADMIN_API}/comments/${commentId}/hide`, { method: 'POST', cookie, body: { reason: 'confirmed' } })).code).toBe(0);
			expect(
				await env.DB.prepare("SELECT status FROM reports WHERE target_type = 'COMMENT' AND target_id = ?1").bind(commentId).first<string>('status'),
			).toBe('RESOLVED');
			const log = await logEntries(cookie);
			expect(log.entries[0]).toMatchObject({ action: 'HIDE_COMMENT', targetId: commentId, reason: 'confirmed', moderator: { userId: ADMIN } });
			expect((await call(`${ADMIN_API}/comments/${commentId}/hide`, { method: 'POST', cookie, body: {} })).code).toBe(0);
			expect((await logEntries(cookie)).totalCount).toBe(log.totalCount);
			expect(await count()).toBe(before! - 1);
		} finally {
			await env.DB.prepare('UPDATE channels SET auto_hide_reports = NULL WHERE id = 1').run();
		}
	});
});

describe('who counts toward the automatic hide, and what it never hides', () => {
	const HOUR = 3_600_000;
	const MINUTE = 60_000;
	/** Twenty accounts made ten minutes before each report, as a raid would make them. */
	const FRESH = Array.from({ length: 20 }, (_, i) => 1901 + i);

	beforeAll(async () => {
		const joined = Date.now() - 10 * MINUTE;
		await env.DB.batch(
			[...FRESH, 1921, 1922, 1923].map((id) =>
				env.DB.prepare(
					"INSERT INTO members (id, channel_id, nickname, role, provider, recent_provider, joined_at) VALUES (?1, 1, ?2, 'MEMBER', 'GOOGLE', 'GOOGLE', ?3)",
				).bind(id, `fresh-${id}`, joined),
			),
		);
	});

	/** Runs `body` with the community's threshold at `threshold` (and the minimum age at `hours`), then turns it off. */
	async function withThreshold(threshold: number, body: () => Promise<void>, hours = 72): Promise<void> {
		await env.DB.prepare('UPDATE channels SET auto_hide_reports = ?1, report_min_age_hours = ?2 WHERE id = 1').bind(threshold, hours).run();
		try {
			await body();
		} finally {
			await env.DB.prepare('UPDATE channels SET auto_hide_reports = NULL, report_min_age_hours = 72 WHERE id = 1').run();
		}
	}

	/** A new post of the free board by `authorId`, through the API. */
	async function newPost(authorId: number, title = `Auto hide ${crypto.randomUUID()}`): Promise<number> {
		const answer = await call(`${memberApi()}/posts`, {
			method: 'POST',
			cookie: await signIn(authorId),
			body: {
				boardId: 12,
				subjectId: null,
				title,
				content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Reported text' }] }] },
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		expect(answer.code, JSON.stringify(answer.body)).toBe(0);
		return (answer.body['content'] as { postId: number }).postId;
	}

	const report = (reporterId: number, type: 'POST' | 'COMMENT', id: number, at = Date.now()) =>
		createReport(env.DB, GLOBAL.id, member(reporterId), { targetType: type, targetId: id, reason: 'ABUSE', detail: '' }, at);
	const postHidden = async (postId: number) => env.DB.prepare('SELECT hidden_by_admin, auto_hidden FROM posts WHERE id = ?1').bind(postId).first();

	it('twenty accounts made minutes earlier hide nothing however many report; members past the minimum age do', async () => {
		await withThreshold(2, async () => {
			const postId = await newPost(1024);
			for (const id of FRESH) await report(id, 'POST', postId);
			expect(await postHidden(postId)).toEqual({ hidden_by_admin: 0, auto_hidden: 0 });
			// Their reports still reach the moderators.
			const queue = (await call(`${ADMIN_API}/reports?order=most`, { cookie: await signIn(ADMIN) })).body['content'] as {
				groups: { targetId: number; count: number; hidden: boolean }[];
			};
			expect(queue.groups.find((group) => group.targetId === postId)).toMatchObject({ count: 20, hidden: false });
			await report(1030, 'POST', postId);
			expect(await postHidden(postId)).toEqual({ hidden_by_admin: 0, auto_hidden: 0 });
			await report(1031, 'POST', postId);
			expect(await postHidden(postId)).toEqual({ hidden_by_admin: 1, auto_hidden: 1 });
		});
	});

	it("the minimum age is the community's: at 0 every member's report counts", async () => {
		await withThreshold(
			2,
			async () => {
				const postId = await newPost(1024);
				await report(FRESH[0]!, 'POST', postId);
				await report(FRESH[1]!, 'POST', postId);
				expect(await postHidden(postId)).toEqual({ hidden_by_admin: 1, auto_hidden: 1 });
			},
			0,
		);
		// At one hour, a membership of ten minutes does not count.
		await withThreshold(
			1,
			async () => {
				const postId = await newPost(1024);
				await report(FRESH[2]!, 'POST', postId);
				expect(await postHidden(postId)).toEqual({ hidden_by_admin: 0, auto_hidden: 0 });
				// One made an hour and a minute ago does.
				await env.DB.prepare('UPDATE members SET joined_at = ?2 WHERE id = ?1')
					.bind(1923, Date.now() - HOUR - MINUTE)
					.run();
				await report(1923, 'POST', postId);
				expect(await postHidden(postId)).toEqual({ hidden_by_admin: 1, auto_hidden: 1 });
			},
			1,
		);
	});

	it("accounts made minutes earlier gain nothing from a report a moderator upheld: their next reports hide no member's post", async () => {
		const cookie = await signIn(ADMIN);
		const run = crypto.randomUUID().slice(0, 8);
		// Three accounts made for the purpose and a fourth that writes the bait, all minutes old.
		const colluders: number[] = [];
		for (const i of [1, 2, 3]) colluders.push((await signUp(`colluder-${i}-${run}`, `Colluder${i}_${run}`)).userId);
		const baitAuthor = (await signUp(`bait-${run}`, `Bait_${run}`)).userId;
		await withThreshold(3, async () => {
			const bait = await newPost(baitAuthor, `Buy cheap coins ${run}`);
			for (const id of colluders) await report(id, 'POST', bait);
			expect(await postHidden(bait)).toEqual({ hidden_by_admin: 0, auto_hidden: 0 });
			// A moderator agrees with them: their three reports are upheld.
			expect((await call(`${ADMIN_API}/posts/${bait}/hide`, { method: 'POST', cookie, body: { reason: 'spam' } })).code).toBe(0);
			expect(
				await env.DB.prepare("SELECT count(*) AS n FROM reports WHERE target_type = 'POST' AND target_id = ?1 AND status = 'RESOLVED'")
					.bind(bait)
					.first<number>('n'),
			).toBe(3);
			// Then they report an established member's post: it stays visible, waiting for a moderator.
			const target = await newPost(1025);
			for (const id of colluders) await report(id, 'POST', target);
			expect(await postHidden(target)).toEqual({ hidden_by_admin: 0, auto_hidden: 0 });
			expect((await call(`${publicApi()}/posts/${target}`)).body['content']).toMatchObject({ readable: true, postId: target });
			const queue = (await call(`${ADMIN_API}/reports?order=most`, { cookie })).body['content'] as { groups: { targetId: number; count: number }[] };
			expect(queue.groups.find((group) => group.targetId === target)).toMatchObject({ count: 3 });
		});
	});

	it('a report counts by the age of the membership when it was made: one made too early never counts later', async () => {
		// Two members who joined 80 hours ago; the times of their reports are chosen.
		const joined = Date.now() - 80 * HOUR;
		await env.DB.batch(
			[1931, 1932].map((id) =>
				env.DB.prepare(
					"INSERT INTO members (id, channel_id, nickname, role, provider, recent_provider, joined_at) VALUES (?1, 1, ?2, 'MEMBER', 'GOOGLE', 'GOOGLE', ?3)",
				).bind(id, `aged-${id}`, joined),
			),
		);
		await withThreshold(2, async () => {
			const postId = await newPost(1024);
			// Made ten minutes after joining: it is stored, but never weighs, however old its writer grows.
			await report(1931, 'POST', postId, joined + 10 * MINUTE);
			await report(1932, 'POST', postId, joined + 73 * HOUR);
			expect(await postHidden(postId)).toEqual({ hidden_by_admin: 0, auto_hidden: 0 });
			await report(1030, 'POST', postId);
			expect(await postHidden(postId)).toEqual({ hidden_by_admin: 1, auto_hidden: 1 });
		});
	});

	it("never hides an administrator's post or comment, nor a notice, however many report", async () => {
		const cookie = await signIn(ADMIN);
		await withThreshold(1, async () => {
			const adminPost = await newPost(ADMIN);
			const comment = await call(`${memberApi()}/posts/${adminPost}/comments`, {
				method: 'POST',
				cookie,
				body: { content: `staff ${crypto.randomUUID()}` },
			});
			const commentId = (comment.body['content'] as { comment: { commentId: number } }).comment.commentId;
			// A notice stays a notice even when its writer is no longer an administrator.
			const notice = await newPost(1026);
			await env.DB.prepare('UPDATE posts SET is_notice = 1 WHERE id = ?1').bind(notice).run();
			const logBefore = (await logEntries(cookie)).totalCount;
			for (const id of [1030, 1031, 1032]) {
				await report(id, 'POST', adminPost);
				await report(id, 'COMMENT', commentId);
				await report(id, 'POST', notice);
			}
			expect(await postHidden(adminPost)).toEqual({ hidden_by_admin: 0, auto_hidden: 0 });
			expect(await postHidden(notice)).toEqual({ hidden_by_admin: 0, auto_hidden: 0 });
			expect(await env.DB.prepare('SELECT hidden_by_admin FROM comments WHERE id = ?1').bind(commentId).first<number>('hidden_by_admin')).toBe(0);
			expect((await logEntries(cookie)).totalCount).toBe(logBefore);
			// They wait in the queue for a moderator, who may still hide them.
			const queue = (await call(`${ADMIN_API}/reports?order=most`, { cookie })).body['content'] as {
				groups: { targetType: string; targetId: number; count: number }[];
			};
			expect(queue.groups.filter((group) => [adminPost, commentId, notice].includes(group.targetId)).map((group) => group.count)).toEqual([3, 3, 3]);
		});
	});

	it('tells readers a post or comment was hidden after reports, until a moderator keeps it hidden', async () => {
		const cookie = await signIn(ADMIN);
		await withThreshold(1, async () => {
			const postId = await newPost(1027);
			const written = await call(`${memberApi()}/posts/${postId}/comments`, {
				method: 'POST',
				cookie: await signIn(1028),
				body: { content: `reported ${crypto.randomUUID()}` },
			});
			const commentId = (written.body['content'] as { comment: { commentId: number } }).comment.commentId;
			const otherPost = await newPost(1027);
			await report(1030, 'COMMENT', commentId);
			const guestComments = async () =>
				((await call(`${publicApi()}/posts/${postId}/comments`)).body['content'] as { comments: { commentId: number }[] }).comments.find(
					(item) => item.commentId === commentId,
				);
			expect(await guestComments()).toEqual({ readable: false, commentId, parentId: null, state: 'HIDDEN_BY_ADMIN', autoHidden: true });
			await report(1030, 'POST', otherPost);
			expect((await call(`${publicApi()}/posts/${otherPost}`)).body['content']).toMatchObject({
				readable: false,
				state: 'HIDDEN_BY_ADMIN',
				autoHidden: true,
			});
			// An administrator reads it in full, marked the same way.
			expect((await call(`${publicApi()}/posts/${otherPost}`, { cookie })).body['content']).toMatchObject({
				readable: true,
				state: 'HIDDEN_BY_ADMIN',
				autoHidden: true,
			});

			// Keep hidden: now the moderator's hide, and readers are told so; its page goes cold.
			const bucket = async () => env.DB.prepare('SELECT post_versions FROM channels WHERE id = 1').first<string>('post_versions');
			const versionsBefore = await bucket();
			expect((await call(`${ADMIN_API}/posts/${otherPost}/hide`, { method: 'POST', cookie, body: {} })).code).toBe(0);
			expect((await call(`${ADMIN_API}/comments/${commentId}/hide`, { method: 'POST', cookie, body: {} })).code).toBe(0);
			expect(await bucket()).not.toBe(versionsBefore);
			expect((await call(`${publicApi()}/posts/${otherPost}`)).body['content']).toEqual({
				readable: false,
				postId: otherPost,
				boardId: 12,
				boardName: expect.any(String),
				state: 'HIDDEN_BY_ADMIN',
			});
			expect(await guestComments()).toEqual({ readable: false, commentId, parentId: null, state: 'HIDDEN_BY_ADMIN' });
			// Shown again and hidden by a moderator directly: never marked automatic.
			expect((await call(`${ADMIN_API}/posts/${otherPost}/unhide`, { method: 'POST', cookie, body: {} })).code).toBe(0);
			expect((await call(`${ADMIN_API}/posts/${otherPost}/hide`, { method: 'POST', cookie, body: {} })).code).toBe(0);
			expect(await postHidden(otherPost)).toEqual({ hidden_by_admin: 1, auto_hidden: 0 });
		});
	});

	it("the report at the threshold reads one seek per open report of its target, whatever the community's size", async () => {
		await withThreshold(3, async () => {
			const postId = await newPost(1029);
			for (const id of FRESH.slice(0, 10)) await report(id, 'POST', postId);
			const { db, statements } = recordingDb();
			await createReport(db, GLOBAL.id, member(1033), { targetType: 'POST', targetId: postId, reason: 'SPAM', detail: '' }, Date.now());
			const tally = statements.find((statement) => /report_min_age_hours/.test(statement.sql))!;
			// The target's 11 open reports and their reporters' memberships.
			expect(tally.rowsRead).toBeLessThanOrEqual(40);
			expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBeLessThanOrEqual(10);
			const plan = (await queryPlan(tally)).join('\n');
			expect(plan).toContain('USING INDEX reports_open');
			expect(plan).not.toMatch(/\bSCAN\b/);
		});
	});
});
