/**
 * The crawlers' files (docs/reference/seo.md): robots.txt, the sitemaps and the Atom feeds, from their routes
 * as a crawler reads them, and the reads behind them with their bounds. What a guest cannot read is
 * never in them: a hidden, deleted or private post, or a post or feed of a private board.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { parseFeed } from 'feedsmith';
import { GET as robots } from '@/pages/robots.txt';
import { GET as sitemapIndex } from '@/pages/[domain]/[slug]/sitemap.xml';
import { GET as sitemapFile } from '@/pages/[domain]/[slug]/sitemaps/[file]';
import { GET as channelFeed } from '@/pages/[domain]/[slug]/feed.xml';
import { GET as boardFeed } from '@/pages/[domain]/[slug]/boards/[boardId]/feed.xml';
import { FEED_ENTRIES, SITEMAP_POSTS_PER_FILE, feedEntries, postsSitemapCount, sitemapPosts } from '@/server/seo/crawl';
import { hidePost } from '@/server/moderation/hide';
import { deletePost } from '@/server/posts/writing';
import type { SessionMember } from '@/server/sign-in/sessions';
import { postWhere, recordingDb } from './harness';

const ORIGIN = 'http://localhost';
const ADMIN: SessionMember = { userId: 1001, nickname: 'admin', role: 'ADMIN', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 };

type Route = (context: never) => Response | Promise<Response>;

/** Asks a crawler's route as the Worker would, with the path's parameters. */
async function ask(route: Route, path: string, params: Record<string, string> = {}) {
	const response = await route({ params: { domain: 'starfall', slug: 'global', ...params }, url: new URL(`${ORIGIN}${path}`) } as never);
	return { status: response.status, type: response.headers.get('Content-Type'), text: await response.text() };
}

/** The <loc> values of a sitemap or sitemap index. */
const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));

/** The ids of the posts a guest can read in channel 1: visible, not private, in a public board. */
async function readablePostIds(): Promise<number[]> {
	const { results } = await env.DB.prepare(
		`SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id
		 WHERE p.channel_id = 1 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0 AND b.is_public = 1 ORDER BY p.id`,
	).all<{ id: number }>();
	return results.map((row) => row.id);
}

const postIdOf = (url: string) => Number(/\/posts\/(\d+)$/.exec(url)?.[1]);

describe('robots.txt', () => {
	it('lets crawlers read the pages, not the API, and names every community’s sitemap index with an absolute URL', async () => {
		const answer = await ask(robots as Route, '/robots.txt');
		expect(answer.status).toBe(200);
		expect(answer.type).toBe('text/plain; charset=utf-8');
		expect(answer.text).toMatch(/^User-agent: \*\nAllow: \/\nDisallow: \/v1\/\nDisallow: \/admin\/v1\/\nDisallow: \/public\/v1\/\n/);
		const channels = (await env.DB.prepare('SELECT domain, slug FROM channels').all<{ domain: string; slug: string }>()).results;
		const named = [...answer.text.matchAll(/^Sitemap: (.+)$/gm)].map((match) => match[1]);
		expect(named.sort()).toEqual(channels.map(({ domain, slug }) => `${ORIGIN}/${domain}/${slug}/sitemap.xml`).sort());
	});
});

describe('sitemaps', () => {
	it('list every board a guest reads and every post a guest reads, and nothing else', async () => {
		const index = await ask(sitemapIndex as Route, '/starfall/global/sitemap.xml');
		expect(index.status).toBe(200);
		expect(index.text).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
		const files = locations(index.text);
		expect(files[0]).toBe(`${ORIGIN}/starfall/global/sitemaps/boards.xml`);
		expect(files.slice(1)).toEqual(
			Array.from({ length: await postsSitemapCount(env.DB, 1) }, (_, i) => `${ORIGIN}/starfall/global/sitemaps/posts-${i + 1}.xml`),
		);
		const boards = locations((await ask(sitemapFile as Route, '/starfall/global/sitemaps/boards.xml', { file: 'boards.xml' })).text);
		const publicBoards = (await env.DB.prepare('SELECT id FROM boards WHERE channel_id = 1 AND is_public = 1').all<{ id: number }>()).results;
		expect(boards.sort()).toEqual(
			[`${ORIGIN}/starfall/global/boards`, ...publicBoards.map(({ id }) => `${ORIGIN}/starfall/global/boards/${id}`)].sort(),
		);
		const posts: number[] = [];
		for (const file of files.slice(1)) {
			const name = file.split('/').pop()!;
			const answer = await ask(sitemapFile as Route, `/starfall/global/sitemaps/${name}`, { file: name });
			expect(answer.status).toBe(200);
			expect(answer.text).toMatch(/<lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z<\/lastmod>/);
			posts.push(...locations(answer.text).map(postIdOf));
		}
		expect(posts.sort((a, b) => a - b)).toEqual(await readablePostIds());
		// The demo holds posts of every state: none of them is in.
		const unreadable = await env.DB.prepare(
			`SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id
			 WHERE p.channel_id = 1 AND (p.deleted_at IS NOT NULL OR p.hidden_by_admin = 1 OR p.is_private = 1 OR b.is_public = 0)`,
		).all<{ id: number }>();
		expect(unreadable.results.length).toBeGreaterThan(3);
		for (const { id } of unreadable.results) expect(posts).not.toContain(id);
	});

	it('lose a post once it is hidden or deleted', async () => {
		const where = 'board_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL AND is_private = 0';
		const hidden = await postWhere(where);
		await hidePost(env.DB, 1, ADMIN, hidden);
		const deleted = await postWhere(where);
		await deletePost(env.DB, 1, ADMIN, deleted, Date.now());
		const listed = (await sitemapPosts(env.DB, 1, 1)).map((post) => post.id);
		expect(listed).not.toContain(hidden);
		expect(listed).not.toContain(deleted);
		expect((await feedEntries(env.DB, 1, null)).map((entry) => entry.id)).not.toContain(hidden);
	});

	it('answer 404 for a file past the last, a name that is none, and a community that is none', async () => {
		const past = `posts-${(await postsSitemapCount(env.DB, 1)) + 1}.xml`;
		for (const file of [past, 'posts-0.xml', 'posts-x.xml', 'other.xml']) {
			expect((await ask(sitemapFile as Route, `/starfall/global/sitemaps/${file}`, { file })).status, file).toBe(404);
		}
		expect((await ask(sitemapIndex as Route, '/nowhere/none/sitemap.xml', { domain: 'nowhere', slug: 'none' })).status).toBe(404);
	});

	it(`read a bounded number of rows: one for the index, the posts of one range of ${SITEMAP_POSTS_PER_FILE} positions for a file, through the All Posts index`, async () => {
		const counted = recordingDb();
		await postsSitemapCount(counted.db, 1);
		expect(counted.statements.map((statement) => statement.rowsRead)).toEqual([1]);
		const file = recordingDb();
		const posts = await sitemapPosts(file.db, 1, 1);
		// The range's listed posts and the one row past it that ends the index range.
		expect(file.statements[0]!.rowsRead).toBeLessThanOrEqual(posts.length + 1);
		expect(posts.length).toBeLessThanOrEqual(SITEMAP_POSTS_PER_FILE);
		const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${file.statements[0]!.sql}`)
			.bind(...file.statements[0]!.params)
			.all<{ detail: string }>();
		expect(plan.results.map((row) => row.detail).join('\n')).toMatch(
			/SEARCH posts USING INDEX posts_channel_list \(channel_id=\? AND channel_seq>\? AND channel_seq<\?\)/,
		);
	});
});

describe('feeds', () => {
	it('give the newest posts of All Posts in Atom, as a feed reader parses them', async () => {
		const answer = await ask(channelFeed as Route, '/starfall/global/feed.xml');
		expect(answer.status).toBe(200);
		expect(answer.type).toBe('application/atom+xml; charset=utf-8');
		const { format, feed } = parseFeed(answer.text);
		expect(format).toBe('atom');
		const atom = feed as { title?: { value?: string }; links?: { href?: string; rel?: string }[]; entries?: AtomEntry[] };
		expect(atom.title?.value).toMatch(/ \| Starfall/);
		expect(atom.links?.find((link) => link.rel === 'self')?.href).toBe(`${ORIGIN}/starfall/global/feed.xml`);
		expect(atom.entries).toHaveLength(FEED_ENTRIES);
		const readable = await readablePostIds();
		const newest = (
			await env.DB.prepare('SELECT id FROM posts WHERE channel_id = 1 AND channel_seq IS NOT NULL ORDER BY channel_seq DESC LIMIT ?1')
				.bind(FEED_ENTRIES)
				.all<{ id: number }>()
		).results.map((row) => row.id);
		for (const [i, entry] of (atom.entries ?? []).entries()) {
			const id = postIdOf(entry.links?.find((link) => link.rel === 'alternate')?.href ?? '');
			expect(id).toBe(newest[i]);
			expect(readable).toContain(id);
			expect(entry.title?.value).toBeTruthy();
			expect(entry.authors?.[0]?.name).toBeTruthy();
			expect(entry.published).toMatch(/Z$/);
			expect(entry.summary?.value?.length).toBeGreaterThan(0);
		}
		expect(atom.entries?.some((entry) => entry.links?.some((link) => link.rel === 'enclosure' && link.href?.startsWith(`${ORIGIN}/`)))).toBe(true);
	});

	it('give a public board its own feed, and a private board none', async () => {
		const board = await env.DB.prepare('SELECT id FROM boards WHERE channel_id = 1 AND is_public = 1 ORDER BY id LIMIT 1').first<number>('id');
		const open = await ask(boardFeed as Route, `/starfall/global/boards/${board}/feed.xml`, { boardId: String(board) });
		expect(open.status).toBe(200);
		const entries = ((parseFeed(open.text).feed as { entries?: AtomEntry[] }).entries ?? []).map((entry) =>
			postIdOf(entry.links?.find((link) => link.rel === 'alternate')?.href ?? ''),
		);
		const inBoard = await env.DB.prepare(`SELECT id FROM posts WHERE board_id = ?1 AND board_seq IS NOT NULL`).bind(board).all<{ id: number }>();
		expect(entries.length).toBeGreaterThan(0);
		for (const id of entries) expect(inBoard.results.map((row) => row.id)).toContain(id);
		const closed = await env.DB.prepare('SELECT id FROM boards WHERE channel_id = 1 AND is_public = 0 LIMIT 1').first<number>('id');
		expect((await ask(boardFeed as Route, `/starfall/global/boards/${closed}/feed.xml`, { boardId: String(closed) })).status).toBe(404);
		expect((await ask(boardFeed as Route, '/starfall/global/boards/x/feed.xml', { boardId: 'x' })).status).toBe(404);
	});

	it(`read at most ${FEED_ENTRIES} posts and their authors`, async () => {
		const { db, statements } = recordingDb();
		await feedEntries(db, 1, null);
		expect(statements).toHaveLength(1);
		expect(statements[0]!.rowsRead).toBeLessThanOrEqual(2 * FEED_ENTRIES);
	});
});

interface AtomEntry {
	title?: { value?: string };
	links?: { href?: string; rel?: string }[];
	authors?: { name?: string }[];
	published?: string;
	summary?: { value?: string };
}
