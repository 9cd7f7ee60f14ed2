/**
 * Communities from their files (src/server/channels/apply.ts): the demo files match the
 * seeded communities exactly; a new file makes a community whose API and lists work (its pages:
 * tests/e2e/channel-apply.spec.ts); applying it
 * again writes nothing; an update keeps ids (a renamed category keeps its posts); a board made
 * private leaves "All Posts" and search and comes back when made public; removing a board with
 * posts is refused with nothing changed.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { applyChannel, planChannel } from '@/server/channels/apply';
import { forgetChannel } from '@/server/channels/channels';
import { ChannelFileSchema, type ChannelFile } from '@/server/channels/channel-file';
import { searchPosts } from '@/server/search/search';
import farm from '../../channels/pixelfarm-main.json';
import global from '../../channels/starfall-global.json';
import kr from '../../channels/starfall-kr.json';
import jp from '../../channels/starfall-jp.json';
import tw from '../../channels/starfall-tw.json';
import { call, memberApi, ORIGIN, recordingDb, signUp } from './harness';
import { newCommunity } from './community-file';

const copy = (file: unknown): ChannelFile => ChannelFileSchema.parse(structuredClone(file));

/**
 * Applies a community file as `npm run channel -- apply` does, from outside the Worker: its readers
 * see the change once their isolate reads the channel row again (within two seconds,
 * src/server/channels/channels.ts). The tests read right after, so the isolate they share drops its
 * copy at once: with a stale row (its list count from before), a page of All Posts was read at the
 * old offsets whenever the previous read fell within the memo's second on a busy machine.
 */
async function apply(file: ChannelFile) {
	const plan = await planChannel(env.DB, file);
	if (plan.refusals.length === 0) await applyChannel(env.DB, plan);
	forgetChannel(file.domain, file.slug);
	return plan;
}

describe('channel files', () => {
	it('the demo files are the seeded communities: planning them changes nothing', async () => {
		for (const file of [global, kr, jp, tw, farm]) {
			const plan = await planChannel(env.DB, copy(file));
			expect([file.slug, plan.changes, plan.refusals]).toEqual([file.slug, [], []]);
		}
	});

	it('a new file makes a working community, and applying it again writes nothing', async () => {
		const file = newCommunity('orchard');
		const plan = await apply(file);
		expect(plan.creates).toBe(true);
		expect(plan.changes[0]).toBe(`+ community pixelfarm/orchard (id ${plan.channelId})`);
		const tree = await call(`${ORIGIN}/public/v1/pixelfarm/orchard/boards/tree`);
		expect(tree.code).toBe(0);
		const nodes = tree.body['content'] as { text: string; data: { type: string; boardId: number | null } }[];
		expect(nodes.map((node) => node.data.type)).toEqual(
			file.tree.flatMap((node) => [node.type, ...(node.type === 'CATEGORY' ? node.children.map((child) => child.type) : [])]),
		);
		const boards = (await call(`${ORIGIN}/public/v1/pixelfarm/orchard/boards`)).body['content'] as { boardId: number; name: string }[];
		expect(boards.map((board) => board.name)).toEqual(file.boards.map((board) => board.name));
		const general = boards.find((board) => board.name === file.boards[1]!.name)!;
		expect((await call(`${ORIGIN}/public/v1/pixelfarm/orchard/posts?boardId=${general.boardId}`)).code).toBe(0);
		const layout = await call(`${ORIGIN}/public/v1/pixelfarm/orchard/layouts/header`);
		expect(layout.body['content']).toMatchObject({ topPinnedTargetBoards: expect.arrayContaining([general.boardId]) });

		const { db, statements } = recordingDb();
		const again = await planChannel(db, file);
		expect(again.changes).toEqual([]);
		await applyChannel(db, again);
		expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBe(0);
	});

	it("stores a community's limits for new members, which its API then holds a new member to (docs/reference/spam-defence.md)", async () => {
		const file = newCommunity('limits');
		await apply(file);
		const stored = () =>
			env.DB.prepare("SELECT new_member_limits FROM channels WHERE domain = 'pixelfarm' AND slug = 'limits'").first<string>('new_member_limits');
		expect(JSON.parse((await stored())!)).toEqual({ periodHours: 24, maxLinks: 2, maxImages: 1, maxMentions: 2, maxPosts: 3, maxComments: 20 });
		file.newMembers = { ...file.newMembers, periodHours: 72, maxLinks: 0 };
		const plan = await apply(file);
		expect(plan.changes).toEqual([expect.stringMatching(/^~ new_member_limits: /)]);
		expect(JSON.parse((await stored())!)).toMatchObject({ periodHours: 72, maxLinks: 0 });
		expect((await planChannel(env.DB, file)).changes).toEqual([]);
		const channel = { id: plan.channelId, domain: 'pixelfarm', slug: 'limits' };
		const { cookie } = await signUp('limits-newcomer', 'LimitedOne', channel);
		const boards = (await call(`${ORIGIN}/public/v1/pixelfarm/limits/boards`)).body['content'] as { boardId: number; name: string }[];
		const boardId = boards.find((board) => board.name === file.boards[1]!.name)!.boardId;
		const body = (text: string) => ({
			boardId,
			subjectId: null,
			title: 'Hi',
			content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] },
			isPrivate: false,
			isNotice: false,
			requestId: crypto.randomUUID(),
		});
		const refused = await call(`${memberApi(channel)}/posts`, { method: 'POST', cookie, body: body('my shop https://shop.example/') });
		expect([refused.code, refused.body['limit']]).toEqual([-4031462, 0]);
		expect((await call(`${memberApi(channel)}/posts`, { method: 'POST', cookie, body: body('hello, no links') })).code).toBe(0);
	});

	it('an update keeps ids: a renamed category keeps its id and its posts; a removed one in use is disabled', async () => {
		const file = copy(global);
		const general = file.boards.find((board) => board.key === 'general')!;
		const [first, second] = general.categories;
		const before = await env.DB.prepare('SELECT count(*) AS n FROM posts WHERE subject_id = ?1').bind(first!.id).first<number>('n');
		first!.name = 'Talk';
		general.categories = [first!, ...general.categories.slice(2)];
		const plan = await apply(file);
		expect(plan.refusals).toEqual([]);
		expect(plan.changes).toContain(`~ category "Discussion" (key category-121, id 121) on board general: name "Discussion" → "Talk"`);
		expect(plan.changes).toContain(
			`~ category "${second!.name}" (key category-${second!.id}, id ${second!.id}) on board general: disabled (posts or drafts use it)`,
		);
		expect(await env.DB.prepare('SELECT name FROM board_subjects WHERE id = 121').first<string>('name')).toBe('Talk');
		expect(await env.DB.prepare('SELECT count(*) AS n FROM posts WHERE subject_id = 121').first<number>('n')).toBe(before);
		expect(await env.DB.prepare('SELECT enabled FROM board_subjects WHERE id = ?1').bind(second!.id).first<number>('enabled')).toBe(0);
		// Back as it was.
		expect((await apply(copy(global))).refusals).toEqual([]);
		expect((await planChannel(env.DB, copy(global))).changes).toEqual([]);
	});

	it('a board made private leaves All Posts and search, and returns when made public', async () => {
		const file = copy(kr);
		const guides = file.boards.find((board) => board.key === 'guides')!;
		const post = (await env.DB.prepare('SELECT id, title FROM posts WHERE board_id = ?1 AND channel_seq IS NOT NULL ORDER BY id DESC LIMIT 1')
			.bind(guides.id)
			.first<{ id: number; title: string }>())!;
		const listed = async () => {
			const ids: number[] = [];
			for (let page = 1; page <= 20; page += 1) {
				const content = (await call(`${ORIGIN}/public/v1/starfall/kr/posts?page=${page}`)).body['content'] as {
					posts: { postId: number }[];
					totalPages: number;
				};
				ids.push(...content.posts.map((row) => row.postId));
				if (page >= content.totalPages) break;
			}
			return ids;
		};
		const found = async () =>
			(await searchPosts(env.DB, 2, Array.from(post.title).slice(0, 4).join(''), 'TITLE', 1)).posts.some((row) => row.postId === post.id);
		const count = async () => env.DB.prepare('SELECT listed_count FROM channels WHERE id = 2').first<number>('listed_count');
		const before = { count: await count(), listed: await listed() };
		expect(before.listed).toContain(post.id);
		expect(await found()).toBe(true);

		guides.public = false;
		const plan = await apply(file);
		expect(plan.changes).toContain('~ board guides: is_public 1 → 0');
		expect(await listed()).not.toContain(post.id);
		expect(await found()).toBe(false);
		const moved = await env.DB.prepare(
			'SELECT count(*) AS n FROM posts WHERE board_id = ?1 AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0',
		)
			.bind(guides.id)
			.first<number>('n');
		expect(await count()).toBe(before.count! - moved!);
		expect(await env.DB.prepare('SELECT public_flag FROM board_tree_nodes WHERE board_id = ?1').bind(guides.id).first<number>('public_flag')).toBe(0);

		await apply(copy(kr));
		expect(await listed()).toEqual(before.listed);
		expect(await found()).toBe(true);
		expect(await count()).toBe(before.count);
	});

	it('adopts a board made before keys by the id the file gives it', async () => {
		await env.DB.prepare("UPDATE boards SET key = 'board-31' WHERE id = 31").run();
		const plan = await apply(copy(jp));
		expect(plan.changes).toEqual(['~ board notice: key "board-31" → "notice"']);
		expect((await planChannel(env.DB, copy(jp))).changes).toEqual([]);
	});

	it('refuses to remove a board that has posts, and changes nothing', async () => {
		const file = copy(jp);
		file.boards = file.boards.filter((board) => board.key !== 'videos');
		file.headerConfig.topPinnedTargetBoards = file.headerConfig.topPinnedTargetBoards.filter((key) => key !== 'videos');
		file.tree = file.tree.map((node) =>
			node.type === 'CATEGORY' ? { ...node, children: node.children.filter((child) => child.type !== 'BOARD' || child.board !== 'videos') } : node,
		);
		const plan = await planChannel(env.DB, file);
		expect(plan.refusals).toEqual([expect.stringContaining('board videos')]);
		await expect(applyChannel(env.DB, plan)).rejects.toThrow(/refusals/);
		expect((await planChannel(env.DB, copy(jp))).changes).toEqual([]);
	});

	it('adds and removes an empty board, and refuses a fixed id another row has', async () => {
		const file = copy(tw);
		file.boards.push({
			key: 'events',
			name: '活動',
			description: '',
			public: true,
			noticeOnly: false,
			categories: [{ name: '報名', enabled: true }],
			template: null,
		});
		file.tree.push({ type: 'BOARD', board: 'events' });
		const added = await apply(file);
		expect(added.changes).toEqual([
			'+ board tree: node board events at the top',
			'+ board events "活動"',
			expect.stringMatching(/^\+ category "報名" \(key category-(\d+), id \1\) on board events$/),
		]);
		const events = await env.DB.prepare("SELECT id FROM boards WHERE channel_id = 5 AND key = 'events'").first<number>('id');
		expect((await call(`${ORIGIN}/public/v1/starfall/tw/boards/${events}`)).code).toBe(0);
		const removed = await apply(copy(tw));
		expect(removed.changes).toContain('- board events "活動"');
		expect(await env.DB.prepare("SELECT count(*) AS n FROM boards WHERE key = 'events'").first<number>('n')).toBe(0);

		const clash = newCommunity('clash');
		clash.boards[0]!.id = 11;
		const plan = await planChannel(env.DB, clash);
		expect(plan.refusals).toEqual(['boards "notice": the id 11 belongs to another board']);
	});

	it("refuses a fixed id that is another community's, for a community that exists and for a new one, and changes nothing", async () => {
		// A copied file: the Japanese community's, still with the global one's id.
		const copied = copy(jp);
		copied.id = 1;
		const plan = await planChannel(env.DB, copied);
		expect(plan.refusals).toEqual(["id: starfall/jp has the id 3, not 1 (1 is starfall/global's id); give its own id or none"]);
		await expect(applyChannel(env.DB, plan)).rejects.toThrow(/refusals/);
		const fresh = newCommunity('copied');
		fresh.id = 4;
		expect((await planChannel(env.DB, fresh)).refusals).toEqual(["id: 4 is pixelfarm/main's id; give a free id or none"]);
		expect(await env.DB.prepare("SELECT count(*) AS n FROM channels WHERE slug = 'copied'").first<number>('n')).toBe(0);
		expect((await planChannel(env.DB, copy(jp))).changes).toEqual([]);
	});

	it('names a category by a key the plan prints: a rename by key keeps the id and the posts', async () => {
		const file = newCommunity('keyed');
		const created = await apply(file);
		const line = created.changes.find((change) => change.startsWith('+ category "Questions"'))!;
		const [, key, id] = /\(key (category-(\d+)), id \d+\)/.exec(line)!;
		expect(line).toBe(`+ category "Questions" (key ${key}, id ${id}) on board general`);
		// A post in the category, then the category renamed by the key alone.
		const boardId = (await env.DB.prepare('SELECT board_id FROM board_subjects WHERE id = ?1').bind(Number(id)).first<number>('board_id'))!;
		await env.DB.prepare(
			"INSERT INTO posts (id, channel_id, board_id, subject_id, member_id, title, content, content_text, template, created_at) VALUES (990001, ?1, ?2, ?3, 4001, 't', '{}', 't', 'DEFAULT', 0)",
		)
			.bind(created.channelId, boardId, Number(id))
			.run();
		const general = file.boards.find((board) => board.key === 'general')!;
		const tips = general.categories.find((category) => category.name === 'Questions')!;
		tips.key = key;
		tips.name = 'Hints';
		// Moved first: the name alone would no longer find it.
		general.categories = [tips, ...general.categories.filter((category) => category !== tips)];
		const renamed = await apply(file);
		expect(renamed.refusals).toEqual([]);
		expect(renamed.changes).toContain(`~ category "Questions" (key ${key}, id ${id}) on board general: name "Questions" → "Hints"`);
		expect(renamed.changes.some((change) => change.startsWith('+ category') || change.startsWith('- category'))).toBe(false);
		expect(await env.DB.prepare('SELECT subject_id FROM posts WHERE id = 990001').first<number>('subject_id')).toBe(Number(id));
		// A key of the file's own: adopted, then used.
		tips.key = 'hints';
		expect((await apply(file)).changes).toEqual([`~ category "Hints" (key ${key}, id ${id}) on board general: key "${key}" → "hints"`]);
		tips.name = 'Hints & Tips';
		expect((await apply(file)).changes).toEqual([`~ category "Hints" (key hints, id ${id}) on board general: name "Hints" → "Hints & Tips"`]);
		expect((await planChannel(env.DB, file)).changes).toEqual([]);
		await env.DB.prepare('DELETE FROM posts WHERE id = 990001').run();
	});

	it('says what changed in the board tree, not a count of nodes', async () => {
		const file = copy(global);
		const media = file.tree.find((node) => node.type === 'CATEGORY' && node.text === 'Media')!;
		if (media.type !== 'CATEGORY') throw new Error('no Media');
		media.collapsed = false;
		const collapsed = await apply(file);
		expect(collapsed.changes).toEqual(['~ board tree: node CATEGORY "Media" collapsed true → false']);
		const link = file.tree.find((node) => node.type === 'LINK')!;
		if (link.type !== 'LINK') throw new Error('no link');
		link.text = 'Official Website';
		file.tree.push({ type: 'LINK', text: 'Wiki', url: 'https://wiki.starfall.example' });
		const edited = await planChannel(env.DB, file);
		expect(edited.changes).toEqual([
			'~ board tree: node LINK "Official Site" text "Official Site" → "Official Website"',
			'+ board tree: node LINK "Wiki" at the top',
		]);
		expect((await apply(copy(global))).changes).toEqual(['~ board tree: node CATEGORY "Media" collapsed false → true']);
		expect((await planChannel(env.DB, copy(global))).changes).toEqual([]);
	});
});
