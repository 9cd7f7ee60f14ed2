/**
 * Blocking a member (docs/reference/blocking.md): the /me/blocks routes and their refusals, the
 * bound of BLOCKS_KEPT blocks (rows inserted directly), the rows a block writes, notifications a
 * blocked member no longer sends the blocker (and the administrator's moderation notices that still
 * arrive), the @ suggestions, the export and withdrawal, and twenty accounts blocking one member.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import {
	call,
	deliverNotifications,
	freshPost,
	KOREAN,
	memberApi,
	plainMembers,
	recordingDb,
	sessionOf,
	signIn,
	takeSentNotifications,
	type Answer,
	type DemoMember,
} from './harness';
import { BLOCKS_KEPT, blockMember, unblockMember, type BlockedMember } from '@/server/members/blocks';
import { createComment } from '@/server/comments/writing';
import { likePost } from '@/server/likes/likes';
import { hidePost } from '@/server/moderation/hide';
import { withdrawMember } from '@/server/accounts/withdrawal';
import { exportStream } from '@/server/members/export';
import type { SessionMember } from '@/server/sign-in/sessions';

const API = memberApi();
const CHANNEL = 1;
const ADMIN = 1001;

let members: DemoMember[];

beforeAll(async () => {
	members = await plainMembers(CHANNEL, 8);
	expect(members).toHaveLength(8);
});

/** A new member of the global community with a live nickname claim, made directly. */
async function freshMember(nickname: string): Promise<DemoMember> {
	const id = (await env.DB.prepare(
		"INSERT INTO members (channel_id, nickname, role, provider, recent_provider, joined_at) VALUES (1, ?1, 'MEMBER', 'GOOGLE', 'GOOGLE', 0) RETURNING id",
	)
		.bind(nickname)
		.first<number>('id'))!;
	await env.DB.prepare('INSERT INTO nickname_claims (channel_id, nickname_key, nickname, member_id, claimed_at) VALUES (1, ?1, ?2, ?3, 0)')
		.bind(nickname.toLowerCase(), nickname, id)
		.run();
	return { id, nickname };
}

const block = async (by: number, userId: number | string, method: 'PUT' | 'DELETE' = 'PUT'): Promise<Answer> =>
	call(`${API}/me/blocks/${userId}`, { method, cookie: await signIn(by) });

async function blockRows(): Promise<{ blocker_id: number; blocked_id: number }[]> {
	return (
		await env.DB.prepare('SELECT blocker_id, blocked_id FROM member_blocks ORDER BY blocker_id, blocked_id').all<{
			blocker_id: number;
			blocked_id: number;
		}>()
	).results;
}

async function clearBlocks(): Promise<void> {
	await env.DB.prepare('DELETE FROM member_blocks').run();
}

describe('blocking and unblocking', () => {
	it('blocks and unblocks a member (each idempotent), lists them newest first, and writes one row each', async () => {
		await clearBlocks();
		const [a, b, c] = members as [DemoMember, DemoMember, DemoMember];
		const first = await block(a.id, b.id);
		expect([first.status, first.body['content']]).toEqual([200, { blocked: true }]);
		expect((await block(a.id, b.id)).body['content']).toEqual({ blocked: true });
		await env.DB.prepare('UPDATE member_blocks SET created_at = 1000 WHERE blocker_id = ?1').bind(a.id).run();
		expect((await block(a.id, c.id)).status).toBe(200);
		expect(await blockRows()).toEqual([
			{ blocker_id: a.id, blocked_id: Math.min(b.id, c.id) },
			{ blocker_id: a.id, blocked_id: Math.max(b.id, c.id) },
		]);
		const list = await call(`${API}/me/blocks`, { cookie: await signIn(a.id) });
		expect((list.body['content'] as { members: BlockedMember[] }).members.map((row) => [row.userId, row.nickname])).toEqual([
			[c.id, c.nickname],
			[b.id, b.nickname],
		]);
		// Someone else's list holds none of a's blocks.
		expect((await call(`${API}/me/blocks`, { cookie: await signIn(c.id) })).body['content']).toEqual({ members: [] });
		const unblocked = await block(a.id, b.id, 'DELETE');
		expect([unblocked.status, unblocked.body['content']]).toEqual([200, { blocked: false }]);
		expect((await block(a.id, b.id, 'DELETE')).body['content']).toEqual({ blocked: false });
		expect(await blockRows()).toEqual([{ blocker_id: a.id, blocked_id: c.id }]);
	});

	it('a block writes at most 3 rows (the row and its two index entries) and an unblock as many, whatever the member has', async () => {
		await clearBlocks();
		const [a, b] = members as [DemoMember, DemoMember];
		const written = async (run: (db: Db) => Promise<unknown>) => {
			const recorded = recordingDb();
			await run(recorded.db);
			return recorded.statements.reduce((sum, statement) => sum + statement.rowsWritten, 0);
		};
		expect(await written((db) => blockMember(db, CHANNEL, a.id, b.id, Date.now()))).toBeLessThanOrEqual(3);
		expect(await written((db) => blockMember(db, CHANNEL, a.id, b.id, Date.now()))).toBe(0);
		expect(await written((db) => unblockMember(db, CHANNEL, a.id, b.id))).toBeLessThanOrEqual(3);
		expect(await written((db) => unblockMember(db, CHANNEL, a.id, b.id))).toBe(0);
	});

	it('refuses bad targets with catalogue codes and writes nothing', async () => {
		await clearBlocks();
		const [a] = members as [DemoMember];
		const withdrawn = await freshMember('BlockWithdrawn');
		await env.DB.prepare('UPDATE members SET withdrawn_at = 1 WHERE id = ?1').bind(withdrawn.id).run();
		const korean = (await env.DB.prepare('SELECT id FROM members WHERE channel_id = ?1 LIMIT 1').bind(KOREAN.id).first<number>('id'))!;
		const cases: [string | number, 'PUT' | 'DELETE', number, number][] = [
			[a.id, 'PUT', 400, -4001489],
			[a.id, 'DELETE', 400, -4001489],
			[999_999, 'PUT', 404, -4041404],
			[999_999, 'DELETE', 404, -4041404],
			[korean, 'PUT', 404, -4041404],
			[korean, 'DELETE', 404, -4041404],
			[withdrawn.id, 'PUT', 404, -4041404],
		];
		for (const bad of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999', ' 1']) {
			cases.push([encodeURIComponent(bad), 'PUT', 400, -4001400], [encodeURIComponent(bad), 'DELETE', 400, -4001400]);
		}
		for (const [target, method, status, code] of cases) {
			const answer = await block(a.id, target, method);
			expect([String(target), method, answer.status, answer.code]).toEqual([String(target), method, status, code]);
			expect(answer.body['header']).toMatchObject({ isSuccessful: false });
		}
		const guest = await call(`${API}/me/blocks/${members[1]!.id}`, { method: 'PUT' });
		expect([guest.status, guest.code]).toEqual([401, -4011401]);
		const withBody = await call(`${API}/me/blocks/${members[1]!.id}`, { method: 'PUT', cookie: await signIn(a.id), body: { blocked: false } });
		expect([withBody.status, withBody.code]).toEqual([400, -4001400]);
		expect(await blockRows()).toEqual([]);
	});

	it(`at most ${BLOCKS_KEPT} blocks: the next is refused (409, its own code) and writes nothing; a repeat and an unblock still pass`, async () => {
		await clearBlocks();
		const [a, b] = members as [DemoMember, DemoMember];
		// BLOCKS_KEPT members to block, made and blocked directly.
		const { results } = await env.DB.prepare(
			`INSERT INTO members (channel_id, nickname, role, provider, recent_provider, joined_at)
			 SELECT 1, 'Blocked' || value, 'MEMBER', 'GOOGLE', 'GOOGLE', 0 FROM json_each(?1) RETURNING id`,
		)
			.bind(JSON.stringify(Array.from({ length: BLOCKS_KEPT }, (_, i) => i)))
			.all<{ id: number }>();
		const values = results.map((row) => row.id);
		await env.DB.prepare('INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) SELECT ?1, value, 1, 0 FROM json_each(?2)')
			.bind(a.id, JSON.stringify(values))
			.run();
		const refused = await block(a.id, b.id);
		expect([refused.status, refused.code, refused.body['header']]).toEqual([
			409,
			-4091488,
			{
				isSuccessful: false,
				resultCode: -4091488,
				resultMessage: 'You have blocked as many members as one member can (500). Unblock some and try again.',
			},
		]);
		expect((await blockRows()).length).toBe(BLOCKS_KEPT);
		expect((await block(a.id, values[0]!)).status).toBe(200);
		expect((await block(a.id, values[0]!, 'DELETE')).status).toBe(200);
		expect((await block(a.id, b.id)).status).toBe(200);
		expect((await blockRows()).length).toBe(BLOCKS_KEPT);
	});
});

const session = (member: DemoMember, role: SessionMember['role'] = 'MEMBER') => sessionOf(member, role);

async function notificationsOf(memberId: number): Promise<{ kind: string; actor_id: number | null }[]> {
	return (
		await env.DB.prepare('SELECT kind, actor_id FROM notifications WHERE member_id = ?1 ORDER BY id')
			.bind(memberId)
			.all<{ kind: string; actor_id: number | null }>()
	).results;
}

async function clearNotifications(...ids: number[]): Promise<void> {
	await env.DB.batch(ids.map((id) => env.DB.prepare('DELETE FROM notifications WHERE member_id = ?1').bind(id)));
}

async function comment(author: DemoMember, postId: number, content: string, parentId?: number): Promise<number> {
	const { comment: written } = await createComment(
		env.DB,
		CHANNEL,
		session(author),
		postId,
		{ content, ...(parentId ? { parentId } : {}) },
		Date.now(),
	);
	return written.commentId;
}

describe('what a blocked member no longer does to the blocker', () => {
	it('their mentions, replies, comments and likes tell the blocker nothing (no row); the same tell a member who did not block them', async () => {
		await clearBlocks();
		const [a, b, c] = members as [DemoMember, DemoMember, DemoMember];
		await clearNotifications(a.id, c.id);
		expect((await block(a.id, b.id)).status).toBe(200);
		const postOfA = await freshPost(a.id);
		const postOfC = await freshPost(c.id);
		const commentOfA = await comment(a, postOfC, 'A says hi');
		const commentOfC = await comment(c, postOfA, 'C says hi');
		await deliverNotifications();
		await clearNotifications(a.id, c.id);
		takeSentNotifications();
		// b: a comment on a's post mentioning both, a reply to each, and a like of each one's post.
		await comment(b, postOfA, `Hello @${a.nickname} and @${c.nickname}`);
		await comment(b, postOfC, 'a reply to a', commentOfA);
		await comment(b, postOfA, 'a reply to c', commentOfC);
		await likePost(env.DB, CHANNEL, session(b), postOfA, Date.now());
		await likePost(env.DB, CHANNEL, session(b), postOfC, Date.now());
		await deliverNotifications();
		expect(await notificationsOf(a.id)).toEqual([]);
		expect((await notificationsOf(c.id)).map((row) => [row.kind, row.actor_id])).toEqual(
			expect.arrayContaining([
				['MENTION', b.id],
				['REPLY', b.id],
				['LIKE', b.id],
			]),
		);
		// Unblocked, b's next mention reaches a again.
		expect((await block(a.id, b.id, 'DELETE')).status).toBe(200);
		await comment(b, postOfC, `Again @${a.nickname}`);
		await deliverNotifications();
		expect((await notificationsOf(a.id)).map((row) => [row.kind, row.actor_id])).toEqual([['MENTION', b.id]]);
	});

	it('blocking an administrator never stops their moderation notices', async () => {
		await clearBlocks();
		const [a] = members as [DemoMember];
		await clearNotifications(a.id);
		expect((await block(a.id, ADMIN)).status).toBe(200);
		const postId = await freshPost(a.id);
		await hidePost(env.DB, CHANNEL, sessionOf({ id: ADMIN, nickname: 'admin' }, 'ADMIN'), postId, { reason: 'Off topic.' });
		await deliverNotifications();
		expect((await notificationsOf(a.id)).map((row) => row.kind)).toEqual(['HIDDEN']);
	});

	it('the @ suggestions never offer a member who blocked the one asking; others still see them', async () => {
		await clearBlocks();
		const blocker = await freshMember('Zblockerx');
		const [b, c] = members as [DemoMember, DemoMember];
		const suggest = async (asker: number) =>
			(
				(await call(`${API}/members/suggest?q=zblocker`, { cookie: await signIn(asker) })).body['content'] as { members: { userId: number }[] }
			).members.map((row) => row.userId);
		expect(await suggest(b.id)).toEqual([blocker.id]);
		await blockMember(env.DB, CHANNEL, blocker.id, b.id, Date.now());
		expect(await suggest(b.id)).toEqual([]);
		expect(await suggest(c.id)).toEqual([blocker.id]);
	});
});

describe("a member's blocks in the export and at withdrawal", () => {
	it('the export lists the blocks (ids and when); withdrawal deletes the blocks by and of the member', async () => {
		await clearBlocks();
		const [a, b, c] = members as [DemoMember, DemoMember, DemoMember];
		const leaving = await freshMember('BlockLeaving');
		await env.DB.batch([
			env.DB.prepare('INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) VALUES (?1, ?2, 1, 1700000000000)').bind(
				leaving.id,
				a.id,
			),
			env.DB.prepare('INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) VALUES (?1, ?2, 1, 1700000000000)').bind(
				b.id,
				leaving.id,
			),
			env.DB.prepare('INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) VALUES (?1, ?2, 1, 1700000000000)').bind(b.id, c.id),
		]);
		const subject = { channel: { id: 1, domain: 'starfall', slug: 'global', title: 'Starfall' }, memberId: leaving.id, origin: 'http://localhost' };
		const file = JSON.parse(await new Response(exportStream(env.DB, subject, Date.now())).text()) as { blocks: unknown[] };
		expect(file.blocks).toEqual([{ userId: a.id, blockedAt: new Date(1700000000000).toISOString() }]);
		await withdrawMember(env.DB, CHANNEL, leaving.id);
		expect(await blockRows()).toEqual([{ blocker_id: b.id, blocked_id: c.id }]);
	});
});

describe('twenty fresh accounts blocking one member', () => {
	it('change nothing for that member: they are told nothing, others still hear from them, and each block wrote at most 3 rows', async () => {
		await clearBlocks();
		const [target, friend] = members as [DemoMember, DemoMember];
		await clearNotifications(target.id, friend.id);
		const before = await env.DB.prepare('SELECT unread_notifications, notification_count FROM members WHERE id = ?1').bind(target.id).first();
		for (let i = 0; i < 20; i += 1) {
			const fresh = await freshMember(`Blocker${i}x`);
			const recorded = recordingDb();
			await blockMember(recorded.db, CHANNEL, fresh.id, target.id, Date.now());
			expect(recorded.statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBeLessThanOrEqual(3);
		}
		await deliverNotifications();
		expect((await blockRows()).length).toBe(20);
		expect(await notificationsOf(target.id)).toEqual([]);
		expect(await env.DB.prepare('SELECT unread_notifications, notification_count FROM members WHERE id = ?1').bind(target.id).first()).toEqual(
			before,
		);
		// The target's mention of a member who did not block them still arrives, and their own list of blocks is empty.
		const postId = await freshPost(friend.id);
		await comment(target, postId, `Hi @${friend.nickname}`);
		await deliverNotifications();
		expect((await notificationsOf(friend.id)).map((row) => [row.kind, row.actor_id])).toEqual([['MENTION', target.id]]);
		expect((await call(`${API}/me/blocks`, { cookie: await signIn(target.id) })).body['content']).toEqual({ members: [] });
	});
});
