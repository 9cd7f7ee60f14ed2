/**
 * Writes and a move (src/server/databases/write-guard.ts, docs/reference/databases.md#writes-during-a-move):
 * a write whose channel's row was read before the move's mark, but whose statements reach D1 after
 * it, is refused (CommunityMoving) and writes nothing, through the API and through the services'
 * functions; so is one in a database the community no longer lives in. No clock is waited on: the
 * isolate's copy of the channel's row is read, then the mark is made, then the write is sent, while
 * the copy is still fresh (the clock stands still). And the hourly cron, run between a move's copy and
 * its verification, leaves the moving community's rows as the copy read them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { call, freshPost, GLOBAL, memberApi, memberOf, publicApi, signIn, type Answer, type ChannelRef } from './harness';
import { moveCommunity, type MoveStep } from '@/server/databases/move';
import { databaseNamed } from '@/server/platform/databases';
import { runScheduled } from '@functions/shell/scheduled';
import { communityWrites, databaseWrites, MoveUnderWay } from '@/server/databases/write-guard';
import { removeUnattachedUploads } from '@/server/uploads/uploads';
import { communityTables, tableChecksum } from '@/server/databases/community-rows';
import { findCommunity } from '@/server/channels/community';
import { createComment } from '@/server/comments/create';
import { likePost } from '@/server/likes/likes';
import { createDraft } from '@/server/drafts/drafts';
import { CommunityMoving } from '@/lib/result-codes';

const MEMBER = memberApi();
const WRITER = 1007;

/** Every row of the global community, table by table (their number and checksum). */
async function communityRows(): Promise<Record<string, unknown>> {
	const found: Record<string, unknown> = {};
	for (const table of await communityTables(env.DB)) found[table.name] = await tableChecksum(env.DB, table, GLOBAL.id);
	return found;
}

/** What the move's first step does (move.ts): the community's row says where it goes. */
const mark = (to: string | null) => env.DB.prepare('UPDATE channels SET moving_to = ?2 WHERE id = ?1').bind(GLOBAL.id, to).run();

let turn = 0;
const send = (method: string, path: string, cookie: string, body?: unknown): Promise<Answer> =>
	call(`${MEMBER}${path}`, {
		method,
		cookie,
		headers: { 'cf-connecting-ip': `move-writes:${(turn += 1)}` },
		...(body === undefined ? {} : { body }),
	});

beforeEach(() => {
	// The isolate's copy of the channel's row stays fresh for the whole test: nothing reads it again.
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(Date.now());
});

afterEach(async () => {
	vi.useRealTimers();
	await mark(null);
	await env.DB.prepare("UPDATE channels SET database = 'DB' WHERE id = ?1").bind(GLOBAL.id).run();
});

describe('a write whose channel row was read before the move’s mark', () => {
	it('is refused by the API with CommunityMoving and writes nothing, on every kind of write', async () => {
		const postId = await freshPost(1008);
		const cookie = await signIn(WRITER);
		// The isolate reads the channel's row (not moving) and keeps it.
		expect((await call(`${publicApi()}/posts/${postId}`)).status).toBe(200);
		await mark('DB_1');
		const before = await communityRows();
		const writes: [string, string, unknown?][] = [
			['POST', `/posts/${postId}/comments`, { content: 'Sent as the move began' }],
			['PUT', `/posts/${postId}/like`],
			['PUT', `/posts/${postId}/save`],
			[
				'POST',
				'/posts',
				{
					boardId: 12,
					subjectId: 121,
					title: 'Sent as the move began',
					content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'During the move' }] }] },
					isPrivate: false,
					isNotice: false,
					requestId: crypto.randomUUID(),
				},
			],
			[
				'POST',
				'/drafts',
				{ boardId: 12, subjectId: null, title: 'A draft', content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'x' }] }] } },
			],
			['POST', '/reports', { targetType: 'POST', targetId: postId, reason: 'SPAM', detail: '' }],
			['PUT', '/me/nickname', { nickname: 'MovingWriter' }],
			['PUT', `/me/blocks/1008`],
			['PUT', `/watches/posts/${postId}`],
		];
		for (const [method, path, body] of writes) {
			const answer = await send(method, path, cookie, body);
			expect([method, path, answer.status, answer.code], JSON.stringify(answer.body)).toEqual([method, path, 503, CommunityMoving.code]);
			expect(answer.headers.get('Retry-After')).toBe('30');
		}
		expect(await communityRows()).toEqual(before);
		// Once the move is over (rolled back here), the same writes go through.
		await mark(null);
		expect((await send('POST', `/posts/${postId}/comments`, cookie, { content: 'After the move' })).code).toBe(0);
	});

	it('is refused in the services’ functions too, as is one in a database the community has left', async () => {
		const postId = await freshPost(1008);
		const community = (await findCommunity(GLOBAL.domain, GLOBAL.slug))!;
		expect(community.channel.movingTo).toBeNull();
		const db = communityWrites(community.db, community.channel);
		const before = await communityRows();
		await mark('DB_2');
		const now = Date.now();
		await expect(createComment(db, GLOBAL.id, memberOf(WRITER), postId, { content: 'Late' }, now)).rejects.toMatchObject({
			codeName: 'CommunityMoving',
		});
		await expect(likePost(db, GLOBAL.id, memberOf(WRITER), postId, now)).rejects.toMatchObject({ codeName: 'CommunityMoving' });
		await expect(
			createDraft(
				db,
				GLOBAL.id,
				{ memberId: WRITER, admin: false },
				{ boardId: 12, subjectId: null, title: 'Late', content: { type: 'doc', blocks: [] } },
			),
		).rejects.toMatchObject({ codeName: 'CommunityMoving' });
		// After the switch: the row left here names the new database, and the write is refused as well.
		await mark(null);
		await env.DB.prepare("UPDATE channels SET database = 'DB_2' WHERE id = ?1").bind(GLOBAL.id).run();
		await expect(createComment(db, GLOBAL.id, memberOf(WRITER), postId, { content: 'Later' }, now)).rejects.toMatchObject({
			codeName: 'CommunityMoving',
		});
		await env.DB.prepare("UPDATE channels SET database = 'DB' WHERE id = ?1").bind(GLOBAL.id).run();
		expect(await communityRows()).toEqual(before);
		// Where it lives, not moving: written.
		await expect(createComment(db, GLOBAL.id, memberOf(WRITER), postId, { content: 'Written' }, now)).resolves.toMatchObject({ commentCount: 1 });
	});
});

// A move of a demo community copies, verifies and removes some 7,000 rows: seconds on a busy machine.
describe('the hourly cron during a move', { timeout: 300_000 }, () => {
	const TW: ChannelRef = { id: 5, domain: 'starfall', slug: 'tw' };
	const HOURLY = '17 * * * *';
	const old = Date.UTC(2026, 0, 1);
	const scheduledTime = old + 3 * 86_400_000;
	/** A run of the hourly cron, in every database, or in those of `only` (a run that has reached no other yet). */
	const runCron = async (only?: string[]) => {
		const ctx = createExecutionContext();
		const others = only
			? Object.fromEntries(['DB', 'DB_1', 'DB_2', 'DB_3'].filter((name) => !only.includes(name)).map((name) => [name, undefined]))
			: {};
		await runScheduled(createScheduledController({ scheduledTime, cron: HOURLY }), { ...env, ...others } as Env, ctx);
		await waitOnExecutionContext(ctx);
	};
	const settle = async () => {
		vi.setSystemTime(Date.now() + 5_000);
	};

	it('leaves a database a move copies from or into for its next run, and the move verifies; the run after it does the work', async () => {
		// What the cron would write in the moving community: an upload nothing shows, a temporary ban that ended.
		await env.DB.prepare(
			"INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, width, height, created_at) VALUES (5, 5001, 'uploads/tw-cron.png', 'image/png', 10, 1, 1, ?1)",
		)
			.bind(old)
			.run();
		await env.UPLOADS.put('uploads/tw-cron.png', new Uint8Array([1]));
		const ban = await env.DB.prepare(
			"INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (5, 5001, 'TEMPORARY', ?1, '', ?2) RETURNING id",
		)
			.bind(scheduledTime - 3_600_000, old)
			.first<number>('id');
		const steps: MoveStep[] = [];
		const dbs = { directory: env.DB, names: ['DB', 'DB_1', 'DB_2', 'DB_3'], open: (name: string) => databaseNamed(name, env) };
		const outcome = await moveCommunity(dbs, TW.domain, TW.slug, 'DB_1', {
			settle,
			onStep: async (step) => {
				steps.push(step);
				// Between the copy and its verification, a run of the cron reaches the source (the
				// destination comes later in its turn).
				if (step === 'copied') await runCron(['DB']);
			},
		});
		expect(outcome).toMatchObject({ kind: 'moved', from: 'DB', to: 'DB_1' });
		expect(steps).toEqual(['writes refused', 'destination cleared', 'copied', 'verified', 'switched', 'removed']);
		// The object is where the row that names it is, and the ban's end not yet told.
		expect(await env.DB_1.prepare("SELECT count(*) AS n FROM uploads WHERE r2_key = 'uploads/tw-cron.png'").first<number>('n')).toBe(1);
		expect(await env.UPLOADS.head('uploads/tw-cron.png')).not.toBeNull();
		const told = () => env.DB_1.prepare('SELECT count(*) AS n FROM notifications WHERE dedupe_key = ?1').bind(`ban-end:${ban}`).first<number>('n');
		expect(await told()).toBe(0);
		// The next run, in the community's new database.
		await runCron();
		expect(await env.DB_1.prepare("SELECT count(*) AS n FROM uploads WHERE r2_key = 'uploads/tw-cron.png'").first<number>('n')).toBe(0);
		expect(await env.UPLOADS.head('uploads/tw-cron.png')).toBeNull();
		expect(await told()).toBe(1);
	});

	it('refuses a step’s write when the move began after the run’s check (its guard), leaving the rows as they were', async () => {
		const id = await env.DB.prepare(
			"INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, width, height, created_at) VALUES (1, 1007, 'uploads/global-cron.png', 'image/png', 10, 1, 1, ?1) RETURNING id",
		)
			.bind(old)
			.first<number>('id');
		const db = databaseWrites(env.DB, 'DB');
		await mark('DB_3');
		await expect(removeUnattachedUploads(db, env.UPLOADS, scheduledTime)).rejects.toBeInstanceOf(MoveUnderWay);
		expect(await env.DB.prepare('SELECT count(*) AS n FROM uploads WHERE id = ?1').bind(id).first<number>('n')).toBe(1);
		await mark(null);
		expect((await removeUnattachedUploads(db, env.UPLOADS, scheduledTime)).removed).toBeGreaterThan(0);
		expect(await env.DB.prepare('SELECT count(*) AS n FROM uploads WHERE id = ?1').bind(id).first<number>('n')).toBe(0);
	});
});
