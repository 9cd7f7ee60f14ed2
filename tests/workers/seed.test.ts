import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { boardId, demoSql, DEMO_CHANNELS, NOTICE_ONLY_BOARDS, TEMPLATE_BOARDS } from '../../scripts/seed/demo.mjs';
import { DocumentSchema, type ContentDocument } from '@/schemas/content';

const TABLES = [
	'channels',
	'channel_providers',
	'boards',
	'board_subjects',
	'board_tree_nodes',
	'identities',
	'members',
	'nickname_claims',
	'bans',
	'posts',
	'comments',
	'post_likes',
	'reports',
	'drafts',
];

/** A fingerprint of every demo table: row counts and a hash of the rows' text. */
async function fingerprint(): Promise<Record<string, string>> {
	const result: Record<string, string> = {};
	for (const table of TABLES) {
		const rows = await env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
		const text = JSON.stringify(rows.results);
		const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
		result[table] = `${rows.results.length}:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
	}
	return result;
}

describe('demo seed', () => {
	it('generates the same statements on every run', () => {
		expect(demoSql()).toEqual(demoSql());
	});

	it('leaves the database exactly as before when it runs again', async () => {
		// The test setup seeded the database as the seed does, then moved the channels' content versions
		// by a multiple of 1,000,000 (tests/workers/setup.ts): put back, it is the seed's database (the
		// seed's own versions are small), without a seed of its own here.
		const versions = await env.DB.prepare('UPDATE channels SET content_version = content_version % 1000000 RETURNING content_version').all<{
			content_version: number;
		}>();
		expect(versions.results.length).toBeGreaterThan(0);
		const before = await fingerprint();
		const statements = demoSql().filter((statement) => !statement.startsWith('PRAGMA'));
		await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
		expect(await fingerprint()).toEqual(before);
		// A whole seed and two fingerprints of every table: seconds alone, a minute with the other tests'
		// workers, the type check and lint busy on both cores. An upper bound, not a timing.
	}, 120_000);

	it('keeps list counters equal to the posts that carry sequence numbers', async () => {
		const mismatched = await env.DB.prepare(
			`SELECT b.id FROM boards b WHERE b.listed_count != (SELECT count(*) FROM posts p WHERE p.board_id = b.id AND p.board_seq IS NOT NULL)
			 UNION ALL
			 SELECT c.id FROM channels c WHERE c.listed_count != (SELECT count(*) FROM posts p WHERE p.channel_id = c.id AND p.channel_seq IS NOT NULL)`,
		).all();
		expect(mismatched.results).toEqual([]);
	});

	it('holds every state the demo promises', async () => {
		const row = await env.DB.prepare(
			`SELECT
				(SELECT count(*) FROM posts WHERE hidden_by_admin = 1) AS hidden_posts,
				(SELECT count(*) FROM posts WHERE deleted_at IS NOT NULL) AS deleted_posts,
				(SELECT count(*) FROM posts WHERE is_private = 1) AS private_posts,
				(SELECT count(*) FROM comments WHERE deleted_at IS NOT NULL) AS deleted_comments,
				(SELECT count(*) FROM comments WHERE hidden_by_admin = 1) AS hidden_comments,
				(SELECT count(*) FROM comments WHERE parent_id IS NOT NULL) AS replies,
				(SELECT count(*) FROM bans WHERE kind = 'TEMPORARY') AS temporary_bans,
				(SELECT count(*) FROM bans WHERE kind = 'PERMANENT') AS permanent_bans,
				(SELECT count(*) FROM boards WHERE is_public = 0) AS private_boards,
				(SELECT min(n) FROM (SELECT count(*) AS n FROM posts GROUP BY board_id)) AS fewest_posts_per_board`,
		).first<Record<string, number>>();
		expect(row).toMatchObject({
			hidden_posts: 5,
			deleted_posts: 5,
			private_posts: 5,
			deleted_comments: 5,
			hidden_comments: 5,
			temporary_bans: 5,
			permanent_bans: 5,
			private_boards: 5,
		});
		expect(row?.['replies']).toBeGreaterThan(100);
		expect(row?.['fewest_posts_per_board']).toBeGreaterThanOrEqual(30);
	});

	it('counts on each post the comments neither deleted nor hidden, and keeps replies one level deep', async () => {
		const row = await env.DB.prepare(
			`SELECT
				(SELECT count(*) FROM posts p WHERE p.comment_count <>
					(SELECT count(*) FROM comments c WHERE c.post_id = p.id AND c.deleted_at IS NULL AND c.hidden_by_admin = 0)) AS miscounted,
				(SELECT count(*) FROM comments c JOIN comments parent ON parent.id = c.parent_id WHERE parent.parent_id IS NOT NULL OR parent.post_id <> c.post_id) AS deep_replies`,
		).first<Record<string, number>>();
		expect(row).toEqual({ miscounted: 0, deep_replies: 0 });
	});

	it('dates comments forward within each thread: after the post, replies after their parent, each after the one shown before it', async () => {
		const row = await env.DB.prepare(
			`SELECT
				(SELECT count(*) FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.created_at <= p.created_at) AS before_post,
				(SELECT count(*) FROM comments c JOIN comments parent ON parent.id = c.parent_id WHERE c.created_at <= parent.created_at) AS before_parent,
				(SELECT count(*) FROM (SELECT created_at, lag(created_at) OVER (PARTITION BY post_id ORDER BY id) AS previous FROM comments)
				 WHERE created_at <= previous) AS before_previous,
				(SELECT count(*) FROM comments) AS comments`,
		).first<Record<string, number>>();
		expect(row).toMatchObject({ before_post: 0, before_parent: 0, before_previous: 0 });
		expect(row?.['comments']).toBeGreaterThan(500);
	});

	it('gives each community a bug-report template and a guide outline, as documents the schema accepts', async () => {
		expect([...TEMPLATE_BOARDS].sort()).toEqual(['bugs', 'guides']);
		const rows = await env.DB.prepare('SELECT id, channel_id, write_template FROM boards WHERE write_template IS NOT NULL ORDER BY id').all<{
			id: number;
			channel_id: number;
			write_template: string;
		}>();
		const expected = DEMO_CHANNELS.flatMap((channel) => TEMPLATE_BOARDS.map((key) => boardId(channel, key))).sort((a, b) => a - b);
		expect(rows.results.map((row) => row.id)).toEqual(expected);
		const templates = new Map<number, ContentDocument>();
		for (const row of rows.results) {
			const parsed = DocumentSchema.safeParse(JSON.parse(row.write_template));
			expect(parsed.success, `board ${row.id}`).toBe(true);
			// Stored exactly as the schema keeps it: nothing the renderer or the editor would drop.
			expect(parsed.data).toEqual(JSON.parse(row.write_template));
			templates.set(row.id, parsed.data as ContentDocument);
		}
		for (const channel of DEMO_CHANNELS) {
			const bugs = templates.get(boardId(channel, 'bugs'));
			const guides = templates.get(boardId(channel, 'guides'));
			// A form: five headings (summary, steps, expected, actual, device), each followed by its
			// guidance, which publishing drops when left empty (src/schemas/guidance.ts), as it drops the
			// thanks above them; the device's labels are a list that stays.
			expect(bugs?.blocks.filter((block) => block.type === 'heading')).toHaveLength(5);
			expect(bugs?.blocks.map((block) => block.type)).toEqual([
				'guidance',
				...Array.from({ length: 5 }, () => ['heading', 'guidance']).flat(),
				'list',
			]);
			expect(guides?.blocks.some((block) => block.type === 'guidance')).toBe(true);
			// Changing boards changes templates.
			expect(guides).not.toEqual(bugs);
		}
	});

	it('writes each template in its community language', async () => {
		const scripts: Record<string, RegExp> = {
			en: /^[\x20-\x7e’]+$/,
			ko: /\p{Script=Hangul}/u,
			ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
			zh: /^(?=.*\p{Script=Han})[^\p{Script=Hiragana}\p{Script=Katakana}]+$/u,
		};
		for (const channel of DEMO_CHANNELS) {
			const row = await env.DB.prepare('SELECT c.language, b.write_template FROM boards b JOIN channels c ON c.id = b.channel_id WHERE b.id = ?1')
				.bind(boardId(channel, 'bugs'))
				.first<{ language: string; write_template: string }>();
			const headings = (JSON.parse(row?.write_template ?? '{}') as ContentDocument).blocks.flatMap((block) =>
				block.type === 'heading' ? block.children.map((child) => child.text) : [],
			);
			for (const heading of headings) expect(heading, `${channel.slug}: ${heading}`).toMatch(scripts[row?.language ?? ''] ?? /^$/);
		}
	});

	it("makes each community's announcements, and only them, notice-only", async () => {
		expect(NOTICE_ONLY_BOARDS).toEqual(['notice']);
		const rows = await env.DB.prepare('SELECT id FROM boards WHERE notice_only = 1 ORDER BY id').all<{ id: number }>();
		expect(rows.results.map((row) => row.id)).toEqual(DEMO_CHANNELS.map((channel) => boardId(channel, 'notice')).sort((a, b) => a - b));
	});

	it('gives each fan-art post an opening written for its picture, the alt text of what the picture shows, and comments that suit a picture', async () => {
		// What each picture shows, as the English and Pixel Farm openings name it.
		const named: Record<number, RegExp> = {
			1: /nebula|three (?:ships|of us)/i,
			2: /Port Meridian/,
			3: /crystal|rover/,
			4: /Shattered Belt/,
			5: /dreadnought/,
			6: /hangar|shipyard/,
			7: /warp gate/,
			8: /aurora/,
			9: /sun|dawn|windmill|scarecrow|crop rows/i,
			10: /barn/i,
			11: /autumn|pumpkin/i,
			12: /snow|winter/i,
		};
		for (const channel of DEMO_CHANNELS) {
			const posts = await env.DB.prepare(
				`SELECT p.id, p.content, s.sort_order AS category FROM posts p LEFT JOIN board_subjects s ON s.id = p.subject_id
				 WHERE p.board_id = ?1 ORDER BY p.id`,
			)
				.bind(boardId(channel, 'fanart'))
				.all<{ id: number; content: string; category: number | null }>();
			// No demo picture is a craft or a cosplay (the third category).
			expect(posts.results.filter((post) => post.category === 3)).toEqual([]);
			expect(posts.results.length).toBeGreaterThanOrEqual(30);
			for (const post of posts.results) {
				const [opening, image, ...rest] = (JSON.parse(post.content) as ContentDocument).blocks;
				expect([opening?.type, image?.type, rest.length], `post ${post.id}`).toEqual(['paragraph', 'image', 0]);
				if (opening?.type !== 'paragraph' || image?.type !== 'image') continue;
				const shot = Number(/shot-(\d+)\.svg$/.exec(image.src)?.[1]);
				expect(image.alt, `post ${post.id}`).toBe(channel.content.shotAlts[shot]);
				if (channel.content.shotAlts[1]?.startsWith('Three silver') || shot >= 9) {
					expect(opening.children[0]?.text, `post ${post.id}, shot ${shot}`).toMatch(named[shot]!);
				}
			}
			const comments = await env.DB.prepare('SELECT c.content, c.parent_id FROM comments c JOIN posts p ON p.id = c.post_id WHERE p.board_id = ?1')
				.bind(boardId(channel, 'fanart'))
				.all<{ content: string; parent_id: number | null }>();
			for (const comment of comments.results) {
				expect(comment.parent_id === null ? channel.comments['fanart'] : channel.replies['fanart']).toContain(comment.content);
			}
		}
	});
});
