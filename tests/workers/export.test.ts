/**
 * A member's data export (POST /v1/{domain}/{slug}/me/export, src/server/members/export.ts): a
 * member with 50,000 comments gets the whole file, streamed, in order, in a bounded number of D1
 * queries; it holds the member's own data of this community only (their hidden and deleted content
 * marked, nothing of another member or another community); a guest gets LoginRequired; a second
 * export within 20 minutes is refused; a GET (what another site's link or image sends) or a POST
 * from another site spends nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { api } from '@functions/api/app';
import { EXPORT_INTERVAL_MS, claimExport, exportStream } from '@/server/members/export';
import { translator } from '@/i18n';
import { GLOBAL, KOREAN, ORIGIN, call, memberApi, queryPlan, recordingDb, signIn, signUp } from './harness';

const COMMENTS = 50_000;
const BATCH = 10_000;

interface Exported {
	format: string;
	community: { domain: string; slug: string };
	profile: { userId: number; nickname: string; avatar: { urls: string[] } | null };
	nicknames: { nickname: string }[];
	posts: { postId: number; title: string; images: string[]; hiddenByAdmin: boolean; deletedAt: string | null; content: unknown }[];
	comments: { commentId: number; postId: number; content: string; hiddenByAdmin: boolean }[];
	likes: Record<string, unknown>[];
	commentLikes: Record<string, unknown>[];
	saved: Record<string, unknown>[];
	reports: { reportId: number; targetId: number; reason: string }[];
	drafts: { draftId: number; title: string }[];
	blocks: Record<string, unknown>[];
	revisions: Record<string, unknown>[];
}

/**
 * What My Page → Settings says the file holds (settings.exportDesc), in each language: every section
 * of the file (and the profile's avatar) with the words that name it. A section the sentence does not
 * name, or a name with nothing behind it, fails.
 */
const SENTENCE_NAMES: Record<string, Record<'en' | 'ja' | 'ko' | 'zh', string>> = {
	profile: { en: 'your profile', ja: 'プロフィール', ko: '프로필', zh: '個人資料' },
	avatar: { en: 'your avatar', ja: 'アバター', ko: '아바타', zh: '頭像' },
	nicknames: { en: 'the nicknames you have used', ja: '使ったニックネーム', ko: '사용한 닉네임', zh: '使用過的暱稱' },
	posts: { en: 'your posts', ja: '投稿と画像のURL', ko: '게시글(이미지 주소 포함)', zh: '文章（含圖片網址）' },
	comments: { en: 'comments', ja: 'コメント', ko: '댓글', zh: '留言' },
	revisions: { en: 'earlier versions', ja: '以前の版', ko: '이전 버전', zh: '先前的版本' },
	likes: { en: 'likes', ja: 'いいね', ko: '좋아요', zh: '按讚' },
	commentLikes: { en: 'likes', ja: 'いいね', ko: '좋아요', zh: '按讚' },
	saved: { en: 'saved posts', ja: '保存した投稿', ko: '저장한 글', zh: '收藏的文章' },
	blocks: { en: 'blocked members', ja: 'ブロックしたメンバー', ko: '차단한 회원', zh: '已封鎖的會員' },
	reports: { en: 'reports', ja: '通報', ko: '신고', zh: '檢舉' },
	drafts: { en: 'drafts', ja: '下書き', ko: '임시저장 글', zh: '草稿' },
};

let member: { cookie: string; userId: number };
let otherChannel: { cookie: string; userId: number };
let postId: number;
let privatePost: { id: number; title: string };
const likedComment = 990201;

/** Inserts `count` comments of `memberId` on `post`, in statements of BATCH rows. */
async function insertComments(memberId: number, channelId: number, post: number, count: number, text: string) {
	const first = (await env.DB.prepare('SELECT coalesce(max(id), 0) AS id FROM comments').first<number>('id'))!;
	for (let start = 0; start < count; start += BATCH) {
		const size = Math.min(BATCH, count - start);
		await env.DB.prepare(
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
			 INSERT INTO comments (id, channel_id, post_id, member_id, content, created_at)
			 SELECT ?2 + i, ?3, ?4, ?5, ?6 || ' #' || CAST(?7 + i AS INTEGER), 1700000000000 + ?7 + i FROM n`,
		)
			.bind(size, first + start, channelId, post, memberId, text, start)
			.run();
	}
}

/** The export over HTTP, as the browser asks for it. */
const download = (cookie: string | undefined, channel = GLOBAL) =>
	api.request(`${memberApi(channel)}/me/export`, {
		method: 'POST',
		headers: { origin: ORIGIN, 'cf-connecting-ip': `test:${expect.getState().currentTestName}`, ...(cookie ? { cookie } : {}) },
	});

beforeAll(async () => {
	member = await signUp('export-member', 'ExportMember');
	otherChannel = await signUp('export-member', 'ExportMemberKr', KOREAN);
	postId = (await env.DB.prepare(
		'SELECT id FROM posts WHERE channel_id = 1 AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND member_id <> ?1 ORDER BY id LIMIT 1',
	)
		.bind(member.userId)
		.first<number>('id'))!;
	privatePost = (await env.DB.prepare('SELECT id, title FROM posts WHERE channel_id = 1 AND member_id <> ?1 ORDER BY id DESC LIMIT 1')
		.bind(member.userId)
		.first<{ id: number; title: string }>())!;
	await env.DB.prepare('UPDATE posts SET is_private = 1 WHERE id = ?1').bind(privatePost.id).run();
	await insertComments(member.userId, 1, postId, COMMENTS, 'mine');
	// Another member's comments on the same post, and the same person's in another community.
	await insertComments(1005, 1, postId, 3, 'someone else');
	const krPost = (await env.DB.prepare('SELECT id FROM posts WHERE channel_id = 2 ORDER BY id LIMIT 1').first<number>('id'))!;
	await insertComments(otherChannel.userId, 2, krPost, 3, 'other community');
	const image = { type: 'image', src: '/uploads/export-test.png', alt: 'farm', width: 10, height: 10 };
	const doc = (text: string, blocks: unknown[] = []) =>
		JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ type: 'text', text }] }, ...blocks] });
	await env.DB.batch([
		env.DB.prepare(
			"INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at) VALUES (990101, 1, 12, ?1, 'My farm', ?2, 'my farm', 1700000000000)",
		).bind(member.userId, doc('my farm', [image])),
		env.DB.prepare(
			"INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, hidden_by_admin) VALUES (990102, 1, 12, ?1, 'Hidden one', ?2, 'hidden', 1700000000001, 1)",
		).bind(member.userId, doc('hidden')),
		env.DB.prepare(
			"INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, deleted_at) VALUES (990103, 1, 12, ?1, 'Deleted one', ?2, 'deleted', 1700000000002, 1700000000003)",
		).bind(member.userId, doc('deleted')),
		env.DB.prepare(
			"INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at) VALUES (990104, 1, 12, 1005, 'Not mine', ?1, 'not mine', 1700000000004)",
		).bind(doc('not mine')),
		env.DB.prepare(
			'INSERT INTO post_likes (post_id, member_id, channel_id, created_at) VALUES (?1, ?2, 1, 1700000000005), (?3, ?2, 1, 1700000000006)',
		).bind(postId, member.userId, privatePost.id),
		// A comment of another member on the post, which the member likes.
		env.DB.prepare(
			"INSERT INTO comments (id, channel_id, post_id, member_id, content, created_at) VALUES (?1, 1, ?2, 1005, 'A liked comment', 1700000000006)",
		).bind(likedComment, postId),
		env.DB.prepare('INSERT INTO comment_likes (comment_id, member_id, post_id, channel_id, created_at) VALUES (?1, ?2, ?3, 1, 1700000000007)').bind(
			likedComment,
			member.userId,
			postId,
		),
		// Saved posts: one readable, one the member may no longer read (its title stays out of the file), and another member's.
		env.DB.prepare(
			'INSERT INTO saved_posts (member_id, post_id, channel_id, saved_at) VALUES (?2, ?1, 1, 1700000000011), (?2, ?3, 1, 1700000000010), (1005, ?1, 1, 1700000000012)',
		).bind(postId, member.userId, privatePost.id),
		env.DB.prepare(
			"INSERT INTO reports (channel_id, target_type, target_id, reporter_id, reason_code, reason_text, created_at) VALUES (1, 'POST', ?1, ?2, 'SPAM', '', 1700000000007)",
		).bind(postId, member.userId),
		env.DB.prepare(
			"INSERT INTO reports (channel_id, target_type, target_id, reporter_id, reason_code, reason_text, created_at) VALUES (1, 'POST', 990101, 1005, 'OTHER', 'a staff-only detail', 1700000000008)",
		),
		env.DB.prepare(
			"INSERT INTO drafts (channel_id, member_id, board_id, title, content, created_at, updated_at) VALUES (1, ?1, 12, 'Half done', ?2, 1700000000009, 1700000000009)",
		).bind(member.userId, doc('draft')),
		// A block, an earlier version of the member's post, and a picture: what the Settings sentence names besides.
		env.DB.prepare('INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) VALUES (?1, 1005, 1, 1700000000013)').bind(
			member.userId,
		),
		env.DB.prepare(
			"INSERT INTO revisions (channel_id, content_type, content_id, member_id, title, content, written_at, replaced_at) VALUES (1, 'POST', 990101, ?1, 'My frm', 'my frm', 1699999999000, 1700000000014)",
		).bind(member.userId),
		env.DB.prepare(
			'INSERT INTO member_avatars (member_id, channel_id, sizes, updated_at, day_started_at, day_changes) VALUES (?1, 1, 3, 1700000000015, 1700000000015, 2)',
		).bind(member.userId),
	]);
}, 60_000);

describe('a member exports their data', () => {
	it('50,000 comments: the whole file, parsed, complete, in order, in 38 D1 queries', async () => {
		const { db, statements } = recordingDb();
		const stream = exportStream(
			db,
			{ channel: { id: 1, domain: 'starfall', slug: 'global', title: 'Starfall' }, memberId: member.userId, origin: ORIGIN },
			1_800_000_000_000,
		);
		const text = await new Response(stream).text();
		const file = JSON.parse(text) as Exported;
		expect(file.profile).toMatchObject({ userId: member.userId, nickname: 'ExportMember' });
		expect(file.comments).toHaveLength(COMMENTS);
		const ids = file.comments.map((comment) => comment.commentId);
		expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
		expect(file.comments.every((comment) => comment.content.startsWith('mine #'))).toBe(true);
		expect(file.comments[COMMENTS - 1]!.content).toBe(`mine #${COMMENTS}`);
		// Profile 1, nicknames 1, posts 2 (ids, bodies), comments 25 (2,000 a page), likes 1, comment likes 1, saved 1, blocks 1,
		// reports 1, drafts 2, revisions 2.
		expect(statements.length).toBe(38);
		expect(statements.filter((statement) => statement.sql.includes('FROM comments'))).toHaveLength(COMMENTS / 2000);
		expect(statements.every((statement) => statement.rowsWritten === 0)).toBe(true);
		// Each read goes by an index of the member's rows, never a scan of a table.
		for (const statement of new Map(statements.map((one) => [one.sql, one])).values()) {
			const plan = (await queryPlan(statement)).join(' | ');
			expect(plan, statement.sql).not.toMatch(/SCAN (?!.*USING (COVERING )?INDEX)/);
			expect(plan, statement.sql).toMatch(/USING (COVERING |INTEGER PRIMARY KEY|PRIMARY KEY)?\s*(INDEX|\(rowid)|PRIMARY KEY/);
		}
	});

	it("holds the member's own data of this community only, their removed posts marked", async () => {
		const response = await download(member.cookie);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
		expect(response.headers.get('content-disposition')).toMatch(
			new RegExp(`^attachment; filename="starfall-global-member-${member.userId}-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
		);
		expect(response.headers.get('cache-control')).toBe('private, no-store');
		const text = await response.text();
		const file = JSON.parse(text) as Exported;
		expect(file.community).toMatchObject({ domain: 'starfall', slug: 'global' });
		expect(file.comments).toHaveLength(COMMENTS);
		expect(file.posts.map((post) => [post.postId, post.hiddenByAdmin, post.deletedAt !== null])).toEqual([
			[990101, false, false],
			[990102, true, false],
			[990103, false, true],
		]);
		expect(file.posts[0]!.images).toEqual([`${ORIGIN}/uploads/export-test.png`]);
		expect(file.likes).toEqual([
			{ postId, likedAt: new Date(1700000000005).toISOString() },
			{ postId: privatePost.id, likedAt: new Date(1700000000006).toISOString() },
		]);
		// Comment likes: the comment, its post and when (none made here but the one below).
		expect(file.commentLikes).toEqual([{ commentId: likedComment, postId, likedAt: new Date(1700000000007).toISOString() }]);
		// Saved posts: the post id and when, oldest saved first, the member's own only.
		expect(file.saved).toEqual([
			{ postId: privatePost.id, savedAt: new Date(1700000000010).toISOString() },
			{ postId, savedAt: new Date(1700000000011).toISOString() },
		]);
		expect(file.reports.map((report) => [report.targetId, report.reason])).toEqual([[postId, 'SPAM']]);
		expect(file.drafts.map((draft) => draft.title)).toEqual(['Half done']);
		expect(file.nicknames.map((row) => row.nickname)).toEqual(['ExportMember']);
		expect(file.blocks).toEqual([{ userId: 1005, blockedAt: new Date(1700000000013).toISOString() }]);
		expect(file.revisions).toEqual([
			{
				type: 'POST',
				id: 990101,
				title: 'My frm',
				content: 'my frm',
				writtenAt: new Date(1699999999000).toISOString(),
				replacedAt: new Date(1700000000014).toISOString(),
			},
		]);
		expect(file.profile.avatar?.urls).toEqual([96, 256].map((size) => `${ORIGIN}/starfall/global/avatars/${member.userId}?s=${size}`));
		// The Settings sentence names every section the file holds, each of them filled here, in all four languages.
		const sections = Object.keys(file).filter((key) => !['format', 'version', 'exportedAt', 'community'].includes(key));
		expect([...sections, 'avatar'].sort()).toEqual(Object.keys(SENTENCE_NAMES).sort());
		for (const section of sections) {
			const value = (file as unknown as Record<string, unknown>)[section];
			expect(Array.isArray(value) ? value.length : value, section).toBeTruthy();
		}
		for (const language of ['en', 'ja', 'ko', 'zh'] as const) {
			const sentence = translator(language)('settings.exportDesc');
			for (const [section, names] of Object.entries(SENTENCE_NAMES)) expect(sentence, `${language} ${section}`).toContain(names[language]);
		}
		// Nothing of another member, of the other community, or of a post the member may not read.
		for (const foreign of ['someone else', 'other community', 'Not mine', 'ExportMemberKr', 'a staff-only detail', privatePost.title])
			expect(text).not.toContain(foreign);
	});

	it("a guest gets LoginRequired; another community's session is not this one's", async () => {
		const guest = await call(`${memberApi()}/me/export`, { method: 'POST' });
		expect([guest.status, guest.code]).toEqual([401, -4011401]);
		const elsewhere = await call(`${memberApi()}/me/export`, { method: 'POST', cookie: otherChannel.cookie });
		expect([elsewhere.status, elsewhere.code]).toEqual([401, -4011401]);
	});

	it('one export per 20 minutes per member: a second is refused with Retry-After and reads nothing', async () => {
		const cookie = await signIn(1007);
		await env.DB.prepare('UPDATE members SET last_export_at = NULL WHERE id = 1007').run();
		const first = await download(cookie);
		expect(first.status).toBe(200);
		JSON.parse(await first.text());
		const second = await call(`${memberApi()}/me/export`, { method: 'POST', cookie });
		expect([second.status, second.code]).toEqual([429, -4291401]);
		expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(EXPORT_INTERVAL_MS / 1000 - 60);
		// The interval past (the stored start moved back), it is allowed again.
		await env.DB.prepare('UPDATE members SET last_export_at = last_export_at - ?1 WHERE id = 1007').bind(EXPORT_INTERVAL_MS).run();
		const third = await download(cookie);
		expect(third.status).toBe(200);
		await third.body?.cancel();
	});

	it('starting an export writes one row; of two started at once, one goes ahead', async () => {
		await env.DB.prepare('UPDATE members SET last_export_at = NULL WHERE id = 1009').run();
		const { db, statements } = recordingDb();
		await claimExport(db, 1, 1009, 1_800_000_000_000);
		expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBe(1);
		await env.DB.prepare('UPDATE members SET last_export_at = NULL WHERE id = 1009').run();
		const outcomes = await Promise.allSettled([claimExport(env.DB, 1, 1009, 1_800_000_000_000), claimExport(env.DB, 1, 1009, 1_800_000_000_001)]);
		expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
		// Another community's member id is not this community's member.
		await expect(claimExport(env.DB, 2, 1009, 1_900_000_000_000)).rejects.toThrow();
	});

	it('a wrong method, a query or a body is answered in the envelope', async () => {
		const cookie = await signIn(1008);
		for (const method of ['PUT', 'PATCH', 'DELETE']) expect((await call(`${memberApi()}/me/export`, { method, cookie })).code, method).toBe(-4051401);
		expect((await call(`${memberApi()}/me/export?all=1`, { method: 'POST', cookie })).code).toBe(-4001400);
		expect((await call(`${memberApi()}/me/export`, { method: 'POST', cookie, body: { all: true } })).code).toBe(-4001400);
	});

	it("a GET, as another site's link or image sends it with the member's cookie, or a POST from another site, spends no slot", async () => {
		const cookie = await signIn(1010);
		await env.DB.prepare('UPDATE members SET last_export_at = NULL WHERE id = 1010').run();
		// A top-level link (SameSite=Lax sends the cookie) or an <img>: no Origin, Sec-Fetch-Site cross-site.
		const link = await call(`${memberApi()}/me/export`, { cookie, headers: { origin: '', 'sec-fetch-site': 'cross-site' } });
		expect([link.status, link.code]).toEqual([405, -4051401]);
		const forged = await call(`${memberApi()}/me/export`, { method: 'POST', cookie, headers: { origin: 'https://evil.example' } });
		expect([forged.status, forged.code]).toEqual([403, -4031401]);
		expect(await env.DB.prepare('SELECT last_export_at FROM members WHERE id = 1010').first<number | null>('last_export_at')).toBeNull();
		// The member's own button still gets the file.
		const own = await download(cookie);
		expect(own.status).toBe(200);
		expect((JSON.parse(await own.text()) as Exported).profile.userId).toBe(1010);
	});
});
