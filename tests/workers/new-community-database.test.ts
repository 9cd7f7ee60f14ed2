/**
 * A new community made in a content database, as `npm run channel -- apply FILE --database DB_3`
 * makes it (src/server/channels/apply-file.ts, the command's own functions): its channel id is the
 * directory's next, the directory gets its row naming DB_3, and its boards, categories, tree nodes,
 * members, posts, comments, likes and reports are written in DB_3 alone, with ids in DB_3's range
 * (src/server/databases/ids.ts). Its API reads serve, search finds its posts, applying the file
 * again changes nothing, and a creation cut short before the directory's copy is finished by
 * applying it again. Its pages in Chromium: tests/e2e/channel-apply.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { applyCommunityFile, ApplyRefused, changesAnything, planCommunityFile } from '@/server/channels/apply-file';
import type { ChannelFile } from '@/server/channels/channel-file';
import { forgetChannel } from '@/server/channels/channels';
import { idRange, type IdTable } from '@/server/databases/ids';
import type { BoundDatabases } from '@/server/databases/move';
import { boundDatabaseNames, databaseNamed } from '@/server/platform/databases';
import { call, memberApi, publicApi, signUp, type ChannelRef } from './harness';
import { newCommunity } from './community-file';

const HOME = 'DB_3';
const dbs: BoundDatabases = { directory: env.DB, names: boundDatabaseNames(env), open: (name) => databaseNamed(name, env) };
const OTHERS = dbs.names.filter((name) => name !== HOME);

/** Applies the file as the command does; the isolate's memo of the channel is dropped, as a new isolate would read it. */
async function apply(file: ChannelFile, database?: string) {
	const placed = await planCommunityFile(dbs, file, database);
	expect(placed.plan.refusals).toEqual([]);
	if (changesAnything(placed)) await applyCommunityFile(dbs, placed);
	forgetChannel(file.domain, file.slug);
	return placed;
}

const ids = async (db: D1Database, table: string, channelId: number) =>
	(await db.prepare(`SELECT id FROM ${table} WHERE channel_id = ?1 ORDER BY id`).bind(channelId).all<{ id: number }>()).results.map((row) => row.id);

/** Every id of `table` the community has in DB_3 is in DB_3's range, and it has at least one; no other database holds one. */
async function inHomeRange(table: IdTable, channelId: number): Promise<number[]> {
	const found = await ids(env.DB_3, table, channelId);
	const { lo, hi } = idRange(HOME, table);
	expect(found.length, `${table} in ${HOME}`).toBeGreaterThan(0);
	for (const id of found) expect(id, `${table} ${id} in ${HOME}'s range (${lo}, ${hi}]`).toSatisfy((value: number) => value > lo && value <= hi);
	for (const name of OTHERS) expect(await ids(databaseNamed(name, env), table, channelId), `${table} in ${name}`).toEqual([]);
	return found;
}

const paragraph = (text: string) => ({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });

describe('channel apply --database DB_3', () => {
	it('makes a community whose boards, members, posts, comments, likes and reports are written in DB_3, in its range, and served and found', async () => {
		const file = newCommunity('orchard');
		const directoryLast = (await env.DB.prepare('SELECT max(id) AS id FROM channels').first<number>('id'))!;
		const { plan } = await apply(file, HOME);
		expect(plan.creates).toBe(true);
		expect(plan.channelId).toBe(directoryLast + 1);
		const channel: ChannelRef = { id: plan.channelId, domain: 'pixelfarm', slug: 'orchard' };
		// The directory names DB_3; DB_3's own row too, from the batch that made it.
		for (const db of [env.DB, env.DB_3])
			expect(await db.prepare('SELECT database, moving_to FROM channels WHERE id = ?1').bind(channel.id).first()).toEqual({
				database: HOME,
				moving_to: null,
			});
		for (const table of ['boards', 'board_subjects', 'board_tree_nodes'] as const) await inHomeRange(table, channel.id);

		// Applying the file again, with or without --database, plans nothing; another database is refused.
		for (const database of [undefined, HOME]) expect(changesAnything(await planCommunityFile(dbs, file, database))).toBe(false);
		await expect(planCommunityFile(dbs, file, 'DB_1')).rejects.toThrow(
			new ApplyRefused('pixelfarm/orchard lives in DB_3, not DB_1; move it with `move pixelfarm/orchard --to DB_1`'),
		);
		await expect(planCommunityFile(dbs, newCommunity('nowhere'), 'DB_9')).rejects.toThrow(
			/^no database is bound as DB_9 \(bound: DB, DB_1, DB_2, DB_3\)$/,
		);

		// Members sign up (the identity in the directory, the member in DB_3), write, comment, like and report.
		const author = await signUp('orchard-author', 'Orchardist', channel);
		const reader = await signUp('orchard-reader', 'Picker', channel);
		const boards = (await call(`${publicApi(channel)}/boards`)).body['content'] as { boardId: number; name: string }[];
		const general = boards.find((board) => board.name === 'Town Square')!;
		const subjectId = (await env.DB_3.prepare('SELECT min(id) AS id FROM board_subjects WHERE board_id = ?1')
			.bind(general.boardId)
			.first<number>('id'))!;
		const written = await call(`${memberApi(channel)}/posts`, {
			method: 'POST',
			cookie: author.cookie,
			body: {
				boardId: general.boardId,
				subjectId,
				title: 'Quincewarden harvest schedule',
				content: paragraph('Pick the Zephyrine orchard rows on Sunday.'),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		expect(written.code, JSON.stringify(written.body)).toBe(0);
		const postId = (written.body['content'] as { postId: number }).postId;
		const commented = await call(`${memberApi(channel)}/posts/${postId}/comments`, {
			method: 'POST',
			cookie: reader.cookie,
			body: { content: 'Count me in' },
		});
		expect(commented.code, JSON.stringify(commented.body)).toBe(0);
		expect((await call(`${memberApi(channel)}/posts/${postId}/like`, { method: 'PUT', cookie: reader.cookie })).code).toBe(0);
		const reported = await call(`${memberApi(channel)}/reports`, {
			method: 'POST',
			cookie: reader.cookie,
			body: { targetType: 'POST', targetId: postId, reason: 'SPAM', detail: '' },
		});
		expect(reported.code, JSON.stringify(reported.body)).toBe(0);

		expect(await inHomeRange('members', channel.id)).toEqual([author.userId, reader.userId].sort((a, b) => a - b));
		expect(await inHomeRange('posts', channel.id)).toEqual([postId]);
		await inHomeRange('comments', channel.id);
		await inHomeRange('reports', channel.id);
		expect(await env.DB_3.prepare('SELECT count(*) AS n FROM post_likes WHERE post_id = ?1').bind(postId).first<number>('n')).toBe(1);
		for (const name of OTHERS)
			expect(await databaseNamed(name, env).prepare('SELECT count(*) AS n FROM post_likes WHERE post_id = ?1').bind(postId).first<number>('n')).toBe(
				0,
			);
		// The identities are the directory's, with a copy in DB_3.
		const identities = "SELECT count(*) AS n FROM identities WHERE subject IN ('orchard-author', 'orchard-reader')";
		expect([await env.DB.prepare(identities).first<number>('n'), await env.DB_3.prepare(identities).first<number>('n')]).toEqual([2, 2]);

		// Its reads serve what was written, and search finds the post (and nothing of it elsewhere).
		const listed = (await call(`${publicApi(channel)}/posts?boardId=${general.boardId}`)).body['content'] as { posts: { postId: number }[] };
		expect(listed.posts.map((post) => post.postId)).toEqual([postId]);
		const post = await call(`${publicApi(channel)}/posts/${postId}`);
		expect(post.body['content']).toMatchObject({ readable: true, title: 'Quincewarden harvest schedule' });
		expect(JSON.stringify((await call(`${publicApi(channel)}/posts/${postId}/comments`)).body)).toContain('Count me in');
		for (const [q, searchType] of [
			['quincewarden', 'TITLE'],
			['zephyrine', 'TITLE_AND_CONTENT'],
		]) {
			const found = await call(`${publicApi(channel)}/search?q=${q}&searchType=${searchType}`);
			expect(found.code).toBe(0);
			expect(
				(found.body['content'] as { posts: { postId: number }[] }).posts.map((hit) => hit.postId),
				q,
			).toEqual([postId]);
		}
		expect((await call(`${publicApi({ id: 4, domain: 'pixelfarm', slug: 'main' })}/search?q=quincewarden`)).body['content']).toMatchObject({
			totalCount: 0,
		});
	});

	it('finishes a creation cut short before the directory’s copy when the file is applied again', async () => {
		const file = newCommunity('cutshort');
		const placed = await planCommunityFile(dbs, file, HOME);
		// The command's write without its last step: the community's rows in DB_3, no row in the directory.
		const { applyChannel } = await import('@/server/channels/apply');
		await applyChannel(placed.db, placed.plan);
		expect(await env.DB.prepare("SELECT count(*) AS n FROM channels WHERE slug = 'cutshort'").first<number>('n')).toBe(0);
		expect((await call(`${publicApi({ id: placed.plan.channelId, domain: 'pixelfarm', slug: 'cutshort' })}/boards`)).status).toBe(404);

		const again = await planCommunityFile(dbs, file, HOME);
		expect([again.home, again.plan.channelId, again.plan.changes, again.listed]).toEqual([HOME, placed.plan.channelId, [], false]);
		expect(changesAnything(again)).toBe(true);
		await applyCommunityFile(dbs, again);
		forgetChannel(file.domain, file.slug);
		expect(await env.DB.prepare("SELECT database FROM channels WHERE slug = 'cutshort'").first<string>('database')).toBe(HOME);
		expect((await call(`${publicApi({ id: placed.plan.channelId, domain: 'pixelfarm', slug: 'cutshort' })}/boards`)).code).toBe(0);
		expect(changesAnything(await planCommunityFile(dbs, file))).toBe(false);
	});
});
