/**
 * The admin area's reads and settings (functions/api/admin.ts, issue 12): the bans in force, a
 * member found by nickname, the community's automatic hide at a number of reports (the report that
 * reaches it hides the target with no moderator and leaves the reports open; a moderator keeps it
 * hidden or shows it again), and what each writes to the audit log and costs in rows.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { searchPosts } from '@/server/search/search';
import { createReport } from '@/server/reports/reports';
import { call, memberApi, postWhere, publicApi, recordingDb, signIn, GLOBAL, KOREAN, ORIGIN } from './harness';
import type { SessionMember } from '@/server/sign-in/sessions';

const ADMIN_API = `${ORIGIN}/admin/v1/starfall/global`;
const ADMIN = 1001;

interface LogEntry { action: string; targetType: string; targetId: number; reason: string; moderator: { userId: number } | null }
const logEntries = async (cookie: string) => ((await call(`${ADMIN_API}/audit-log`, { cookie })).body['content'] as { entries: LogEntry[]; totalCount: number });

/** A session member as the services take it, for reports made straight through the service. */
function member(userId: number): SessionMember {
	return { userId, nickname: `member ${userId}`, role: 'MEMBER', joinedAt: 0, provider: 'GOOGLE', recentProvider: 'GOOGLE' };
}

describe('bans in force and finding a member', () => {
	it('lists each banned member once, newest ban first, and leaves out lifted and ended bans', async () => {
		const cookie = await signIn(ADMIN);
		const now = Date.now();
		await env.DB.batch([
			env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (1, 1020, 'TEMPORARY', ?1, 'first', ?2)").bind(now + 86_400_000, now - 5000),
			env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (1, 1020, 'TEMPORARY', ?1, 'second', ?2)").bind(now + 3 * 86_400_000, now - 4000),
			env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (1, 1021, 'TEMPORARY', ?1, 'ended', ?2)").bind(now - 1000, now - 9000),
			env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at, lifted_at) VALUES (1, 1022, 'PERMANENT', NULL, 'lifted', ?1, ?1)").bind(now - 3000),
		]);
		const list = (await call(`${ADMIN_API}/bans`, { cookie })).body['content'] as { bans: { member: { userId: number }; kind: string; endsAt: number | null; reason: string }[]; totalCount: number };
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
	it('stores the threshold, logs a change once, and refuses a bad one changing nothing', async () => {
		const cookie = await signIn(ADMIN);
		expect((await call(`${ADMIN_API}/settings`, { cookie })).body['content']).toEqual({ autoHideReports: null });
		const before = (await logEntries(cookie)).totalCount;
		for (const body of [{ autoHideReports: 0 }, { autoHideReports: 1001 }, { autoHideReports: '3' }, { autoHideReports: 2.5 }, {}, { autoHideReports: 3, extra: 1 }, '[]']) {
			const answer = await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body });
			expect(answer.status, JSON.stringify(body)).toBe(400);
		}
		expect((await call(`${ADMIN_API}/settings`, { method: 'POST', cookie, body: { autoHideReports: 3 } })).status).toBe(405);
		expect((await logEntries(cookie)).totalCount).toBe(before);
		expect((await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body: { autoHideReports: 3 } })).body['content']).toEqual({ autoHideReports: 3 });
		expect((await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body: { autoHideReports: 3 } })).code).toBe(0);
		const log = await logEntries(cookie);
		expect(log.totalCount).toBe(before + 1);
		expect(log.entries[0]).toMatchObject({ action: 'SETTINGS', targetType: 'CHANNEL', targetId: 1, reason: 'autoHideReports=3', moderator: { userId: ADMIN } });
		// Another community's setting is its own.
		expect(await env.DB.prepare('SELECT auto_hide_reports FROM channels WHERE id = ?1').bind(KOREAN.id).first<number | null>('auto_hide_reports')).toBeNull();
		expect((await call(`${ADMIN_API}/settings`, { method: 'PUT', cookie, body: { autoHideReports: null } })).code).toBe(0);
		expect((await logEntries(cookie)).entries[0]).toMatchObject({ action: 'SETTINGS', reason: 'autoHideReports=off' });
	});

	it('the report that reaches the threshold hides the post, keeps the reports open, and a moderator decides', async () => {
		const cookie = await signIn(ADMIN);
		await env.DB.prepare('UPDATE channels SET auto_hide_reports = 2 WHERE id = 1').run();
		try {
			const row = (await env.DB.prepare(
				`SELECT id, title, member_id FROM posts WHERE board_id = 13 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL
				 AND member_id NOT IN (1030, 1031) ORDER BY id DESC LIMIT 1`,
			).first<{ id: number; title: string; member_id: number }>())!;
			const found = async () => (await searchPosts(env.DB, 1, Array.from(row.title).slice(0, 6).join(''), 'TITLE', 1)).posts.some((post) => post.postId === row.id);
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
			const queue = (await call(`${ADMIN_API}/reports`, { cookie })).body['content'] as { groups: { targetType: string; targetId: number; hidden: boolean; count: number }[] };
			expect(queue.groups.find((group) => group.targetType === 'POST' && group.targetId === row.id)).toMatchObject({ hidden: true, count: 2 });

			// Shown again: back in search, its reports dismissed by the moderator.
			expect((await call(`${ADMIN_API}/posts/${row.id}/unhide`, { method: 'POST', cookie, body: { reason: 'not spam' } })).code).toBe(0);
			expect(await found()).toBe(true);
			const statuses = await env.DB.prepare("SELECT status, resolved_by FROM reports WHERE target_type = 'POST' AND target_id = ?1").bind(row.id).all();
			expect(statuses.results).toEqual([{ status: 'DISMISSED', resolved_by: ADMIN }, { status: 'DISMISSED', resolved_by: ADMIN }]);
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
			const written = await call(`${memberApi()}/posts/${postId}/comments`, { method: 'POST', cookie: await signIn(1025), body: { content: `auto ${crypto.randomUUID()}` } });
			const commentId = (written.body['content'] as { comment: { commentId: number } }).comment.commentId;
			const count = async () => env.DB.prepare('SELECT comment_count FROM posts WHERE id = ?1').bind(postId).first<number>('comment_count');
			const before = await count();
			await createReport(env.DB, GLOBAL.id, member(1026), { targetType: 'COMMENT', targetId: commentId, reason: 'ABUSE', detail: '' }, Date.now());
			expect(await env.DB.prepare('SELECT hidden_by_admin FROM comments WHERE id = ?1').bind(commentId).first<number>('hidden_by_admin')).toBe(1);
			expect(await count()).toBe(before! - 1);
			expect((await logEntries(cookie)).entries[0]).toMatchObject({ action: 'AUTO_HIDE_COMMENT', targetId: commentId, moderator: null });

			// Keep hidden: the hide of a hidden comment resolves its open reports, logged once.
			expect((await call(`${ADMIN_API}/comments/${commentId}/hide`, { method: 'POST', cookie, body: { reason: 'confirmed' } })).code).toBe(0);
			expect((await env.DB.prepare("SELECT status FROM reports WHERE target_type = 'COMMENT' AND target_id = ?1").bind(commentId).first<string>('status'))).toBe('RESOLVED');
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
