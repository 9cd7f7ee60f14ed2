import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createPost, deletePost, editPost } from '@/server/posts/writing';
import { listBoardPosts, listChannelPosts } from '@/server/posts/lists';
import { fenwickPath, FENWICK_DEPTH, LIST_CAPACITY } from '@/server/list-positions/list-positions';
import type { SessionMember } from '@/server/sign-in/sessions';
import { random } from '../../scripts/seed/demo.mjs';
import { recordingDb } from './harness';

/**
 * A model test of the lists without renumbering: random writes, moves, private switches, notices
 * and deletions on a small community, and after each, every page of every list is compared with
 * the posts a reader should see, in order.
 */
const CHANNEL = 7;
const BOARDS = [71, 72];
const SUBJECTS: Record<number, number[]> = { 71: [711, 712], 72: [721] };
const ADMIN: SessionMember = { userId: 7001, nickname: 'lists', role: 'ADMIN', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 };

beforeAll(async () => {
	const header = JSON.stringify({ gameBiIcon: null, topPinnedHome: 'Y', topPinnedBoard: 'Y', topPinnedTargetBoards: [], externalLinks: [] });
	const footer = JSON.stringify({ channels: [], company: '', companyCiIcons: [], copyright: '', policyItems: [], snsLinks: [] });
	await env.DB.batch([
		env.DB.prepare(
			`INSERT INTO channels (id, domain, slug, title, language, theme_type, key_color, background_color, exposure_type, header_config, footer_config, created_at)
			 VALUES (?1, 'model', 'lists', 'Lists', 'en', 'LIGHT', '#000000', '#ffffff', 'ALL', ?2, ?3, 0)`,
		).bind(CHANNEL, header, footer),
		// Board 72 is private: its posts are in its own lists, never in All Posts.
		...BOARDS.map((id) =>
			env.DB.prepare(`INSERT INTO boards (id, channel_id, name, is_public, created_at) VALUES (?1, ?2, 'Board', ?3, 0)`).bind(
				id,
				CHANNEL,
				id === 72 ? 0 : 1,
			),
		),
		...Object.entries(SUBJECTS).flatMap(([board, ids]) =>
			ids.map((id) =>
				env.DB.prepare(`INSERT INTO board_subjects (id, channel_id, board_id, name, sort_order) VALUES (?1, ?2, ?3, 'Subject', 1)`).bind(
					id,
					CHANNEL,
					Number(board),
				),
			),
		),
		env.DB.prepare(`INSERT INTO identities (id, provider, subject, created_at) VALUES (7001, 'GOOGLE', 'lists-1', 0)`),
		env.DB.prepare(
			`INSERT INTO members (id, channel_id, identity_id, nickname, role, provider, recent_provider, joined_at) VALUES (7001, ?1, 7001, 'lists', 'ADMIN', 'GOOGLE', 'GOOGLE', 0)`,
		).bind(CHANNEL),
	]);
});

interface ModelPost {
	postId: number;
	boardId: number;
	subjectId: number | null;
	isPrivate: boolean;
	isNotice: boolean;
	deleted: boolean;
	version: number;
	/** The order in which the post joined each list it is in: list key → order. */
	joined: Map<string, number>;
}

const fields = (post: Pick<ModelPost, 'boardId' | 'subjectId' | 'isPrivate' | 'isNotice'>, title: string) => ({
	...post,
	title,
	content: { type: 'doc' as const, blocks: [{ type: 'paragraph' as const, children: [{ text: title }] }] },
});

describe('lists without renumbering', () => {
	it('finds the Fenwick path of a position: at most 25 nodes up to 2^24', () => {
		expect(fenwickPath(1)).toHaveLength(FENWICK_DEPTH);
		expect(fenwickPath(6)).toEqual([6, 8, 16, ...Array.from({ length: 20 }, (_, i) => 2 ** (i + 5))]);
		expect(fenwickPath(LIST_CAPACITY)).toEqual([LIST_CAPACITY]);
		expect(() => fenwickPath(0)).toThrow(RangeError);
		expect(() => fenwickPath(LIST_CAPACITY + 1)).toThrow(RangeError);
	});

	it('shows exactly the live posts on every page of every list through 200 random changes', { timeout: 120_000 }, async () => {
		const rng = random(20261123);
		const posts: ModelPost[] = [];
		let clock = 0;
		const listKeys = (post: ModelPost): string[] => {
			if (post.deleted || post.isPrivate) return [];
			const keys: string[] = [];
			if (!post.isNotice) {
				keys.push(`board:${post.boardId}`);
				if (post.subjectId !== null) keys.push(`subject:${post.subjectId}`);
			}
			if (post.boardId !== 72) keys.push('channel');
			return keys;
		};
		// A post keeps its place in a list it returns to, and goes on top of one it is new to.
		const rejoin = (post: ModelPost, before: Set<string>, keptFrom: Map<string, number>) => {
			const now = new Set(listKeys(post));
			for (const key of [...post.joined.keys()]) if (!now.has(key) && !sameOwner(key, post)) post.joined.delete(key);
			for (const key of now) {
				if (before.has(key)) continue;
				if (keptFrom.has(key) && sameOwner(key, post)) post.joined.set(key, keptFrom.get(key)!);
				else post.joined.set(key, ++clock);
			}
		};
		// Positions belong to the post's current board and category; the channel's never change owner.
		const sameOwner = (key: string, post: ModelPost) =>
			key === 'channel' || key === `board:${post.boardId}` || (post.subjectId !== null && key === `subject:${post.subjectId}`);
		let maxWritten = 0;

		for (let step = 0; step < 200; step += 1) {
			const alive = posts.filter((post) => !post.deleted);
			const action = alive.length < 10 ? 0 : rng.int(0, 9);
			const { db, statements } = recordingDb();
			if (action <= 3) {
				const boardId = rng.pick(BOARDS);
				const post: ModelPost = {
					postId: 0,
					boardId,
					subjectId: rng.chance(0.7) ? rng.pick(SUBJECTS[boardId]!) : null,
					isPrivate: rng.chance(0.15),
					isNotice: rng.chance(0.1),
					deleted: false,
					version: 1,
					joined: new Map(),
				};
				post.postId = (await createPost(db, CHANNEL, ADMIN, { ...fields(post, `Post ${step}`), requestId: crypto.randomUUID() }, step)).postId;
				rejoin(post, new Set(), new Map());
				posts.push(post);
			} else {
				const post = rng.pick(alive);
				const before = new Set(listKeys(post));
				const kept = new Map<string, number>(post.joined);
				if (action === 9) {
					await deletePost(db, CHANNEL, ADMIN, post.postId, step);
					post.deleted = true;
				} else {
					if (action <= 5) post.isPrivate = !post.isPrivate;
					else if (action === 6) post.isNotice = !post.isNotice;
					else if (action === 7) {
						post.boardId = rng.pick(BOARDS);
						post.subjectId = rng.chance(0.5) ? rng.pick(SUBJECTS[post.boardId]!) : null;
					} else post.subjectId = rng.chance(0.5) ? rng.pick(SUBJECTS[post.boardId]!) : null;
					await editPost(db, CHANNEL, ADMIN, post.postId, { ...fields(post, `Post ${post.postId}`), version: post.version }, step);
					post.version += 1;
				}
				rejoin(post, before, kept);
			}
			maxWritten = Math.max(
				maxWritten,
				statements.reduce((sum, statement) => sum + statement.rowsWritten, 0),
			);
			// Every change while the lists are short, then every tenth and the last: the pages of six lists each time.
			if (step < 20 || step % 10 === 9) await expectListsMatch(posts, listKeys);
		}
		// Any change, at most 3 lists x 25 nodes + the post, three counters and the version.
		expect(maxWritten).toBeLessThanOrEqual(100);
	});
});

async function expectListsMatch(posts: ModelPost[], listKeys: (post: ModelPost) => string[]): Promise<void> {
	const expected = (key: string) =>
		posts
			.filter((post) => listKeys(post).includes(key))
			.sort((a, b) => b.joined.get(key)! - a.joined.get(key)!)
			.map((post) => post.postId);
	const counts = await env.DB.prepare(
		`SELECT 'board:' || id AS key, listed_count FROM boards WHERE channel_id = ?1
		 UNION ALL SELECT 'subject:' || id, listed_count FROM board_subjects WHERE channel_id = ?1
		 UNION ALL SELECT 'channel', listed_count FROM channels WHERE id = ?1`,
	)
		.bind(CHANNEL)
		.all<{ key: string; listed_count: number }>();
	const countOf = new Map(counts.results.map((row) => [row.key, row.listed_count]));
	const check = async (key: string, read: (page: number, count: number) => Promise<number[]>) => {
		const ids = expected(key);
		expect(countOf.get(key), key).toBe(ids.length);
		const pages = Math.max(1, Math.ceil(ids.length / 20));
		for (let page = 1; page <= pages + 1; page += 1) {
			expect(await read(page, ids.length), `${key} page ${page}`).toEqual(ids.slice((page - 1) * 20, page * 20));
		}
	};
	for (const boardId of BOARDS) {
		await check(`board:${boardId}`, async (page, count) =>
			(await listBoardPosts(env.DB, CHANNEL, boardId, page, count)).posts.map((post) => post.postId),
		);
		for (const subjectId of SUBJECTS[boardId]!) {
			await check(`subject:${subjectId}`, async (page, count) =>
				(await listBoardPosts(env.DB, CHANNEL, boardId, page, count, subjectId)).posts.map((post) => post.postId),
			);
		}
	}
	await check('channel', async (page, count) => (await listChannelPosts(env.DB, CHANNEL, page, count)).posts.map((post) => post.postId));
}
