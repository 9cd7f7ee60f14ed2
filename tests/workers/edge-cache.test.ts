/**
 * The edge cache (functions/shell/edge-cache.ts): what it stores, for whom, and under which key. The
 * Worker behind it is a counter, so each test sees how often the Worker really had to answer and
 * what it was asked.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { GUEST_MAX_AGE_MS, REFRESH_AFTER_MS, withEdgeCache } from '@functions/shell/edge-cache';
import { api } from '@functions/api/app';
import { CHANNEL_MEMO_ENTRIES, rememberedChannelCount, resolveChannel } from '@/server/channels/channels';
import { bumpContentVersion, MEMBER_LIST_BUCKETS, POST_VERSION_BUCKETS, touchCache, touchPost } from '@/server/content-versions/versions';
import { createPost, deletePost, editPost } from '@/server/posts/writing';
import { hideComment, hidePost } from '@/server/moderation/hide';
import { mintSessionToken } from '@/server/sign-in/session-token';
import { resolveSession, SESSION_MAX_MS, type SessionMember } from '@/server/sign-in/sessions';
import { call, memberApi, postWhere, publicApi, recordingDb, signIn, TEST_SECRET } from './harness';

/** Asks through the edge cache; `origin` counts the Worker's answers and records what it was asked. */
async function ask(url: string, origin: Origin, headers: Record<string, string> = {}, now?: number) {
	const ctx = createExecutionContext();
	const response = await withEdgeCache(new Request(url, { headers }), env.DB, ctx, async (request) => origin.answer(request), now);
	const text = await response.text();
	await waitOnExecutionContext(ctx);
	return { text, state: response.headers.get('X-Edge-Cache'), cacheControl: response.headers.get('Cache-Control') };
}

interface Origin {
	answer(request: Request): Response;
	readonly calls: number;
	readonly asked: Request[];
}

function counter(body: string, init?: ResponseInit): Origin {
	const asked: Request[] = [];
	return {
		answer: (request) => {
			asked.push(request);
			return new Response(body, init);
		},
		get calls() {
			return asked.length;
		},
		asked,
	};
}

const SESSION = '__Host-session_starfall_global';

describe('edge cache', () => {
	it('answers a repeated anonymous read from the cache without asking the Worker again', async () => {
		const page = counter('<h1>Board</h1>', { headers: { 'Content-Type': 'text/html' } });
		const url = 'http://localhost/starfall/global/boards/12?page=2';
		expect((await ask(url, page)).state).toBe('MISS');
		const second = await ask(url, page);
		expect(second.state).toBe('HIT');
		expect(second.text).toBe('<h1>Board</h1>');
		expect(second.cacheControl).toBe('public, max-age=0, must-revalidate');
		expect(page.calls).toBe(1);
	});

	// All Posts and a board page are the guest's answer with the member's parts (tests/workers/member-pages.test.ts).
	it("never serves a member's page to anyone: a minted session cookie neither reads nor fills the cache", async () => {
		const url = 'http://localhost/starfall/global/users/1013';
		const cookie = `${SESSION}=${await mintSessionToken(TEST_SECRET, 1)}`;
		const member = counter('<p>Signed in as StarboundSam</p>');
		await ask(url, member, { cookie });
		await ask(url, member, { cookie });
		expect(member.calls).toBe(2);
		expect(member.asked[0]?.headers.get('cookie')).toBe(cookie);
		const guest = counter('<p>Welcome, guest</p>');
		const anonymous = await ask(url, guest);
		expect(anonymous.text).not.toContain('StarboundSam');
		expect(guest.calls).toBe(1);
	});

	it('serves a made-up session cookie from the cache, and never passes it to the Worker', async () => {
		const url = 'http://localhost/starfall/global/boards/16';
		const guest = counter('<p>Welcome, guest</p>');
		await ask(url, guest);
		for (const junk of [
			'abc',
			`${'a'.repeat(43)}.${'b'.repeat(43)}`,
			await mintSessionToken('another-deployment-secret-0123456789', 1),
			await mintSessionToken(TEST_SECRET, 2),
		]) {
			expect((await ask(url, guest, { cookie: `${SESSION}=${junk}` })).state).toBe('HIT');
		}
		expect(guest.calls).toBe(1);
		const miss = counter('<p>guest</p>');
		await ask('http://localhost/starfall/global/boards/16?page=2', miss, { cookie: `${SESSION}=abc; other=1` });
		expect(miss.asked[0]?.headers.get('cookie')).toBeNull();
	});

	it('serves a session cookie whose token has passed its end from the cache, as a guest, without D1', async () => {
		const url = 'http://localhost/starfall/global/boards/17';
		const guest = counter('<p>Welcome, guest</p>');
		await ask(url, guest);
		const ended = `${SESSION}=${await mintSessionToken(TEST_SECRET, 1, Date.now() - 1000)}`;
		const answer = await ask(url, guest, { cookie: ended });
		expect([answer.state, answer.text]).toEqual(['HIT', '<p>Welcome, guest</p>']);
		expect(guest.calls).toBe(1);
		// The Worker, asked with such a cookie, knows it ended without reading its row.
		const { db, statements } = recordingDb();
		expect((await resolveSession(db, 1, ended.split('=')[1] ?? null, TEST_SECRET)).kind).toBe('expired');
		expect(statements).toEqual([]);
	});

	it("reads a member's real session cookie as a guest's once the end its token carries has passed, logged out or not", async () => {
		const url = 'http://localhost/starfall/global/boards/18';
		const cookie = await signIn(1015);
		const member = counter('<p>A page for the member</p>');
		await ask(url, member, { cookie });
		expect(member.asked[0]?.headers.get('cookie')).toBe(cookie);
		expect((await call(`${memberApi()}/auth/logout`, { method: 'POST', cookie })).code).toBe(0);
		// Logged out, the browser drops the cookie (the answer clears it); one still sent before the
		// token's end goes to the Worker, which reads that the session is gone and clears it again.
		await ask(url, member, { cookie });
		expect(member.calls).toBe(2);
		// From the end the token carries (the session's own: SESSION_MAX_MS after sign-in), it is a guest's read.
		const past = Date.now() + SESSION_MAX_MS + 1000;
		const guest = counter('<p>Welcome, guest</p>');
		expect((await ask(url, guest, { cookie }, past)).state).toBe('MISS');
		expect(guest.asked[0]?.headers.get('cookie')).toBeNull();
		expect((await ask(url, guest, { cookie }, past)).state).toBe('HIT');
		expect([member.calls, guest.calls]).toEqual([2, 1]);
	});

	it('keys a page by what it reads: unknown keys, a client __v, junk values and a trailing slash make no new entry', async () => {
		const board = counter('<h1>Guides</h1>');
		await ask('http://localhost/starfall/kr/boards/23', board);
		for (const variant of [
			'/boards/23/',
			'/boards/23?junk=1',
			'/boards/23?__v=evil',
			'/boards/23?page=1',
			'/boards/23?page=abc',
			'/boards/23?page=-4',
			'/boards/23?subjectId=999999',
			'/boards/23?subjectId=x&utm_source=feed',
		]) {
			expect((await ask(`http://localhost/starfall/kr${variant}`, board)).state, variant).toBe('HIT');
		}
		expect(board.calls).toBe(1);
		expect(new URL(board.asked[0]?.url ?? '').search).toBe('');
	});

	it('asks the Worker for the canonical URL: a page past the last is the last, keys in one order', async () => {
		const page = counter('<h1>Last page</h1>');
		await ask('http://localhost/starfall/tw/boards/52/?page=999999&junk=1', page);
		const asked = new URL(page.asked[0]?.url ?? '');
		expect(asked.pathname).toBe('/starfall/tw/boards/52');
		expect(asked.searchParams.get('page')).toBe('2');
		expect((await ask('http://localhost/starfall/tw/boards/52?page=2', page)).state).toBe('HIT');
		const category = counter('<h1>A category</h1>');
		await ask('http://localhost/starfall/tw/boards/52?utm=1&subjectId=521&page=1', category);
		expect(new URL(category.asked[0]?.url ?? '').search).toBe('?subjectId=521');
	});

	it('leaves an API read with an unknown key or a bad value to the Worker, which refuses it', async () => {
		const api = counter('{"header":{"isSuccessful":false}}', { status: 400 });
		for (const query of ['junk=1', 'page=abc', 'page=1&page=2', '__v=1']) {
			expect((await ask(`http://localhost/public/v1/starfall/global/posts?${query}`, api)).state, query).toBeNull();
		}
		expect(api.calls).toBe(4);
		const list = counter('{"header":{"isSuccessful":true}}');
		await ask('http://localhost/public/v1/starfall/global/posts?page=2&boardId=12', list);
		expect((await ask('http://localhost/public/v1/starfall/global/posts?boardId=12&page=2', list)).state).toBe('HIT');
	});

	it('caches a results page for guests by its trimmed query, type and page; the API only for a keyword it searches', async () => {
		const results = counter('<h1>Search results</h1>');
		await ask('http://localhost/starfall/global/search?q=raid', results);
		for (const variant of ['q=raid&searchType=TITLE_AND_CONTENT', 'q=%20raid%20&page=1', 'searchType=NOPE&q=raid', 'q=raid&utm=1']) {
			expect((await ask(`http://localhost/starfall/global/search?${variant}`, results)).state, variant).toBe('HIT');
		}
		expect(results.calls).toBe(1);
		expect((await ask('http://localhost/starfall/global/search?q=raid&searchType=TITLE', results)).state).toBe('MISS');
		await ask('http://localhost/starfall/global/search?q=raid&page=999', results);
		expect(new URL(results.asked.at(-1)?.url ?? '').searchParams.get('page')).toBe('50');
		const refused = counter('{"header":{"isSuccessful":false}}', { status: 400 });
		for (const query of ['q=a', 'q=', 'q=ab&searchType=NOPE', 'q=ab&junk=1']) {
			expect((await ask(`http://localhost/public/v1/starfall/global/search?${query}`, refused)).state, query).toBeNull();
		}
		const found = counter('{"header":{"isSuccessful":true}}');
		await ask('http://localhost/public/v1/starfall/global/search?q=raid&searchType=ALL', found);
		expect((await ask('http://localhost/public/v1/starfall/global/search?searchType=ALL&q=raid', found)).state).toBe('HIT');
	});

	it('keys a post page by a valid commentId and the comments read by after, refusing a bad after', async () => {
		const postPage = counter('<h1>A post</h1>');
		await ask('http://localhost/starfall/global/posts/10?commentId=0x1&utm=1', postPage);
		expect(new URL(postPage.asked[0]?.url ?? '').search).toBe('');
		expect((await ask('http://localhost/starfall/global/posts/10?commentId=abc', postPage)).state).toBe('HIT');
		await ask('http://localhost/starfall/global/posts/10?commentId=42', postPage);
		expect(new URL(postPage.asked[1]?.url ?? '').search).toBe('?commentId=42');
		// The page reads commentsAfter only without a valid commentId: beside one, it makes no new key.
		for (const after of [1, 2, 3]) {
			expect((await ask(`http://localhost/starfall/global/posts/10?commentsAfter=${after}&commentId=42`, postPage)).state).toBe('HIT');
		}
		expect(postPage.calls).toBe(2);
		await ask('http://localhost/starfall/global/posts/10?commentsAfter=7&commentId=x', postPage);
		expect(new URL(postPage.asked[2]?.url ?? '').search).toBe('?commentsAfter=7');
		const comments = counter('{"header":{"isSuccessful":true}}');
		await ask('http://localhost/public/v1/starfall/global/posts/10/comments?after=7', comments);
		expect(new URL(comments.asked[0]?.url ?? '').search).toBe('?after=7');
		expect((await ask('http://localhost/public/v1/starfall/global/posts/10/comments?after=7', comments)).state).toBe('HIT');
		for (const query of ['after=x', 'after=0', 'after=7&after=8', 'page=2']) {
			expect((await ask(`http://localhost/public/v1/starfall/global/posts/10/comments?${query}`, comments)).state, query).toBeNull();
		}
	});

	it('never reads the member or admin API, or personal routes, as a channel', async () => {
		for (const url of [
			'http://localhost/v1/starfall/global/me',
			'http://localhost/v1/starfall/global/boards',
			'http://localhost/admin/v1/starfall/global/boards',
			'http://localhost/public/v1/starfall/global/auth/status',
			'http://localhost/starfall/global/mypage',
			'http://localhost/starfall/global/login',
			'http://localhost/starfall/global/write',
		]) {
			const personal = counter('{}');
			await ask(url, personal);
			await ask(url, personal);
			expect(personal.calls, url).toBe(2);
		}
	});

	it('never stores a response that sets a cookie or is private', async () => {
		const url = 'http://localhost/starfall/global/boards/14';
		const withCookie = counter('<p>StarboundSam</p>', { headers: { 'Set-Cookie': 'a=b' } });
		expect((await ask(url, withCookie)).state).toBe('BYPASS');
		const guest = counter('<p>guest</p>');
		expect((await ask(url, guest)).text).toBe('<p>guest</p>');
		const privateUrl = 'http://localhost/starfall/global/boards/15';
		const personal = counter('{"user":{"nickname":"StarboundSam"}}', { headers: { 'Cache-Control': 'private, no-store' } });
		await ask(privateUrl, personal);
		await ask(privateUrl, personal);
		expect(personal.calls).toBe(2);
	});

	it('lets unknown channels through untouched, and remembers at most a bounded number of names', async () => {
		const unknown = counter('missing', { status: 404 });
		expect((await ask('http://localhost/nowhere/none/boards', unknown)).state).toBeNull();
		// The memo's bound itself is proved in tests/unit/memo.test.ts; here, names that are no channel use it too.
		const before = rememberedChannelCount();
		for (let i = 0; i < 20; i += 1) await ask(`http://localhost/probe${i}/x/boards`, unknown);
		expect(rememberedChannelCount()).toBe(Math.min(before + 20, CHANNEL_MEMO_ENTRIES));
	});

	it("never hands one request's channel read in flight to another: two requests that miss at once each read their own row", async () => {
		// A name this isolate has not seen (no such channel: remembered as none, like any name).
		const now = Date.now();
		const first = recordingDb();
		const second = recordingDb();
		const answers = await Promise.all([resolveChannel(first.db, 'race', 'probe', now), resolveChannel(second.db, 'race', 'probe', now)]);
		expect(answers).toEqual([null, null]);
		expect([first.statements.length, second.statements.length]).toEqual([1, 1]);
		// Settled, the answer is shared: a third request reads nothing.
		const third = recordingDb();
		expect(await resolveChannel(third.db, 'race', 'probe', now)).toBeNull();
		expect(third.statements).toHaveLength(0);
	});

	it('misses after the channel content version changes, once the isolate reads the channel again', async () => {
		const url = 'http://localhost/starfall/jp/boards/31';
		const before = counter('old');
		await ask(url, before);
		expect((await ask(url, before)).text).toBe('old');
		await bumpContentVersion(env.DB, 3).run();
		// The isolate trusts its copy of the channel row for one second, and answers it for one more while it reads it again.
		const after = counter('new');
		expect((await ask(url, after, {}, Date.now() + 2001)).text).toBe('new');
	});

	it('misses at once in the isolate that served a write, for the writer and for everyone', async () => {
		const url = 'http://localhost/starfall/global/boards/12?page=3';
		const before = counter('before the post');
		await ask(url, before);
		expect((await ask(url, before)).state).toBe('HIT');
		const cookie = await signIn(1014);
		const written = await call(`${memberApi()}/posts`, {
			method: 'POST',
			cookie,
			body: {
				boardId: 12,
				subjectId: null,
				title: 'Fresh',
				content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Hello' }] }] },
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		expect(written.code).toBe(0);
		const after = counter('with the post');
		const fresh = await ask(url, after);
		expect(fresh.state).toBe('MISS');
		expect(fresh.text).toBe('with the post');
	});
});

/** The real public API as the origin, counting its answers. */
function apiOrigin(): Origin {
	const asked: Request[] = [];
	return {
		answer: (request) => {
			asked.push(request);
			return api.request(request) as unknown as Response;
		},
		get calls() {
			return asked.length;
		},
		asked,
	};
}

/** Asks the real public API through the edge cache and reads its JSON content. */
async function askApi(url: string, origin: Origin, now: number, headers: Record<string, string> = {}) {
	const ctx = createExecutionContext();
	const response = await withEdgeCache(new Request(url, { headers }), env.DB, ctx, async (request) => origin.answer(request), now);
	const body = (await response.json()) as { content: unknown };
	await waitOnExecutionContext(ctx);
	return { state: response.headers.get('X-Edge-Cache'), content: body.content };
}

const ADMIN: SessionMember = { userId: 1001, nickname: 'admin', role: 'ADMIN', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 };
const PAGES = 'http://localhost/starfall/global';

/** A new visible post of the free board (12), with no comments or likes; one per post-version bucket in use. */
async function newPost(title: string): Promise<number> {
	const row = await env.DB.prepare(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (1, 12, 1007, ?1, '{"type":"doc","blocks":[]}', '', ?2) RETURNING id`,
	)
		.bind(title, Date.now())
		.first<{ id: number }>();
	return row!.id;
}

/** A comment written through the member API (the comments service batches touchPost with it). */
async function comment(postId: number, content: string, memberId = 1007): Promise<number> {
	const answer = await call(`${memberApi()}/posts/${postId}/comments`, { method: 'POST', cookie: await signIn(memberId), body: { content } });
	expect(answer.code).toBe(0);
	return (answer.body['content'] as { comment: { commentId: number } }).comment.commentId;
}

const texts = (content: unknown) => JSON.stringify(content);
const likeCount = (content: unknown) => (content as { likeCount: number }).likeCount;

/**
 * Freshness while members talk. Every read passes its time: the isolate trusts its copy of the
 * channel row for a second and a guest's entry for GUEST_MAX_AGE_MS, and the tests step over those
 * bounds instead of waiting. The clock starts an hour ahead so that nothing cached by the tests
 * above (at the real time) is older or newer than the test means.
 */
describe('edge cache while members talk', () => {
	let clock = Date.now() + 3_600_000;
	/** A new moment, ten minutes after the last test's, so no test inherits the previous one's entries' ages. */
	const moment = () => (clock += 600_000);

	it("a comment on post A reaches the guests of A's page and reads at their first read after it; post B and the board pages stay as they were", async () => {
		const a = await newPost('Post A');
		const b = await newPost('Post B');
		expect(a % POST_VERSION_BUCKETS).not.toBe(b % POST_VERSION_BUCKETS);
		const t = moment();
		const pages = counter('<h1>page</h1>');
		const reads = apiOrigin();
		const warm = [`${PAGES}/posts/${b}`, `${PAGES}/boards/12`, `${PAGES}/boards`, `${PAGES}/boards/12?page=2`, `${PAGES}/users/1007`];
		const warmApi = [`${publicApi()}/posts/${b}`, `${publicApi()}/posts/${b}/comments`, `${publicApi()}/posts?boardId=12`];
		for (const url of [`${PAGES}/posts/${a}`, ...warm]) expect((await ask(url, pages, {}, t)).state, url).toBe('MISS');
		for (const url of [`${publicApi()}/posts/${a}`, `${publicApi()}/posts/${a}/comments`, ...warmApi])
			expect((await askApi(url, reads, t)).state, url).toBe('MISS');

		await comment(a, 'First!');
		// At the same moment: the isolate that served the comment reads the channel row again, and an
		// entry older than the post's version is never answered: the first read makes it again, waited for.
		const calls = pages.calls;
		expect((await ask(`${PAGES}/posts/${a}`, pages, {}, t)).state).toBe('MISS');
		expect((await ask(`${PAGES}/posts/${a}`, pages, {}, t)).state).toBe('HIT');
		const comments = await askApi(`${publicApi()}/posts/${a}/comments`, reads, t);
		expect([comments.state, texts(comments.content).includes('First!')]).toEqual(['MISS', true]);
		const post = await askApi(`${publicApi()}/posts/${a}`, reads, t);
		expect([post.state, (post.content as { commentCount: number }).commentCount]).toEqual(['MISS', 1]);
		expect((await askApi(`${publicApi()}/posts/${a}`, reads, t)).state).toBe('HIT');
		expect(pages.calls).toBe(calls + 1);
		for (const url of warm) expect((await ask(url, pages, {}, t)).state, url).toBe('HIT');
		for (const url of warmApi) expect((await askApi(url, reads, t)).state, url).toBe('HIT');

		// A comment served by another isolate moves the version without this one dropping its row:
		// its entry is answered within the second the row is trusted, and made again once it is read.
		await touchPost(env.DB, 1, a, 'addition').run();
		expect((await ask(`${PAGES}/posts/${a}`, pages, {}, t + 999)).state).toBe('HIT');
		expect((await ask(`${PAGES}/posts/${a}`, pages, {}, t + 2001)).state).toBe('MISS');
		expect(pages.calls).toBe(calls + 2);
	});

	it("an entry older than its post's version is never answered, even when the page cannot be made again: the reader gets the Worker's answer", async () => {
		const postId = await newPost('Hard to render');
		const t = moment();
		let failing = false;
		const asked: Request[] = [];
		const page: Origin = {
			answer: (request) => {
				asked.push(request);
				return failing ? new Response('busy', { status: 503 }) : new Response(`<h1>page ${asked.length}</h1>`);
			},
			get calls() {
				return asked.length;
			},
			asked,
		};
		const url = `${PAGES}/posts/${postId}`;
		expect((await ask(url, page, {}, t)).state).toBe('MISS');
		await comment(postId, 'Hello there');
		failing = true;
		// Every read asks the Worker, and none is answered the page without the comment.
		for (const at of [t, t + 1, t + 10_000]) {
			const waited = await ask(url, page, {}, at);
			expect([waited.state, waited.text]).toEqual(['BYPASS', 'busy']);
		}
		failing = false;
		const fresh = await ask(url, page, {}, t + 10_001);
		expect([fresh.state, fresh.text]).toEqual(['MISS', '<h1>page 5</h1>']);
	});

	it("the author sees their comment and like at once: a member's read of the post page, the post and its comments goes to the Worker", async () => {
		const postId = await newPost('Talked about');
		const t = moment();
		const cookie = await signIn(1007);
		const page = counter('<h1>page</h1>');
		const reads = apiOrigin();
		await ask(`${PAGES}/posts/${postId}`, page, {}, t);
		await askApi(`${publicApi()}/posts/${postId}`, reads, t);
		await askApi(`${publicApi()}/posts/${postId}/comments`, reads, t);

		await comment(postId, 'My own words');
		expect((await call(`${memberApi()}/posts/${postId}/like`, { method: 'PUT', cookie })).code).toBe(0);
		// At the same moment, the guests' page is made again with the comment (the like alone would
		// change no entry: its count may be a minute old), and the member's reads go to the Worker.
		expect((await ask(`${PAGES}/posts/${postId}`, page, {}, t)).state).toBe('MISS');
		const before = page.calls;
		await ask(`${PAGES}/posts/${postId}`, page, { cookie }, t);
		expect(page.calls).toBe(before + 1);
		expect(page.asked.at(-1)?.headers.get('cookie')).toBe(cookie);
		const own = await askApi(`${publicApi()}/posts/${postId}`, reads, t, { cookie });
		expect([own.state, likeCount(own.content)]).toEqual([null, 1]);
		const ownComments = await askApi(`${publicApi()}/posts/${postId}/comments`, reads, t, { cookie });
		expect(texts(ownComments.content)).toContain('My own words');
		// The guests' read of the post, made again since the comment, has the like too.
		expect(likeCount((await askApi(`${publicApi()}/posts/${postId}`, reads, t)).content)).toBe(1);
	});

	it('a guest sees a new like count within a minute, never later, and a hot entry is made again in the background', async () => {
		const hot = await newPost('Liked often');
		const cold = await newPost('Liked once');
		const cookie = await signIn(1008);
		const t = moment();
		const reads = apiOrigin();
		for (const postId of [hot, cold]) expect(likeCount((await askApi(`${publicApi()}/posts/${postId}`, reads, t)).content)).toBe(0);
		for (const postId of [hot, cold]) expect((await call(`${memberApi()}/posts/${postId}/like`, { method: 'PUT', cookie })).code).toBe(0);
		// A like invalidates nothing: the count a guest sees may be up to a minute old.
		const unchanged = await askApi(`${publicApi()}/posts/${hot}`, reads, t + 1001);
		expect([unchanged.state, likeCount(unchanged.content)]).toEqual(['HIT', 0]);
		// Near the end of its life, a hot entry is still served at once, and made again meanwhile.
		const calls = reads.calls;
		const late = await askApi(`${publicApi()}/posts/${hot}`, reads, t + REFRESH_AFTER_MS);
		expect([late.state, likeCount(late.content)]).toEqual(['HIT', 0]);
		expect(reads.calls).toBe(calls + 1);
		const refreshed = await askApi(`${publicApi()}/posts/${hot}`, reads, t + REFRESH_AFTER_MS + 1);
		expect([refreshed.state, likeCount(refreshed.content)]).toEqual(['HIT', 1]);
		// An entry nobody read meanwhile is dropped at its age limit by both levels: the isolate's
		// memory, and the Cache API, which still holds it by the wall clock.
		const last = await askApi(`${publicApi()}/posts/${cold}`, reads, t + REFRESH_AFTER_MS - 1);
		expect([last.state, likeCount(last.content)]).toEqual(['HIT', 0]);
		const expired = await askApi(`${publicApi()}/posts/${cold}`, reads, t + GUEST_MAX_AGE_MS);
		expect([expired.state, likeCount(expired.content)]).toEqual(['MISS', 1]);
	});

	it('a hidden post, a deleted post and a hidden comment disappear for every guest within two seconds', async () => {
		const hidden = await postWhere('board_id = 12 AND board_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL AND is_notice = 0');
		const author = await signIn(1014);
		const written = await call(`${memberApi()}/posts`, {
			method: 'POST',
			cookie: author,
			body: {
				boardId: 12,
				subjectId: null,
				title: 'Soon gone',
				content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Bye' }] }] },
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		const deleted = (written.body['content'] as { postId: number }).postId;
		const discussed = await newPost('Moderated discussion');
		const rude = await comment(discussed, 'Something rude');
		const regretted = await comment(discussed, 'Something regretted', 1008);
		const t = moment();
		const pages = counter('<h1>page</h1>');
		const reads = apiOrigin();
		const urls = [`${PAGES}/posts/${hidden}`, `${PAGES}/posts/${deleted}`, `${PAGES}/boards/12`, `${PAGES}/boards`, `${PAGES}/posts/${discussed}`];
		for (const url of urls) await ask(url, pages, {}, t);
		for (const postId of [hidden, deleted])
			expect((await askApi(`${publicApi()}/posts/${postId}`, reads, t)).content).toMatchObject({ readable: true });
		const shown = texts((await askApi(`${publicApi()}/posts/${discussed}/comments`, reads, t)).content);
		expect([shown.includes('Something rude'), shown.includes('Something regretted')]).toEqual([true, true]);

		await hidePost(env.DB, 1, ADMIN, hidden);
		expect((await call(`${memberApi()}/posts/${deleted}`, { method: 'DELETE', cookie: author })).code).toBe(0);
		await hideComment(env.DB, 1, ADMIN, rude);
		const deletion = await call(`${memberApi()}/posts/${discussed}/comments/${regretted}`, { method: 'DELETE', cookie: await signIn(1008) });
		expect(deletion.code).toBe(0);
		const within = t + 2001;
		for (const url of urls) expect((await ask(url, pages, {}, within)).state, url).toBe('MISS');
		expect((await askApi(`${publicApi()}/posts/${hidden}`, reads, within)).content).toMatchObject({ readable: false, state: 'HIDDEN_BY_ADMIN' });
		expect((await askApi(`${publicApi()}/posts/${deleted}`, reads, within)).content).toMatchObject({ readable: false, state: 'DELETED' });
		const comments = await askApi(`${publicApi()}/posts/${discussed}/comments`, reads, within);
		expect(comments.state).toBe('MISS');
		expect(texts(comments.content)).not.toMatch(/Something (rude|regretted)/);
	});

	it('touchPost writes one row, moves only its bucket, and the buckets stay bounded however many posts are touched', async () => {
		const buckets = async () =>
			JSON.parse((await env.DB.prepare('SELECT post_versions FROM channels WHERE id = 5').first<string>('post_versions'))!) as Record<string, number>;
		const { db, statements } = recordingDb();
		await db.batch([touchPost(db, 5, 77, 'addition'), touchPost(db, 5, 77, 'removal')]);
		expect(statements.map((statement) => statement.rowsWritten)).toEqual([1, 1]);
		await env.DB.batch([touchPost(env.DB, 5, 77 + POST_VERSION_BUCKETS, 'addition'), touchPost(env.DB, 5, 78, 'addition')]);
		expect(await buckets()).toMatchObject({ 77: 3, 78: 1 });
		// A removal moves the bucket's removal counter too (it keys the entries); an addition does not.
		const removals = JSON.parse(
			(await env.DB.prepare('SELECT post_removal_versions FROM channels WHERE id = 5').first<string>('post_removal_versions'))!,
		) as Record<string, number>;
		expect(removals).toEqual({ 77: 1 });
		const touches = Array.from({ length: POST_VERSION_BUCKETS + 100 }, (_, i) => touchPost(env.DB, 5, 1000 + i, 'addition'));
		await env.DB.batch(touches);
		const after = await buckets();
		expect(Object.keys(after)).toHaveLength(POST_VERSION_BUCKETS);
		expect(Object.values(after).reduce((sum, counter) => sum + counter, 0)).toBe(4 + POST_VERSION_BUCKETS + 100);
	});
});

/** A post written through the member API by `memberId` on `boardId`; answers its id. */
async function writePost(memberId: number, boardId: number, title: string, text: string): Promise<number> {
	const written = await call(`${memberApi()}/posts`, {
		method: 'POST',
		cookie: await signIn(memberId),
		body: {
			boardId,
			subjectId: null,
			title,
			content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] },
			isPrivate: false,
			isNotice: false,
			requestId: crypto.randomUUID(),
		},
	});
	expect(written.code).toBe(0);
	return (written.body['content'] as { postId: number }).postId;
}

/** The author's edit of a post through the member API: a new title and body, as given. */
async function editThrough(memberId: number, postId: number, boardId: number, title: string, text: string): Promise<void> {
	const version = await env.DB.prepare('SELECT version FROM posts WHERE id = ?1').bind(postId).first<number>('version');
	const edited = await call(`${memberApi()}/posts/${postId}`, {
		method: 'PUT',
		cookie: await signIn(memberId),
		body: {
			boardId,
			subjectId: null,
			title,
			content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] },
			isPrivate: false,
			isNotice: false,
			version,
		},
	});
	expect(edited.code).toBe(0);
}

/**
 * What a post's change invalidates: only what it changed. Reads step over the
 * second the isolate trusts its channel row, so each read after a write sees the new versions.
 */
describe('edge cache: a write invalidates only what it changed', () => {
	let clock = Date.now() + 7_200_000;
	const moment = () => (clock += 600_000);
	const AUTHOR = 1014;
	/** Another member, in another profile bucket. */
	const OTHER = 1007;

	/** Warms `urls` (pages and public API reads, through a counting origin) at `t`. */
	async function warm(urls: string[], t: number) {
		const origin = counter('<h1>entry</h1>');
		for (const url of urls) expect((await ask(url, origin, {}, t)).state, url).toBe('MISS');
		return async (at: number) =>
			Object.fromEntries(
				await Promise.all(urls.map(async (url) => [url.replace('http://localhost', ''), (await ask(url, origin, {}, at)).state] as const)),
			);
	}

	it("a body-only edit misses only the post's own reads and search; another board's list, its own board, All Posts, the layout, profiles and other posts stay hits", async () => {
		const edited = await writePost(AUTHOR, 12, 'Edited soon', 'First words');
		const other = await writePost(OTHER, 12, 'Left alone', 'Other words');
		expect(edited % POST_VERSION_BUCKETS).not.toBe(other % POST_VERSION_BUCKETS);
		const t = moment();
		// The post's own reads, and search results, which show its text.
		const own = [
			`${PAGES}/posts/${edited}`,
			`${publicApi()}/posts/${edited}`,
			`${publicApi()}/posts/${edited}/comments`,
			`${PAGES}/search?q=words`,
			`${publicApi()}/search?q=words`,
		];
		const kept = [
			`${PAGES}/boards/13`,
			`${PAGES}/boards/12`,
			`${PAGES}/boards`,
			`${PAGES}/posts/${other}`,
			`${PAGES}/users/${AUTHOR}`,
			`${publicApi()}/posts?boardId=13`,
			`${publicApi()}/posts?boardId=12`,
			`${publicApi()}/posts`,
			`${publicApi()}/layouts/header`,
			`${publicApi()}/boards/tree`,
			`${publicApi()}/boards`,
			`${publicApi()}/users/${AUTHOR}/posts`,
		];
		const states = await warm([...own, ...kept], t);
		await editThrough(AUTHOR, edited, 12, 'Edited soon', 'Second words, the body only');
		const after = await states(t + 2001);
		for (const url of own) expect(after[url.replace('http://localhost', '')], url).toBe('MISS');
		for (const url of kept) expect(after[url.replace('http://localhost', '')], url).toBe('HIT');
	});

	it("a retitle misses its board, All Posts and its author's profile too, and still leaves other boards, the layout, other profiles and other posts", async () => {
		const retitled = await writePost(AUTHOR, 12, 'Old title', 'Words');
		const other = await writePost(OTHER, 13, 'Elsewhere', 'Words');
		const t = moment();
		const missed = [
			`${PAGES}/posts/${retitled}`,
			`${PAGES}/boards/12`,
			`${PAGES}/boards`,
			`${PAGES}/users/${AUTHOR}`,
			`${publicApi()}/posts?boardId=12`,
			`${publicApi()}/posts`,
			`${publicApi()}/users/${AUTHOR}/posts`,
		];
		const kept = [
			`${PAGES}/boards/13`,
			`${PAGES}/posts/${other}`,
			`${PAGES}/users/${OTHER}`,
			`${publicApi()}/posts?boardId=13`,
			`${publicApi()}/layouts/header`,
			`${publicApi()}/boards/tree`,
		];
		const states = await warm([...missed, ...kept], t);
		await editThrough(AUTHOR, retitled, 12, 'New title', 'Words');
		const after = await states(t + 2001);
		for (const url of missed) expect(after[url.replace('http://localhost', '')], url).toBe('MISS');
		for (const url of kept) expect(after[url.replace('http://localhost', '')], url).toBe('HIT');
	});

	it("a new post misses its board, All Posts and its author's profile; other boards, the layout, other profiles and every post page stay hits", async () => {
		const existing = await writePost(OTHER, 12, 'Already there', 'Words');
		const t = moment();
		const missed = [
			`${PAGES}/boards/12`,
			`${PAGES}/boards`,
			`${PAGES}/users/${AUTHOR}`,
			`${publicApi()}/posts?boardId=12`,
			`${publicApi()}/posts`,
			`${publicApi()}/boards/12`,
		];
		const kept = [
			`${PAGES}/boards/13`,
			`${PAGES}/boards/14`,
			`${PAGES}/posts/${existing}`,
			`${PAGES}/users/${OTHER}`,
			`${publicApi()}/posts?boardId=13`,
			`${publicApi()}/posts/${existing}`,
			`${publicApi()}/layouts/header`,
			`${publicApi()}/layouts/footer`,
			`${publicApi()}/boards/tree`,
			`${publicApi()}/boards/13`,
		];
		const states = await warm([...missed, ...kept], t);
		await writePost(AUTHOR, 12, 'Brand new', 'Words');
		const after = await states(t + 2001);
		for (const url of missed) expect(after[url.replace('http://localhost', '')], url).toBe('MISS');
		for (const url of kept) expect(after[url.replace('http://localhost', '')], url).toBe('HIT');
	});

	it('a new post on the last page of a board is reachable at once: the page past the old last is not folded onto it', async () => {
		const count = await env.DB.prepare('SELECT listed_count FROM boards WHERE id = 14').first<number>('listed_count');
		const t = moment();
		const page = counter('<h1>page</h1>');
		// One page more than the board has: folded onto its last page.
		const next = Math.floor(count! / 20) + 2;
		await ask(`${PAGES}/boards/14?page=${next}`, page, {}, t);
		expect(new URL(page.asked.at(-1)?.url ?? '').searchParams.get('page')).toBe(next - 1 === 1 ? null : String(next - 1));
		for (let i = 0; i < 20 - (count! % 20) + 1; i += 1) {
			await env.DB.batch([
				env.DB.prepare('UPDATE boards SET listed_count = listed_count + 1 WHERE id = 14'),
				touchCache(env.DB, 1, { boards: [14], memberId: AUTHOR }),
			]);
		}
		await ask(`${PAGES}/boards/14?page=${next}`, page, {}, t + 2001);
		expect(new URL(page.asked.at(-1)?.url ?? '').searchParams.get('page')).toBe(String(next));
	});

	it('every post write marks the edge cache with one statement writing one row, and the list counters stay bounded however many members write', async () => {
		const member: SessionMember = { userId: AUTHOR, nickname: 'author', role: 'MEMBER', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 };
		const channelWrites = (statements: { sql: string; rowsWritten: number }[]) =>
			statements
				.filter((statement) => /UPDATE channels SET (list_versions|post_versions)/.test(statement.sql))
				.map((statement) => statement.rowsWritten);
		const body = (text: string) => ({ type: 'doc' as const, blocks: [{ type: 'paragraph' as const, children: [{ text }] }] });
		const created = recordingDb();
		const { postId } = await createPost(
			created.db,
			1,
			member,
			{ boardId: 12, subjectId: null, title: 'Counted', content: body('a'), isPrivate: false, isNotice: false, requestId: crypto.randomUUID() },
			Date.now(),
		);
		expect(channelWrites(created.statements)).toEqual([1]);
		const bodyOnly = recordingDb();
		await editPost(
			bodyOnly.db,
			1,
			member,
			postId,
			{ boardId: 12, subjectId: null, title: 'Counted', content: body('b'), isPrivate: false, isNotice: false, version: 1 },
			Date.now(),
		);
		expect(channelWrites(bodyOnly.statements)).toEqual([1]);
		const moved = recordingDb();
		await editPost(
			moved.db,
			1,
			member,
			postId,
			{ boardId: 13, subjectId: null, title: 'Counted', content: body('b'), isPrivate: false, isNotice: false, version: 2 },
			Date.now(),
		);
		expect(channelWrites(moved.statements)).toEqual([1]);
		const removed = recordingDb();
		await deletePost(removed.db, 1, member, postId, Date.now());
		expect(channelWrites(removed.statements)).toEqual([1]);
		// Profiles count by member bucket: however many members write, at most MEMBER_LIST_BUCKETS counters, one per board, All Posts and search.
		const touches = Array.from({ length: MEMBER_LIST_BUCKETS + 200 }, (_, i) =>
			touchCache(env.DB, 5, { boards: [51 + (i % 3)], memberId: 5000 + i }),
		);
		await env.DB.batch(touches);
		const lists = JSON.parse((await env.DB.prepare('SELECT list_versions FROM channels WHERE id = 5').first<string>('list_versions'))!) as Record<
			string,
			number
		>;
		expect(Object.keys(lists)).toHaveLength(MEMBER_LIST_BUCKETS + 3 + 2);
		expect(lists['all']).toBe(MEMBER_LIST_BUCKETS + 200);
	});
});

/**
 * Keys a client cannot multiply (docs/reference/edge-cache.md): a comment id of the client's choosing is
 * stored only when it names a comment of the post, so a post's entries are bounded by its comments
 * however many ids are made up; each made-up one costs its read, which the read limit counts
 * (tests/workers/rate-limits.test.ts).
 */
describe('edge cache: keys a client cannot multiply', () => {
	it("stores a comments read only for an after that names one of the post's comments: 100 made-up ones are answered and none is stored", async () => {
		const row = await env.DB.prepare('SELECT post_id, id FROM comments WHERE channel_id = 1 AND deleted_at IS NULL ORDER BY id LIMIT 1').first<{
			post_id: number;
			id: number;
		}>();
		const base = `${publicApi()}/posts/${row!.post_id}/comments`;
		const reads = apiOrigin();
		const now = Date.now();
		const made = async (query: string) => {
			const ctx = createExecutionContext();
			const response = await withEdgeCache(new Request(`${base}?${query}`), env.DB, ctx, async (request) => reads.answer(request), now);
			const body = (await response.json()) as { header: { resultCode: number } };
			await waitOnExecutionContext(ctx);
			return [response.status, response.headers.get('X-Edge-Cache'), body.header.resultCode];
		};
		for (let i = 0; i < 100; i += 1) expect(await made(`after=${900_000_000 + i}`)).toEqual([404, 'BYPASS', -4041406]);
		// Asked again, a made-up id is read again (and counted), never answered from an entry.
		expect(await made('after=900000000')).toEqual([404, 'BYPASS', -4041406]);
		expect(reads.calls).toBe(101);
		// A made-up post with an after is not stored either; the post's own 404 is (one key per post).
		expect((await askApi(`${publicApi()}/posts/999999999/comments?after=5`, reads, now)).state).toBe('BYPASS');
		expect((await askApi(`${publicApi()}/posts/999999999/comments?after=5`, reads, now)).state).toBe('BYPASS');
		expect((await askApi(`${publicApi()}/posts/999999999/comments`, reads, now)).state).toBe('MISS');
		expect((await askApi(`${publicApi()}/posts/999999999/comments`, reads, now)).state).toBe('HIT');
		// One of the post's comments is stored, and answered from the cache after.
		expect(await made(`after=${row!.id}`)).toEqual([200, 'MISS', 0]);
		expect(await made(`after=${row!.id}`)).toEqual([200, 'HIT', 0]);
	});
});
