/**
 * Every list the product shows is served by an index: the services' own SQL is recorded as they
 * run (tests/workers/harness.ts) and each statement's query plan is checked for full table scans
 * and temporary sort trees.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { memberOf, postWhere, queryPlan, recordingDb, signIn, TEST_SECRET } from './harness';
import { listBoardPosts, listChannelPosts } from '@/server/posts/lists';
import { popularPostsRead } from '@/server/posts/popular';
import { run } from '@/server/platform/reads';
import { getPostWithComments } from '@/server/loaders/post-page';
import { listComments } from '@/server/comments/pages';
import { GUEST } from '@/server/visibility/visibility';
import { getProfile, listMemberPosts } from '@/server/members/profiles';
import { listMyComments, listMyLikes, listMyPosts } from '@/server/members/activity';
import { boardTree, listBoards, listSubjects } from '@/server/boards/boards';
import { findChannel, listProviders } from '@/server/channels/channels';
import { resolveSession, sessionStatement } from '@/server/sign-in/sessions';
import { getDraft, listDrafts } from '@/server/drafts/drafts';
import { nicknameConflict, nicknameForms } from '@/server/accounts/nickname';
import { savedPostsRead, savePost } from '@/server/saved/saved';
import { blockedIdsRead, blockMember, listBlocks, listStateSql } from '@/server/members/blocks';
import { memberPostStateRead, memberPostStateSql } from '@/server/posts/member-state';
import { hashToken } from '@/server/platform/tokens';
import { listRevisions } from '@/server/revisions/revisions';

/** A reply of the demo (global community), and the post it is on. */
const aReply = async () =>
	(await env.DB.prepare('SELECT id FROM comments WHERE channel_id = 1 AND parent_id IS NOT NULL ORDER BY id LIMIT 1').first<{ id: number }>())!.id;
const postWithReplies = async () =>
	(await env.DB.prepare('SELECT post_id FROM comments WHERE id = ?1')
		.bind(await aReply())
		.first<{ post_id: number }>())!.post_id;

/** The reads of every screen, each run through the recording D1. */
const READS: Record<string, (db: Db) => Promise<unknown>> = {
	'a board page with its notices': (db) => listBoardPosts(db, 1, 12, 1, 30),
	'a category page': (db) => listBoardPosts(db, 1, 12, 1, 10, 121),
	'All Posts': (db) => listChannelPosts(db, 1, 3, 200),
	'All Posts, page 1': (db) => listChannelPosts(db, 1, 1, 200),
	'a deep board page': (db) => listBoardPosts(db, 1, 12, 2, 30),
	'a deep category page': (db) => listBoardPosts(db, 1, 12, 2, 30, 121),
	"a board's Popular page": (db) => run(db, popularPostsRead(db, 1, { kind: 'board', boardId: 12 }, null)),
	"All Posts' Popular page after a post": async (db) => run(db, popularPostsRead(db, 1, { kind: 'all' }, await postWhere('channel_seq IS NOT NULL'))),
	'a post with its comments': (db) => getPostWithComments(db, 1, 10, GUEST),
	"a post with the page of its comments from a comment's thread": async (db) =>
		getPostWithComments(db, 1, await postWithReplies(), GUEST, { from: await aReply() }),
	'a page of comments after an item': async (db) => listComments(db, 1, await postWithReplies(), GUEST, await aReply()),
	"a member's profile and posts": async (db) => listMemberPosts(db, 1, await getProfile(db, 1, 1002), 1),
	"My Page's posts": (db) => listMyPosts(db, 1, 1002, 1),
	"My Page's comments": (db) => listMyComments(db, 1, 1002, 1),
	"My Page's likes": (db) => listMyLikes(db, 1, 1002, 1),
	"My Page's saved posts, a later page": (db) => run(db, savedPostsRead(db, 1, memberOf(1002), { at: Date.now(), id: 500 })),
	'a save, with its limit': (db) => savePost(db, 1, memberOf(1002), 10, Date.now()),
	'the channel': (db) => findChannel(db, 'starfall', 'global'),
	'the layout': (db) => Promise.all([listBoards(db, 1), boardTree(db, 1), listSubjects(db, 1), listProviders(db, 1)]),
	"a member's drafts": (db) => listDrafts(db, 1, 1002, 1),
	"one of a member's drafts": (db) => getDraft(db, 1, 1002, 101),
	"a nickname's key and look-alike check": (db) => nicknameConflict(db, 4, nicknameForms('PixeIFarmTeam'), null),
	"a post's earlier versions": (db) => listRevisions(db, 1, GUEST, 10, null),
	"a comment's earlier versions": async (db) => listRevisions(db, 1, GUEST, await postWithReplies(), await aReply()),
	"a member's post page state": async (db) => run(db, memberPostStateRead(db, 1, await hashToken((await signIn(1002)).split('=')[1] ?? ''), 1)),
	"a member's session": async (db) => resolveSession(db, 1, (await signIn(1002)).split('=')[1] ?? null, TEST_SECRET),
	"a member's session with the state of a post and of a board in its row (member pages)": async (db) => {
		const tokenHash = await hashToken((await signIn(1002)).split('=')[1] ?? '');
		const post = { columns: `${memberPostStateSql('s.member_id', '?2', '?4')} AS member_post`, params: [1] };
		const board = { columns: listStateSql('s.member_id', '?4'), params: [12] };
		return Promise.all([post, board].map((extra) => sessionStatement(db, 1, tokenHash, Date.now(), extra).all()));
	},
	"a member's blocks, a block and the pages' reads of them": async (db) => {
		await blockMember(db, 1, 1002, 1003, Date.now());
		const tokenHash = await hashToken((await signIn(1002)).split('=')[1] ?? '');
		const listState = { columns: listStateSql('s.member_id', '?4'), params: [12] };
		return Promise.all([
			listBlocks(db, 1, 1002),
			run(db, blockedIdsRead(db, 1, { tokenHash })),
			sessionStatement(db, 1, tokenHash, Date.now(), listState).all(),
		]);
	},
};

describe('every read the product makes is served by an index', () => {
	it('creates every table of the data model', async () => {
		const tables = await env.DB.prepare(
			"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' ORDER BY name",
		).all<{ name: string }>();
		expect(tables.results.map((row) => row.name)).toEqual(
			expect.arrayContaining([
				'bans',
				'board_subjects',
				'board_tree_nodes',
				'boards',
				'channel_providers',
				'channels',
				'comments',
				'drafts',
				'identities',
				'members',
				'nickname_claims',
				'post_likes',
				'saved_posts',
				'posts',
				'reports',
				'sessions',
				'uploads',
			]),
		);
	});

	it.each(Object.entries(READS))('%s', async (_name, read) => {
		const { db, statements } = recordingDb();
		await read(db);
		expect(statements.length).toBeGreaterThan(0);
		for (const statement of statements) {
			const plan = await queryPlan(statement);
			// A full scan shows as "SCAN <table>" without an index (a subquery's own rows, a co-routine
			// or a materialised view, may be scanned); a temporary b-tree would mean sorting.
			const subqueries = new Set(plan.flatMap((detail) => /^(?:CO-ROUTINE|MATERIALIZE) (\w+)$/.exec(detail)?.slice(1) ?? []));
			// A recursive CTE's step reads its own previous row (the lists' Fenwick descent).
			for (const [, table] of statement.sql.matchAll(/WITH RECURSIVE (\w+)/g)) {
				for (const [, alias] of statement.sql.matchAll(new RegExp(`FROM ${table} (\\w+)`, 'g'))) subqueries.add(alias!);
			}
			const problems = plan.filter((detail) => {
				const scanned = /^SCAN (\w+)$/.exec(detail)?.[1];
				return (scanned !== undefined && !subqueries.has(scanned)) || detail.includes('TEMP B-TREE');
			});
			expect({ sql: statement.sql, problems }).toEqual({ sql: statement.sql, problems: [] });
		}
	});
});
