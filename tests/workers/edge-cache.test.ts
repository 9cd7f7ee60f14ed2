/**
 * The edge cache (functions/edge-cache.ts): what it stores, for whom, and under which key. The
 * Worker behind it is a counter, so each test sees how often the Worker really had to answer and
 * what it was asked.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { withEdgeCache } from '@functions/edge-cache';
import { bumpContentVersion, CHANNEL_MEMO_ENTRIES, rememberedChannelCount } from '@/server/channels/channels';
import { mintSessionToken } from '@/server/sign-in/session-token';
import { call, memberApi, signIn, TEST_SECRET } from './harness';

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

	it("never serves a member's page to anyone: a minted session cookie neither reads nor fills the cache", async () => {
		const url = 'http://localhost/starfall/global/boards/13';
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
		for (const junk of ['abc', `${'a'.repeat(43)}.${'b'.repeat(43)}`, await mintSessionToken('another-deployment-secret-0123456789', 1), await mintSessionToken(TEST_SECRET, 2)]) {
			expect((await ask(url, guest, { cookie: `${SESSION}=${junk}` })).state).toBe('HIT');
		}
		expect(guest.calls).toBe(1);
		const miss = counter('<p>guest</p>');
		await ask('http://localhost/starfall/global/boards/16?page=2', miss, { cookie: `${SESSION}=abc; other=1` });
		expect(miss.asked[0]?.headers.get('cookie')).toBeNull();
	});

	it('keys a page by what it reads: unknown keys, a client __v, junk values and a trailing slash make no new entry', async () => {
		const board = counter('<h1>Guides</h1>');
		await ask('http://localhost/starfall/kr/boards/23', board);
		for (const variant of ['/boards/23/', '/boards/23?junk=1', '/boards/23?__v=evil', '/boards/23?page=1', '/boards/23?page=abc', '/boards/23?page=-4', '/boards/23?subjectId=999999', '/boards/23?subjectId=x&utm_source=feed']) {
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

	it("keys a post page by a valid commentId and the comments read by after, refusing a bad after", async () => {
		const postPage = counter('<h1>A post</h1>');
		await ask('http://localhost/starfall/global/posts/10?commentId=0x1&utm=1', postPage);
		expect(new URL(postPage.asked[0]?.url ?? '').search).toBe('');
		expect((await ask('http://localhost/starfall/global/posts/10?commentId=abc', postPage)).state).toBe('HIT');
		await ask('http://localhost/starfall/global/posts/10?commentId=42', postPage);
		expect(new URL(postPage.asked[1]?.url ?? '').search).toBe('?commentId=42');
		expect(postPage.calls).toBe(2);
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

	it('misses after the channel content version changes, once the isolate reads the channel again', async () => {
		const url = 'http://localhost/starfall/jp/boards/31';
		const before = counter('old');
		await ask(url, before);
		expect((await ask(url, before)).text).toBe('old');
		await bumpContentVersion(env.DB, 3).run();
		// The isolate trusts its copy of the channel row for one second.
		const after = counter('new');
		expect((await ask(url, after, {}, Date.now() + 1001)).text).toBe('new');
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
			body: { boardId: 12, subjectId: null, title: 'Fresh', content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Hello' }] }] }, isPrivate: false, isNotice: false, requestId: crypto.randomUUID() },
		});
		expect(written.code).toBe(0);
		const after = counter('with the post');
		const fresh = await ask(url, after);
		expect(fresh.state).toBe('MISS');
		expect(fresh.text).toBe('with the post');
	});
});
