/**
 * The role badge: every read that shows an author says whether they are an
 * administrator of the community, from the members row the read already joins (no extra query),
 * so that readers can tell PixelFarmTeam from a look-alike.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, publicApi, recordingDb, type ChannelRef } from './harness';
import { getPostWithComments } from '@/server/loaders/post-page';
import { listChannelPosts } from '@/server/posts/lists';
import { getProfile, listMemberPosts } from '@/server/members/profiles';
import { listComments } from '@/server/comments/pages';
import { GUEST } from '@/server/visibility/visibility';
import { setMemberRole } from '@/server/members/roles';

const FARM: ChannelRef = { id: 4, domain: 'pixelfarm', slug: 'main' };
const PUBLIC = publicApi(FARM);
const ADMIN = 4001;
const MEMBER = 4004;

interface Author {
	userId: number;
	nickname: string | null;
	withdrawn: boolean;
	admin: boolean;
}

/** A readable post by `memberId` with a comment, and one of their comments (on any readable post). */
async function postAndCommentOf(memberId: number) {
	const post = await env.DB.prepare(
		`SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.channel_id = 4 AND p.member_id = ?1 AND b.is_public = 1 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0 ORDER BY p.id LIMIT 1`,
	)
		.bind(memberId)
		.first<number>('id');
	const comment = await env.DB.prepare(
		`SELECT c.post_id FROM comments c JOIN posts p ON p.id = c.post_id JOIN boards b ON b.id = p.board_id
		 WHERE c.channel_id = 4 AND c.member_id = ?1 AND c.parent_id IS NULL AND c.deleted_at IS NULL AND c.hidden_by_admin = 0 AND b.is_public = 1 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0
		 ORDER BY c.id LIMIT 1`,
	)
		.bind(memberId)
		.first<number>('post_id');
	if (!post || !comment) throw new Error(`member ${memberId} has no readable post or comment in the demo`);
	return { post, commentPost: comment };
}

describe('role badge data', () => {
	it('marks an administrator as admin in the post, list, comment and profile APIs, and a member not', async () => {
		for (const [memberId, admin] of [
			[ADMIN, true],
			[MEMBER, false],
		] as const) {
			const { post, commentPost } = await postAndCommentOf(memberId);
			const detail = await call(`${PUBLIC}/posts/${post}`);
			expect((detail.body['content'] as { author: Author }).author).toEqual({
				userId: memberId,
				nickname: expect.any(String),
				withdrawn: false,
				admin,
			});
			const comments = await call(`${PUBLIC}/posts/${commentPost}/comments`);
			const items = (comments.body['content'] as { comments: { readable: boolean; author?: Author }[] }).comments;
			expect(items.find((item) => item.author?.userId === memberId)?.author).toMatchObject({ admin });
			const profile = await call(`${PUBLIC}/users/${memberId}`);
			expect(profile.body['content']).toMatchObject({ userId: memberId, admin });
			const posts = await call(`${PUBLIC}/users/${memberId}/posts`);
			const listed = (posts.body['content'] as { posts: { author: Author }[] }).posts;
			expect(listed.length).toBeGreaterThan(0);
			expect(listed.every((row) => row.author.admin === admin)).toBe(true);
		}
		const all = await call(`${PUBLIC}/posts`);
		const authors = (all.body['content'] as { posts: { author: Author }[]; notices: { author: Author }[] }).posts.map((row) => row.author);
		expect(authors.filter((author) => author.admin).every((author) => author.userId === ADMIN)).toBe(true);
	});

	it('shows no badge for a withdrawn member, whatever their role was', async () => {
		const withdrawn = await env.DB.prepare('SELECT id FROM members WHERE channel_id = 4 AND withdrawn_at IS NOT NULL LIMIT 1').first<number>('id');
		await env.DB.prepare("UPDATE members SET role = 'ADMIN' WHERE id = ?1").bind(withdrawn).run();
		expect(await getProfile(env.DB, 4, withdrawn!)).toMatchObject({ withdrawn: true, admin: false });
		await env.DB.prepare("UPDATE members SET role = 'MEMBER' WHERE id = ?1").bind(withdrawn).run();
	});

	it('reads the role in the queries that already join the author: no extra D1 statement', async () => {
		const { post, commentPost } = await postAndCommentOf(ADMIN);
		const reads: [string, (db: Db) => Promise<unknown>, number][] = [
			['a post with its comments', (db) => getPostWithComments(db, 4, post, GUEST), 1],
			['a page of comments', (db) => listComments(db, 4, commentPost, GUEST, null), 1],
			['All Posts', (db) => listChannelPosts(db, 4, 1, 10_000), 1],
			["a profile's posts", async (db) => listMemberPosts(db, 4, await getProfile(env.DB, 4, ADMIN), 1), 1],
		];
		for (const [name, read, statements] of reads) {
			const recording = recordingDb();
			await read(recording.db);
			expect({ name, statements: recording.statements.length }).toEqual({ name, statements });
		}
	});

	it('a change of role turns the community cold, so no cached page keeps a stale badge', async () => {
		const version = async () => env.DB.prepare('SELECT content_version AS v FROM channels WHERE id = 4').first<number>('v');
		const before = (await version())!;
		expect(await setMemberRole(env.DB, 4, MEMBER, 'ADMIN')).toBe(true);
		expect(await version()).toBe(before + 1);
		expect(await getProfile(env.DB, 4, MEMBER)).toMatchObject({ admin: true });
		expect(await setMemberRole(env.DB, 4, MEMBER, 'MEMBER')).toBe(true);
		expect(await version()).toBe(before + 2);
		expect(await getProfile(env.DB, 4, MEMBER)).toMatchObject({ admin: false });
	});
});
