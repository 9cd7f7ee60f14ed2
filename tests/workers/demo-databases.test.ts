/**
 * The demo as `npm start` and the browser tests' server lay it out (docs/reference/databases.md):
 * Starfall's English and Korean communities in DB_1, the Japanese, Traditional Chinese and Pixel Farm
 * ones in DB_2, the directory (DB) holding only the channels' rows and the identities. The request
 * path works there as in one database: reads, sign-in and sign-up, writes, the notifications
 * consumer and the cron, each in the database of its community, nothing in the directory.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { DEMO_CHANNELS, DEMO_DATABASES } from '../../scripts/seed/demo.mjs';
import { runScheduled } from '@functions/shell/scheduled';
import { planChannel } from '@/server/channels/apply';
import { ChannelFileSchema } from '@/server/channels/channel-file';
import jp from '../../channels/starfall-jp.json';
import farm from '../../channels/pixelfarm-main.json';
import {
	call,
	communityDatabase,
	deliverNotifications,
	GLOBAL,
	KOREAN,
	memberApi,
	plainMembers,
	postWhere,
	publicApi,
	signIn,
	signUp,
	type ChannelRef,
} from './harness';
import { placeDemo } from './seed';
import { ID_SPAN, NEW_ID_ROWS_READ, idRange, newIdSql } from '@/server/databases/ids';
import { moveCommunity } from '@/server/databases/move';
import { databaseNamed } from '@/server/platform/databases';

const FARM: ChannelRef = { id: 4, domain: 'pixelfarm', slug: 'main' };
const COMMUNITIES: ChannelRef[] = DEMO_CHANNELS.map(({ index, domain, slug }) => ({ id: index, domain, slug })).sort((a, b) => a.id - b.id);
const CONTENT = ['DB_1', 'DB_2'] as const;
const database = (name: string) => Reflect.get(env, name) as D1Database;
const count = async (db: D1Database, sql: string, ...values: unknown[]) =>
	(await db
		.prepare(sql)
		.bind(...values)
		.first<number>('n'))!;
const paragraph = (text: string) => ({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });

beforeAll(async () => {
	await placeDemo();
});

describe('the demo over two content databases', () => {
	it('holds each community whole in the database the directory names, and only channels and identities in the directory', async () => {
		const directory = await env.DB.prepare('SELECT id, database FROM channels ORDER BY id').all<{ id: number; database: string }>();
		expect(directory.results).toEqual(COMMUNITIES.map(({ id }) => ({ id, database: DEMO_DATABASES[id] })));
		expect(new Set(Object.values(DEMO_DATABASES))).toEqual(new Set(CONTENT));
		// Starfall's main community and the dark Pixel Farm are served from different databases.
		expect(DEMO_DATABASES[GLOBAL.id]).not.toBe(DEMO_DATABASES[FARM.id]);
		for (const table of ['boards', 'members', 'posts', 'comments', 'post_likes', 'drafts', 'reports', 'channel_providers']) {
			expect(await count(env.DB, `SELECT count(*) AS n FROM ${table}`), `${table} in the directory`).toBe(0);
		}
		expect(await count(env.DB, 'SELECT count(*) AS n FROM post_search')).toBe(0);
		const identities = await count(env.DB, 'SELECT count(*) AS n FROM identities');
		let copies = 0;
		for (const name of CONTENT) {
			const db = database(name);
			const held = COMMUNITIES.filter(({ id }) => DEMO_DATABASES[id] === name).map(({ id }) => id);
			expect(await db.prepare('SELECT id, database FROM channels ORDER BY id').all()).toMatchObject({
				results: held.map((id) => ({ id, database: name })),
			});
			expect(await count(db, `SELECT count(*) AS n FROM posts WHERE channel_id NOT IN (${held.join(',')})`)).toBe(0);
			expect(await count(db, 'SELECT count(*) AS n FROM posts')).toBeGreaterThan(0);
			// Every member's identity is there, a copy of the directory's (the same id).
			expect(
				await count(
					db,
					'SELECT count(*) AS n FROM members m WHERE m.identity_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.id = m.identity_id)',
				),
			).toBe(0);
			copies += await count(db, 'SELECT count(*) AS n FROM identities');
		}
		expect(copies).toBe(identities);
	});

	it.each(COMMUNITIES.map((channel) => [`${channel.domain}/${channel.slug}`, channel] as const))(
		'serves %s: its boards, a board page, a post and its comments',
		async (_name, channel) => {
			expect((await call(`${publicApi(channel)}/boards/tree`)).code).toBe(0);
			const postId = await postWhere(
				'channel_seq IS NOT NULL AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND comment_count > 0',
				channel.id,
			);
			const post = await call(`${publicApi(channel)}/posts/${postId}`);
			expect(post.code, JSON.stringify(post.body)).toBe(0);
			expect(JSON.stringify(post.body)).toContain(`"postId":${postId}`);
			const comments = await call(`${publicApi(channel)}/posts/${postId}/comments`);
			expect(comments.code).toBe(0);
			expect((comments.body['content'] as { comments: unknown[] }).comments.length).toBeGreaterThan(0);
			const board = (await (await communityDatabase(channel.id))
				.prepare('SELECT board_id FROM posts WHERE id = ?1')
				.bind(postId)
				.first<number>('board_id'))!;
			const page = await call(`${publicApi(channel)}/posts?boardId=${board}`);
			expect(page.code).toBe(0);
		},
	);

	it('signs members in and writes posts, comments and likes in each community’s own database', async () => {
		for (const channel of [GLOBAL, FARM]) {
			const db = await communityDatabase(channel.id);
			const [author, commenter] = await plainMembers(channel.id, 2);
			const cookie = await signIn(author!.id, channel);
			expect(await count(db, 'SELECT count(*) AS n FROM sessions WHERE member_id = ?1', author!.id)).toBe(1);
			const postId = await postWhere('channel_seq IS NOT NULL AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0', channel.id);
			const text = `Written in ${channel.domain}/${channel.slug}'s own database`;
			const comment = await call(`${memberApi(channel)}/posts/${postId}/comments`, { method: 'POST', cookie, body: { content: text } });
			expect(comment.code).toBe(0);
			expect(comment.headers.get('X-D1-Bookmark')).toMatch(new RegExp(`^${DEMO_DATABASES[channel.id]}~`));
			const liked = await call(`${memberApi(channel)}/posts/${postId}/like`, { method: 'PUT', cookie: await signIn(commenter!.id, channel) });
			expect(liked.code).toBe(0);
			expect(await count(db, 'SELECT count(*) AS n FROM comments WHERE content = ?1', text)).toBe(1);
			expect(await count(db, 'SELECT count(*) AS n FROM post_likes WHERE post_id = ?1 AND member_id = ?2', postId, commenter!.id)).toBe(1);
			expect(JSON.stringify((await call(`${publicApi(channel)}/posts/${postId}/comments`)).body)).toContain(text);
		}
		const cookie = await signIn(1007, GLOBAL);
		const written = await call(`${memberApi(GLOBAL)}/posts`, {
			method: 'POST',
			cookie,
			body: {
				boardId: 12,
				subjectId: 121,
				title: 'A post in DB_1',
				content: paragraph('Where the community lives.'),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		expect(written.code).toBe(0);
		expect(await count(env.DB_1, "SELECT count(*) AS n FROM posts WHERE title = 'A post in DB_1'")).toBe(1);
		for (const table of ['sessions', 'posts', 'comments', 'post_likes']) {
			expect(await count(env.DB, `SELECT count(*) AS n FROM ${table}`), `${table} in the directory`).toBe(0);
		}
	});

	it('signs a newcomer up: the identity in the directory, the member and a copy of the identity in the community’s database', async () => {
		const { userId } = await signUp('split-demo-newcomer', 'Farmhand', FARM);
		const identity = await env.DB.prepare("SELECT id FROM identities WHERE subject = 'split-demo-newcomer'").first<number>('id');
		expect(identity).not.toBeNull();
		expect(await env.DB_2.prepare('SELECT identity_id FROM members WHERE id = ?1').bind(userId).first<number>('identity_id')).toBe(identity);
		expect(await count(env.DB_2, "SELECT count(*) AS n FROM identities WHERE subject = 'split-demo-newcomer'")).toBe(1);
		expect(await count(env.DB_1, "SELECT count(*) AS n FROM identities WHERE subject = 'split-demo-newcomer'")).toBe(0);
		expect(await count(env.DB, 'SELECT count(*) AS n FROM members')).toBe(0);
	});

	it('delivers a comment’s notification in the community’s database, and the author reads it there', async () => {
		const [author, commenter] = await plainMembers(KOREAN.id, 4).then((members) => members.slice(2));
		const authorCookie = await signIn(author!.id, KOREAN);
		const post = await call(`${memberApi(KOREAN)}/posts`, {
			method: 'POST',
			cookie: authorCookie,
			body: {
				boardId: 22,
				subjectId: 221,
				title: '알림 시험',
				content: paragraph('댓글을 기다립니다.'),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		expect(post.code, JSON.stringify(post.body)).toBe(0);
		const postId = (post.body['content'] as { postId: number }).postId;
		await deliverNotifications();
		const commented = await call(`${memberApi(KOREAN)}/posts/${postId}/comments`, {
			method: 'POST',
			cookie: await signIn(commenter!.id, KOREAN),
			body: { content: '좋은 글이네요' },
		});
		expect(commented.code, JSON.stringify(commented.body)).toBe(0);
		const { delivered } = await deliverNotifications();
		expect(delivered).toBeGreaterThan(0);
		expect(
			await count(env.DB_1, "SELECT count(*) AS n FROM notifications WHERE member_id = ?1 AND post_id = ?2 AND kind = 'COMMENT'", author!.id, postId),
		).toBe(1);
		expect(await count(env.DB, 'SELECT count(*) AS n FROM notifications')).toBe(0);
		const list = await call(`${memberApi(KOREAN)}/notifications`, { cookie: authorCookie });
		expect(list.code).toBe(0);
		expect(JSON.stringify(list.body)).toContain(`"postId":${postId}`);
	});

	it('runs the cron in both content databases: an unused upload of each is removed', async () => {
		const old = Date.UTC(2026, 0, 1);
		for (const [channel, key] of [
			[GLOBAL, 'uploads/split-global-unused.png'],
			[FARM, 'uploads/split-farm-unused.png'],
		] as const) {
			const [member] = await plainMembers(channel.id, 1);
			await (await communityDatabase(channel.id))
				.prepare(
					"INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, width, height, created_at) VALUES (?1, ?2, ?3, 'image/png', 10, 1, 1, ?4)",
				)
				.bind(channel.id, member!.id, key, old)
				.run();
			await env.UPLOADS.put(key, new Uint8Array([1]));
		}
		const ctx = createExecutionContext();
		await runScheduled(createScheduledController({ scheduledTime: old + 3 * 86_400_000, cron: '17 * * * *' }), env, ctx);
		await waitOnExecutionContext(ctx);
		expect(await count(env.DB_1, "SELECT count(*) AS n FROM uploads WHERE r2_key LIKE 'uploads/split-%'")).toBe(0);
		expect(await count(env.DB_2, "SELECT count(*) AS n FROM uploads WHERE r2_key LIKE 'uploads/split-%'")).toBe(0);
		expect(await env.UPLOADS.head('uploads/split-farm-unused.png')).toBeNull();
		expect(await env.UPLOADS.head('uploads/split-global-unused.png')).toBeNull();
	});

	it('plans every community file unchanged where its community lives, and names the community whose id a copied file gives from the directory', async () => {
		for (const file of [jp, farm]) {
			const parsed = ChannelFileSchema.parse(structuredClone(file));
			const plan = await planChannel(database(DEMO_DATABASES[parsed.id!]!), parsed, Date.now(), env.DB);
			expect([parsed.slug, plan.changes, plan.refusals]).toEqual([parsed.slug, [], []]);
		}
		// starfall/jp lives in DB_2, starfall/global (id 1) in DB_1: only the directory knows whose id 1 is.
		const copied = ChannelFileSchema.parse({ ...structuredClone(jp), id: 1 });
		const plan = await planChannel(env.DB_2, copied, Date.now(), env.DB);
		expect(plan.refusals).toEqual(["id: starfall/jp has the id 3, not 1 (1 is starfall/global's id); give its own id or none"]);
	});

	it('gives each database new ids in a range of its own, three rows read for one', async () => {
		// The id a new row gets: the channel's row (its binding), one seek back from the range's end, the floor's row.
		for (const [name, table] of [
			['DB_1', 'posts'],
			['DB_2', 'comments'],
			['DB_2', 'notifications'],
		] as const) {
			const next = await database(name)
				.prepare(`SELECT ${newIdSql(table, '?1')} AS id`)
				.bind(name === 'DB_1' ? GLOBAL.id : JP.id)
				.run<{ id: number }>();
			const { lo, hi } = idRange(name, table);
			expect(next.results, `${table} in ${name}`).toEqual([{ id: expect.any(Number) }]);
			expect(next.results[0]!.id, `${table} in ${name}`).toBeGreaterThan(lo);
			expect(next.results[0]!.id).toBeLessThanOrEqual(hi);
			expect(next.meta.rows_read, `${table} in ${name}`).toBeLessThanOrEqual(NEW_ID_ROWS_READ);
		}
		// Posts and members stay below 2^32 (the search index's rowids): DB_42 has the last range of them.
		expect(idRange('DB_42', 'posts').hi).toBe(2 ** 32 - 1);
		expect(() => idRange('DB_43', 'posts')).toThrow(RangeError);
		expect(idRange('DB_43', 'comments').hi).toBe(44 * ID_SPAN);
	});

	it('moves a community into the other content database and back, with posts written in both meanwhile: no clash, every URL the same', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			const writer = async (channel: ChannelRef, boardId: number, title: string) => {
				const [member] = await plainMembers(channel.id, 1);
				const answer = await call(`${memberApi(channel)}/posts`, {
					method: 'POST',
					cookie: await signIn(member!.id, channel),
					body: {
						boardId,
						subjectId: boardId * 10 + 1,
						title,
						content: paragraph(title),
						isPrivate: false,
						isNotice: false,
						requestId: crypto.randomUUID(),
					},
				});
				expect(answer.code, JSON.stringify(answer.body)).toBe(0);
				return (answer.body['content'] as { postId: number }).postId;
			};
			const answers = async (ids: number[]) =>
				Promise.all(
					['/posts', '/boards/tree', ...ids.flatMap((id) => [`/posts/${id}`, `/posts/${id}/comments`])].map(
						async (path) => (await call(`${publicApi(JP)}${path}`)).body,
					),
				);
			const seeded = await postWhere(
				'channel_seq IS NOT NULL AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND comment_count > 0',
				JP.id,
			);
			await writer(GLOBAL, 12, 'Before the move, in DB_1');
			const inDb2 = await writer(JP, 32, 'Written in DB_2');
			const before = await answers([seeded, inDb2]);
			await moveDemo(JP, 'DB_1');
			// DB_2 never hands out the ids that left: its floor is the moved post's.
			expect(await env.DB_2.prepare("SELECT floor FROM id_floors WHERE name = 'posts'").first<number>('floor')).toBe(inDb2);
			expect(await writer(TW, 52, 'In DB_2 after the move')).toBe(inDb2 + 1);
			expect(await answers([seeded, inDb2])).toEqual(before);
			const inDb1 = await writer(JP, 32, 'Written in DB_1');
			expect(inDb1).toBeGreaterThan(idRange('DB_1', 'posts').lo);
			const written = (await answers([inDb1])).slice(2);
			await moveDemo(JP, 'DB_2');
			expect(await writer(GLOBAL, 12, 'In DB_1 after the move back')).toBe(inDb1 + 1);
			// Every post's URL answers as before, the one written in DB_1 too (the lists have it now).
			const after = await answers([seeded, inDb2, inDb1]);
			expect(after.slice(1, before.length)).toEqual(before.slice(1));
			expect(after.slice(before.length)).toEqual(written);
			expect(JSON.stringify(written)).toContain('Written in DB_1');
			expect(await env.DB.prepare('SELECT database FROM channels WHERE id = ?1').bind(JP.id).first<string>('database')).toBe('DB_2');
		} finally {
			vi.useRealTimers();
		}
	});
});

const JP: ChannelRef = { id: 3, domain: 'starfall', slug: 'jp' };
const TW: ChannelRef = { id: 5, domain: 'starfall', slug: 'tw' };

/** Moves a demo community as `npm run channel -- move` does; the clock moves past the channel memo's two seconds at the switch. */
async function moveDemo(channel: ChannelRef, to: string): Promise<void> {
	const dbs = { directory: env.DB, names: ['DB', ...CONTENT, 'DB_3'], open: (name: string) => databaseNamed(name, env) };
	const settle = async () => void vi.setSystemTime(Date.now() + 5_000);
	expect(await moveCommunity(dbs, channel.domain, channel.slug, to, { settle })).toMatchObject({ kind: 'moved', to });
}
