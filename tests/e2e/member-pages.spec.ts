/**
 * A member's page made from the guest's (functions/shell/member-pages.ts), against the built Worker:
 * for every page route of tests/read-routes.ts and every kind of reader (a member, the author of
 * the private rows, the author of a visible post, a member who likes (a post and a comment), reported and watches, an
 * administrator, a banned member, an ended session), an answer the Worker rewrote
 * (X-Member-Page: REWRITTEN) equals the full render of the same page for the same reader, and each
 * route is named rewritten or rendered in full for each reader.
 * The full render is the rule's own other path, asked through the Worker with no flag: the same
 * URL in another spelling (`page=1` added, or its page number asked twice), which the rule leaves
 * to the full render because it is not the canonical URL, and which shows the same page (a guest's
 * login link, which carries the URL asked, is read back to the first spelling). The two
 * are compared tag by tag with each tag's attributes in one order (HTMLRewriter adds an attribute
 * after those a tag has; Astro writes them in its own order) and whitespace between tags dropped.
 * Which routes are rewritten, for whom, is checked too, and that the author's own post pages are
 * rewritten with their Edit and Delete; and nothing of one member's page reaches
 * a guest or another member.
 */
import type { APIRequestContext } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { execute } from './fixtures';
import { mintSession, sessionCookieName } from './sessions';
import { freshMember } from './write-helpers';
import { PAGE_ROUTES, privacyIdsSql, privacyTargets, READ_LIMITED_PAGE_ROUTES, withinReadBudget, type PrivacyIds } from '../read-routes';
import { mintSessionToken } from '../../src/server/sign-in/session-token';

const GLOBAL = { index: 1, domain: 'starfall', slug: 'global' };
const BASE = '/starfall/global';

// One worker for the file: the watcher's likes, watches and reports are made before its tests and
// removed after them, which another worker's share of the tests would still be reading.
test.describe.configure({ mode: 'default' });

let ids: PrivacyIds;
/** A member who watches every board and post of the targets, likes the posts and reported some; one banned during the test. */
let watcher: number;
let banned: number;
/** The author of a visible post of the targets, the comment of it the watcher reported and the one they like. */
let postAuthor: number;
let reportedComment: number;
let likedComment: number;

test.beforeAll(() => {
	const [found] = execute(privacyIdsSql(GLOBAL.index)) as PrivacyIds[];
	if (!found) throw new Error('The browser tests need the seeded .wrangler/test-state database');
	ids = found;
	// Members of this file's own: a demo member is another test's reader or writer (a ban would refuse
	// their writes; their reads would spend the read budgets of tests/e2e/read-limits.spec.ts).
	watcher = freshMember('Watcher').id;
	banned = freshMember('Banned').id;
	const targets = privacyTargets(ids, BASE);
	for (const boardId of targets.boardIds) {
		execute(
			`INSERT OR REPLACE INTO watches (member_id, target, target_id, channel_id, watching, created_at) VALUES (${watcher}, 'BOARD', ${boardId}, 1, 1, 0)`,
		);
	}
	// The watcher's own state of the posts: a like and a watch of each, a report of one post and of a comment.
	for (const { postId } of targets.posts) {
		execute(`INSERT OR IGNORE INTO post_likes (post_id, member_id, channel_id, created_at) VALUES (${postId}, ${watcher}, 1, 0)`);
		execute(
			`INSERT OR REPLACE INTO watches (member_id, target, target_id, channel_id, watching, created_at) VALUES (${watcher}, 'POST', ${postId}, 1, 1, 0)`,
		);
	}
	[{ id: postAuthor }] = execute(`SELECT member_id AS id FROM posts WHERE id = ${ids.deletedCommentPost}`) as { id: number }[] as [{ id: number }];
	[{ id: reportedComment }] = execute(
		`SELECT id FROM comments WHERE post_id = ${ids.deletedCommentPost} AND deleted_at IS NULL AND hidden_by_admin = 0 AND member_id <> ${watcher} ORDER BY id LIMIT 1`,
	) as { id: number }[] as [{ id: number }];
	// A comment of that post the watcher likes (the count left as it is: it shows the same to everyone).
	[{ id: likedComment }] = execute(
		`SELECT id FROM comments WHERE post_id = ${ids.deletedCommentPost} AND deleted_at IS NULL AND hidden_by_admin = 0 AND id <> ${reportedComment} ORDER BY id LIMIT 1`,
	) as { id: number }[] as [{ id: number }];
	// And a deleted comment of it they had liked: its page shows no Like button of it, so neither answer lists it.
	const deleted = execute(`SELECT id FROM comments WHERE post_id = ${ids.deletedCommentPost} AND deleted_at IS NOT NULL ORDER BY id LIMIT 1`) as {
		id: number;
	}[];
	expect(deleted).toHaveLength(1);
	for (const comment of [likedComment, deleted[0]!.id]) {
		execute(
			`INSERT OR IGNORE INTO comment_likes (comment_id, member_id, post_id, channel_id, created_at) VALUES (${comment}, ${watcher}, ${ids.deletedCommentPost}, 1, 0)`,
		);
	}
	// Closed long ago, so that no administrator's queue shows them while the test runs.
	for (const [type, id] of [
		['POST', ids.hiddenCommentPost],
		['COMMENT', reportedComment],
	] as const) {
		execute(
			`INSERT OR IGNORE INTO reports (channel_id, target_type, target_id, reporter_id, reason_code, created_at, status, resolved_at) VALUES (1, '${type}', ${id}, ${watcher}, 'SPAM', 0, 'DISMISSED', 0)`,
		);
	}
});

test.afterAll(() => {
	execute(`DELETE FROM post_likes WHERE member_id = ${watcher} AND created_at = 0`);
	execute(`DELETE FROM comment_likes WHERE member_id = ${watcher} AND created_at = 0`);
	execute(`DELETE FROM watches WHERE member_id = ${watcher} AND created_at = 0`);
	execute(`DELETE FROM reports WHERE reporter_id = ${watcher} AND created_at = 0`);
});

/** How a reader is answered on each route: every URL rewritten, every URL rendered in full, or some of each. */
type Answered = Record<string, 'rewritten' | 'full' | 'some rewritten'>;

/** The routes the rewrite may answer; every other route is rendered in full for every reader. */
const ALL_POSTS = '/{domain}/{slug}/boards';
const BOARD = '/{domain}/{slug}/boards/{boardId}';
const POST = '/{domain}/{slug}/posts/{postId}';

/**
 * A member's answers: All Posts, the boards a guest reads (a private board's page is rendered in
 * full) and the posts a guest reads (a private, hidden or deleted post's page is rendered in full).
 */
const MEMBER: Answered = { [ALL_POSTS]: 'rewritten', [BOARD]: 'some rewritten', [POST]: 'some rewritten' };

/**
 * The same page under a URL that is not its canonical one, the rule's full render for it: its
 * page number asked twice (the page reads the first; its links set or drop the key), or page 1 named.
 */
function fullRenderTwin(url: string): string {
	const page = /[?&]page=(\d+)/.exec(url)?.[1];
	return `${url}${url.includes('?') ? '&' : '?'}page=${page ?? 1}`;
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&amp;': '&', '&lt;': '<', '&gt;': '>' };
const decode = (value: string) => value.replace(/&(?:quot|#39|#x27|amp|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);

/** The page's tags and texts, one a line, each tag's attributes sorted (an empty value written as none). */
function normalized(html: string): string[] {
	const tag = /<([a-zA-Z][^\s/>]*)((?:\s+[^\s=/>]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
	const attribute = /([^\s=/>]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
	const text = html.replace(tag, (_whole, name: string, attributes: string, slash: string) => {
		const pairs = [...attributes.matchAll(attribute)].map(([, key, ...values]) => {
			const value = decode(values.find((found) => found !== undefined) ?? '');
			return value === '' ? key! : `${key}="${value}"`;
		});
		return `<${[name, ...pairs.sort()].join(' ')}${slash}>`;
	});
	const lines = text
		.replace(/>\s+</g, '><')
		.split(/(?=<)/)
		.filter((line) => line.trim() !== '');
	// A list row's counts (views, likes, comments: its meta and the title's comment count) move with
	// other tests' reads, likes and comments without renewing the guest's stored list, which may so be
	// older than the full render (up to a minute: docs/reference/edge-cache.md).
	// So is a post page's view count: a view is written after its answer (the view beacon) and renews no
	// stored page, so another test's reader moves it between the guest's stored page and the full render.
	const count = (line: string | undefined) =>
		line !== undefined && (line.startsWith('<span class="meta-label"') || line.includes('class="comment-count"'));
	const views = /^<span[^>]*>Views [\d,]+$/;
	return lines.map((line, at) => (count(line) || count(lines[at - 1]) || views.test(line) ? line.replace(/[\d,]+/g, '#') : line));
}

interface Reader {
	name: string;
	cookie: () => Promise<string>;
	/** The routes answered otherwise than in full for every URL. */
	answered: () => Answered;
	/** The posts of the targets whose page is rendered in full for the reader (the others are rewritten). */
	fullPosts: () => number[];
	/** The posts whose rewritten page has the author's Edit and Delete (`data-post-actions`): the reader's own. */
	ownPosts?: () => number[];
}

/** The posts a guest may not read: their page is a guest's 404 or 410, and the reader's is rendered in full. */
const unreadable = () => [ids.privatePost, ids.hiddenPost, ids.deletedPost];
const allPosts = () => privacyTargets(ids, BASE).posts.map((post) => post.postId);
/** The posts of the targets a guest reads that `memberId` wrote: their rewritten page carries the author's Edit and Delete. */
const ownReadable = (memberId: number) =>
	allPosts().filter(
		(postId) =>
			!unreadable().includes(postId) && (execute(`SELECT member_id AS id FROM posts WHERE id = ${postId}`) as { id: number }[])[0]!.id === memberId,
	);

const session = async (memberId: number) => `${sessionCookieName(GLOBAL)}=${await mintSession(GLOBAL, memberId)}`;
const READERS: Reader[] = [
	{
		name: 'a member',
		cookie: () => session(ids.bystander),
		answered: () => MEMBER,
		fullPosts: unreadable,
		ownPosts: () => ownReadable(ids.bystander),
	},
	{
		name: 'the author of the private rows',
		cookie: () => session(ids.privatePostAuthor),
		answered: () => MEMBER,
		fullPosts: unreadable,
		ownPosts: () => ownReadable(ids.privatePostAuthor),
	},
	// Their own post's page is rewritten too, with their Edit and Delete (compareAll checks the rewritten page has them).
	{
		name: 'the author of a visible post',
		cookie: () => session(postAuthor),
		answered: () => MEMBER,
		fullPosts: unreadable,
		ownPosts: () => ownReadable(postAuthor),
	},
	{
		name: 'a member who likes, reported and watches',
		cookie: () => session(watcher),
		answered: () => MEMBER,
		fullPosts: unreadable,
		ownPosts: () => ownReadable(watcher),
	},
	// Moderation controls and hidden comments' text on a post's page: rendered in full.
	{
		name: 'an administrator',
		cookie: () => session(ids.administrator),
		answered: () => ({ [ALL_POSTS]: 'rewritten', [BOARD]: 'some rewritten' }),
		fullPosts: allPosts,
	},
	{ name: 'a banned member', cookie: () => session(banned), answered: () => ({}), fullPosts: allPosts },
	{
		name: 'a reader whose session no longer exists',
		cookie: async () => {
			const secret = readFileSync(path.join(process.cwd(), '.wrangler', 'test-state', 'session-secret'), 'utf8').trim();
			return `${sessionCookieName(GLOBAL)}=${await mintSessionToken(secret, GLOBAL.index)}`;
		},
		answered: () => MEMBER,
		fullPosts: unreadable,
	},
];

/** The headers both answers must share. */
const SHARED_HEADERS = ['content-type', 'cache-control', 'content-security-policy', 'set-cookie'];

/**
 * Asks every page route as the reader; compares each rewritten answer with its full render; answers
 * how each route was answered (a route rendered in full for every URL left out).
 */
async function compareAll(request: APIRequestContext, cookie: string): Promise<{ answered: Answered; fullPosts: number[]; ownPosts: number[] }> {
	const answered: Answered = {};
	const fullPosts: number[] = [];
	const ownPosts: number[] = [];
	const headers = { cookie };
	for (const [route, urls] of Object.entries(PAGE_ROUTES)) {
		const found = new Set<boolean>();
		// A route the reader's read budget counts (searches, profiles) is never made from the guest's page: its first
		// URL says so, and the privacy tests ask the rest (the budget is counted across every test of the run).
		const asked = urls(privacyTargets(ids, BASE));
		for (const url of READ_LIMITED_PAGE_ROUTES.includes(route) ? asked.slice(0, 1) : asked) {
			const answer = await withinReadBudget(
				() => request.get(url, { headers, maxRedirects: 0 }),
				(asked) => asked.status(),
			);
			// A page refused as too many would compare two refusals.
			expect(answer.status(), `${url}: not refused as too many`).not.toBe(429);
			const rewritten = answer.headers()['x-member-page'] === 'REWRITTEN';
			found.add(rewritten);
			// Each post once: its page in either order of comments (`?commentsSort=best`) is answered alike.
			if (route === POST && !rewritten && !url.includes('?')) fullPosts.push(Number(url.split('/').at(-1)));
			if (!rewritten) continue;
			const fullText = async () => {
				const full = await request.get(fullRenderTwin(url), { headers, maxRedirects: 0 });
				expect(full.headers()['x-member-page'], `${fullRenderTwin(url)}: the full render`).toBeUndefined();
				expect(answer.status(), url).toBe(full.status());
				for (const name of SHARED_HEADERS) expect(answer.headers()[name], `${url}: ${name}`).toBe(full.headers()[name]);
				return normalized((await full.text()).replaceAll(encodeURIComponent(fullRenderTwin(url)), encodeURIComponent(url)));
			};
			let text = await answer.text();
			let full = await fullText();
			// Another test's post between the two asks moves a list by one: the pair is asked again then, up
			// to twice (a difference of the rewrite's own is in every pair).
			for (let again = 0; again < 2 && normalized(text).join('\n') !== full.join('\n'); again++) {
				const rewrittenAgain = await request.get(url, { headers, maxRedirects: 0 });
				expect(rewrittenAgain.headers()['x-member-page'], url).toBe('REWRITTEN');
				text = await rewrittenAgain.text();
				full = await fullText();
			}
			expect(normalized(text), url).toEqual(full);
			if (route === POST && !url.includes('?') && text.includes('data-post-actions')) ownPosts.push(Number(url.split('/').at(-1)));
		}
		if (found.has(true)) answered[route] = found.has(false) ? 'some rewritten' : 'rewritten';
	}
	return { answered, fullPosts, ownPosts };
}

test.describe('a member’s page made from the guest’s equals the full render', () => {
	// Each reader asks some hundred pages.
	test.describe.configure({ timeout: 180_000 });

	test('a guest’s answers are never rewritten', async ({ request }) => {
		for (const url of Object.values(PAGE_ROUTES).flatMap((urls) => urls(privacyTargets(ids, BASE)))) {
			expect((await request.get(url, { maxRedirects: 0 })).headers()['x-member-page'], url).toBeUndefined();
		}
	});

	for (const reader of READERS) {
		test(`for ${reader.name}`, async ({ request }) => {
			const banning = reader.name === 'a banned member';
			if (banning)
				execute(`INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, ${banned}, 'PERMANENT', NULL, ${Date.now()})`);
			try {
				const { answered, fullPosts, ownPosts } = await compareAll(request, await reader.cookie());
				expect(answered).toEqual(reader.answered());
				expect(fullPosts.sort()).toEqual(reader.fullPosts().sort());
				expect(ownPosts.sort()).toEqual((reader.ownPosts?.() ?? []).sort());
			} finally {
				if (banning) execute(`UPDATE bans SET lifted_at = ${Date.now()} WHERE member_id = ${banned} AND lifted_at IS NULL`);
			}
		});
	}
});

test('nothing of one member’s page reaches a guest or another member', async ({ request }) => {
	const nickname = (id: number) => (execute(`SELECT nickname FROM members WHERE id = ${id}`) as { nickname: string }[])[0]!.nickname;
	const count = (sql: string) => (execute(sql) as { n: number }[])[0]!.n;
	// A board's page and a post's, first as member A (who likes, reported and watches), then as a guest and as member B.
	for (const url of [`${BASE}/boards/${ids.hiddenPostBoard}`, `${BASE}/posts/${ids.deletedCommentPost}`]) {
		const mine = await request.get(url, { headers: { cookie: await session(watcher) } });
		expect(mine.headers()['x-member-page'], url).toBe('REWRITTEN');
		expect(mine.headers()['cache-control']).toBe('private, no-store');
		expect(mine.headers()['x-edge-cache']).toBeUndefined();
		const minePage = await mine.text();
		expect(minePage).toContain(`data-nickname="${nickname(watcher)}"`);
		if (url.includes('/posts/')) {
			expect(minePage).toContain(`"reportedComments":[${reportedComment}],"likedComments":[${likedComment}]`);
			expect(minePage).toMatch(new RegExp(`<button[^>]*data-action="like"[^>]*data-comment-id="${likedComment}"[^>]*aria-pressed="true"`));
			expect(minePage).toMatch(
				/<button[^>]*data-post-action="like"[^>]*aria-pressed="true"|<button[^>]*aria-pressed="true"[^>]*data-post-action="like"/,
			);
		}
		for (let i = 0; i < 2; i++) {
			const guest = await request.get(url, { headers: { cookie: '' } });
			expect(guest.headers()['x-edge-cache']).toBe('HIT');
			// The page's styles name some of the marks: only the markup is looked at.
			const html = (await guest.text()).replace(/<style[\s\S]*?<\/style>/g, '');
			for (const mark of [
				'data-member-card',
				'data-bell',
				'data-board-watch',
				'data-user-id',
				'data-session-sync',
				'data-member-comments',
				'data-reported',
				'aria-pressed="true"',
			])
				expect(html, `${url}: ${mark}`).not.toContain(mark);
		}
		const theirs = await request.get(url, { headers: { cookie: await session(ids.bystander) } });
		expect(theirs.headers()['x-member-page']).toBe('REWRITTEN');
		const html = (await theirs.text()).replace(/<style[\s\S]*?<\/style>/g, '');
		expect(html).toContain(`data-user-id="${ids.bystander}"`);
		expect(html).not.toContain(`data-user-id="${watcher}"`);
		expect(html).not.toContain(`data-nickname="${nickname(watcher)}"`);
		if (url.includes('/posts/')) {
			const theyReported = count(
				`SELECT count(*) AS n FROM reports r JOIN comments c ON c.id = r.target_id AND r.target_type = 'COMMENT' WHERE r.reporter_id = ${ids.bystander} AND c.post_id = ${ids.deletedCommentPost}`,
			);
			const theyLike = count(`SELECT count(*) AS n FROM post_likes WHERE member_id = ${ids.bystander} AND post_id = ${ids.deletedCommentPost}`);
			if (theyReported === 0) expect(html).toContain('"reportedComments":[]');
			if (theyLike === 0) expect(html).not.toContain('aria-pressed="true"');
		}
	}
});

test('a member’s page is spliced into the stored guest’s page; one whose places are not known is rewritten by HTMLRewriter, alike', async ({
	request,
	baseURL,
}) => {
	const cookie = await session(ids.bystander);
	const how = async (url: string) => {
		const answer = await request.get(url, { headers: { cookie }, maxRedirects: 0 });
		expect(answer.headers()['x-member-page'], url).toBe('REWRITTEN');
		return { parts: answer.headers()['x-member-parts'], text: await answer.text() };
	};
	for (const url of [`${BASE}/boards`, `${BASE}/boards/${ids.hiddenPostBoard}`, `${BASE}/posts/${ids.deletedCommentPost}`]) {
		expect((await how(url)).parts, url).toBe('SPLICED');
	}
	// A post whose text holds the character the places are marked with (functions/shell/page-spots.ts): its page has none.
	const written = await request.post(`/v1${BASE}/posts`, {
		headers: { cookie, origin: baseURL ?? '' },
		data: {
			boardId: 12,
			subjectId: null,
			title: 'Places unknown',
			isPrivate: false,
			isNotice: false,
			requestId: crypto.randomUUID(),
			content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'A noncharacter \uFDD0 in the text.' }] }] },
		},
	});
	expect(written.status()).toBe(200);
	const { postId } = ((await written.json()) as { content: { postId: number } }).content;
	// A comment of it the member likes: the Like buttons are read from the page itself.
	const commented = await request.post(`/v1${BASE}/posts/${postId}/comments`, {
		headers: { cookie, origin: baseURL ?? '' },
		data: { content: 'Liked where the places are unknown' },
	});
	expect(commented.status()).toBe(200);
	const { commentId } = ((await commented.json()) as { content: { comment: { commentId: number } } }).content.comment;
	expect((await request.put(`/v1${BASE}/posts/${postId}/comments/${commentId}/like`, { headers: { cookie, origin: baseURL ?? '' } })).status()).toBe(
		200,
	);
	const url = `${BASE}/posts/${postId}`;
	const rewritten = await how(url);
	expect(rewritten.parts).toBe('REWRITER');
	expect(rewritten.text).toContain('\uFDD0');
	expect(rewritten.text).toContain(`"likedComments":[${commentId}]`);
	const full = await request.get(fullRenderTwin(url), { headers: { cookie }, maxRedirects: 0 });
	expect(full.headers()['x-member-page']).toBeUndefined();
	const fullText = (await full.text()).replaceAll(encodeURIComponent(fullRenderTwin(url)), encodeURIComponent(url));
	expect(normalized(rewritten.text)).toEqual(normalized(fullText));
});
