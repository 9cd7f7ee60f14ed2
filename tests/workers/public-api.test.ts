import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, publicApi } from './harness';

const BASE = publicApi();

function getJson(path: string) {
	return call(path.startsWith('http') ? path : `${BASE}${path}`);
}

describe('public API envelope', () => {
	it('answers layouts/header with the channel header in the envelope', async () => {
		const { status, body } = await getJson('/layouts/header');
		expect(status).toBe(200);
		expect(body.header).toEqual({ isSuccessful: true, resultCode: 0, resultMessage: '' });
		expect(body['content']).toMatchObject({ title: 'Starfall Odyssey Global', language: 'en', themeType: 'LIGHT', topPinnedHome: 'Y' });
	});

	it('answers layouts/content with the exposure type', async () => {
		const { body } = await getJson('/layouts/content');
		expect(body['content']).toEqual({ exposureType: 'ALL', boardId: null });
	});

	it('drops social links other than FACEBOOK, X and LINE from the footer', async () => {
		const { body } = await getJson('/layouts/footer');
		const keys = (body['content'] as { snsLinks: { key: string }[] }).snsLinks.map((link) => link.key);
		expect(keys).toEqual(['FACEBOOK', 'X', 'LINE']);
	});

	it('lists boards, the tree with every node type, and board subjects', async () => {
		const boards = await getJson('/boards');
		expect((boards.body['content'] as unknown[]).length).toBe(7);
		const tree = await getJson('/boards/tree');
		const types = new Set((tree.body['content'] as { data: { type: string } }[]).map((node) => node.data.type));
		expect([...types].sort()).toEqual(['ALL', 'BOARD', 'CATEGORY', 'DIVIDER', 'LINK']);
		const subjects = await getJson('/board-subjects?boardId=12');
		expect(subjects.body['boardSubjects']).toEqual(expect.arrayContaining([expect.objectContaining({ boardId: 12 })]));
	});

	it('reads one board and answers BoardNotFound for another channel board', async () => {
		const own = await getJson('/boards/12');
		expect(own.body['content']).toMatchObject({ boardId: 12, publicFlag: 'Y' });
		const foreign = await getJson('/boards/22');
		expect(foreign.status).toBe(404);
		expect(foreign.body.header).toMatchObject({ isSuccessful: false, resultCode: -4041402 });
	});

	it('pages a board newest first with notices pinned', async () => {
		const first = await getJson('/posts?boardId=12');
		const content = first.body['content'] as { posts: { postId: number }[]; notices: unknown[]; totalCount: number; page: number };
		expect(content.page).toBe(1);
		expect(content.posts.length).toBe(20);
		expect(content.notices.length).toBeGreaterThan(0);
		const ids = content.posts.map((post) => post.postId);
		expect([...ids].sort((a, b) => b - a)).toEqual(ids);
		const second = await getJson('/posts?boardId=12&page=2');
		const next = (second.body['content'] as { posts: { postId: number }[] }).posts;
		expect(next.length).toBe(content.totalCount - 20);
		expect(Math.max(...next.map((post) => post.postId))).toBeLessThan(Math.min(...ids));
	});
});

describe('public API refuses bad input with a clear error', () => {
	it.each([
		['/boards/abc', 'boardId'],
		['/boards/-1', 'boardId'],
		['/boards/0', 'boardId'],
		['/boards/90071992547409930', 'boardId'],
		['/posts?page=abc', 'page'],
		['/posts?boardId=12&page=0', 'page'],
		['/boards?unknown=1', 'an unknown field'],
		['/board-subjects?boardId=x', 'boardId'],
	])('%s', async (path, field) => {
		const { status, body } = await getJson(path);
		expect(status).toBe(400);
		expect(body.header.isSuccessful).toBe(false);
		expect(body.header.resultCode).toBe(-4001400);
		expect(body.header.resultMessage).toContain(field);
	});

	it('answers ChannelNotFound for an unknown domain or slug', async () => {
		const { status, body } = await getJson('http://localhost/public/v1/nowhere/none/boards');
		expect(status).toBe(404);
		expect(body.header.resultCode).toBe(-4041401);
	});

	it('answers RouteNotFound in the envelope for an unknown API path', async () => {
		const { status, body } = await getJson('/no-such-thing');
		expect(status).toBe(404);
		expect(body.header.resultCode).toBe(-4041408);
	});
});

describe('data layer', () => {
	it('runs against a migrated D1 with the demo seed', async () => {
		const row = await env.DB.prepare('SELECT count(*) AS count FROM channels').first<{ count: number }>();
		expect(row?.count).toBe(5);
	});
});

describe('category pages', () => {
	it('lists only the posts of the chosen category, with the board notices pinned', async () => {
		const { body } = await getJson('/posts?boardId=12&subjectId=121');
		const content = body['content'] as { posts: { subjectId: number }[]; notices: unknown[]; totalCount: number };
		expect(content.posts.length).toBeGreaterThan(0);
		expect(content.posts.every((post) => post.subjectId === 121)).toBe(true);
		expect(content.notices.length).toBeGreaterThan(0);
	});

	it('answers SubjectNotFound for a category of another board', async () => {
		const { status, body } = await getJson('/posts?boardId=12&subjectId=131');
		expect(status).toBe(404);
		expect(body.header.resultCode).toBe(-4041405);
	});
});

describe('channel settings', () => {
	it('never answer a link that breaks the URL rule, from the header, footer, banner or board tree', async () => {
		const channel = await env.DB.prepare('SELECT header_config, footer_config FROM channels WHERE id = 3').first<{
			header_config: string;
			footer_config: string;
		}>();
		const header = JSON.parse(channel?.header_config ?? '{}');
		const footer = JSON.parse(channel?.footer_config ?? '{}');
		header.gameBiIcon = 'javascript:alert(1)';
		header.externalLinks.push({ key: 'Evil', value: 'JaVaScRiPt:alert(1)' });
		footer.policyItems.push({ key: 'Evil', value: '/\\evil.example' });
		footer.companyCiIcons.push({ key: 'data:image/svg+xml,x', value: 'https://x.example' });
		footer.snsLinks.push({ key: 'X', value: 'javascript:alert(1)' });
		await env.DB.batch([
			env.DB.prepare(
				"UPDATE channels SET header_config = ?1, footer_config = ?2, banner = ?3, pc_header_image = 'javascript:x', content_version = content_version + 1 WHERE id = 3",
			).bind(JSON.stringify(header), JSON.stringify(footer), JSON.stringify({ backgroundColor: '#000', imageUrl: 'data:image/png;base64,AAAA' })),
			env.DB.prepare("UPDATE board_tree_nodes SET url = 'javascript:alert(1)' WHERE channel_id = 3 AND type = 'LINK'"),
		]);
		const base = 'http://localhost/public/v1/starfall/jp';
		const answers = await Promise.all(['/layouts/header', '/layouts/footer', '/boards/tree'].map((path) => getJson(`${base}${path}`)));
		for (const answer of answers) {
			expect(answer.status).toBe(200);
			expect(JSON.stringify(answer.body)).not.toMatch(/javascript:|data:|evil\.example/i);
		}
		expect(answers[0]?.body['content']).toMatchObject({ gameBiIcon: null, banner: null, pcHeaderImage: null });
	});
});
