import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { withEdgeCache } from '@functions/edge-cache';
import { bumpContentVersion } from '@/server/channels/channels';

/** Asks through the edge cache; `origin` counts how often the Worker really had to answer. */
async function ask(url: string, origin: () => Response, headers: Record<string, string> = {}) {
	const ctx = createExecutionContext();
	const response = await withEdgeCache(new Request(url, { headers }), env.DB, ctx, async () => origin());
	const text = await response.text();
	await waitOnExecutionContext(ctx);
	return { text, state: response.headers.get('X-Edge-Cache'), cacheControl: response.headers.get('Cache-Control') };
}

function counter(body: string, init?: ResponseInit) {
	let calls = 0;
	return {
		origin: () => {
			calls += 1;
			return new Response(body, init);
		},
		get calls() {
			return calls;
		},
	};
}

describe('edge cache', () => {
	it('answers a repeated anonymous read from the cache without asking the Worker again', async () => {
		const page = counter('<h1>Board</h1>', { headers: { 'Content-Type': 'text/html' } });
		const url = 'http://localhost/starfall/global/boards/12?page=3';
		expect((await ask(url, page.origin)).state).toBe('MISS');
		const second = await ask(url, page.origin);
		expect(second.state).toBe('HIT');
		expect(second.text).toBe('<h1>Board</h1>');
		expect(second.cacheControl).toBe('public, max-age=0, must-revalidate');
		expect(page.calls).toBe(1);
	});

	it("never serves a member's page to anyone: a session cookie neither reads nor fills the cache", async () => {
		const url = 'http://localhost/starfall/global/boards/13';
		const member = counter('<p>Signed in as StarboundSam</p>');
		await ask(url, member.origin, { cookie: '__Host-session_starfall_global=abc' });
		await ask(url, member.origin, { cookie: '__Host-session_starfall_global=abc' });
		expect(member.calls).toBe(2);
		const guest = counter('<p>Welcome, guest</p>');
		const anonymous = await ask(url, guest.origin);
		expect(anonymous.text).not.toContain('StarboundSam');
		expect(guest.calls).toBe(1);
	});

	it('never stores a response that sets a cookie or is private', async () => {
		const url = 'http://localhost/starfall/global/boards/14';
		const withCookie = counter('<p>StarboundSam</p>', { headers: { 'Set-Cookie': 'a=b' } });
		expect((await ask(url, withCookie.origin)).state).toBe('BYPASS');
		const guest = counter('<p>guest</p>');
		expect((await ask(url, guest.origin)).text).toBe('<p>guest</p>');
		const privateUrl = 'http://localhost/starfall/global/boards/15';
		const personal = counter('{"user":{"nickname":"StarboundSam"}}', { headers: { 'Cache-Control': 'private, no-store' } });
		await ask(privateUrl, personal.origin);
		await ask(privateUrl, personal.origin);
		expect(personal.calls).toBe(2);
	});

	it('lets personal routes and unknown channels through untouched', async () => {
		const status = counter('{}');
		await ask('http://localhost/public/v1/starfall/global/auth/status', status.origin);
		await ask('http://localhost/public/v1/starfall/global/auth/status', status.origin);
		expect(status.calls).toBe(2);
		const unknown = counter('missing', { status: 404 });
		expect((await ask('http://localhost/nowhere/none/boards', unknown.origin)).state).toBeNull();
	});

	it('misses after the channel content version changes', async () => {
		const url = 'http://localhost/starfall/jp/boards/31';
		const before = counter('old');
		await ask(url, before.origin);
		expect((await ask(url, before.origin)).text).toBe('old');
		await bumpContentVersion(env.DB, 3).run();
		// The isolate trusts its copy of the channel row for one second.
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const after = counter('new');
		expect((await ask(url, after.origin)).text).toBe('new');
	});
});
