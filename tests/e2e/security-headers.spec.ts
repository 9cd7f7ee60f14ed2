/**
 * Every kind of answer the built site gives carries the security headers: pages (with their
 * Content-Security-Policy of hashes), API answers, redirects, the error pages, static assets,
 * edge-cache hits and the providers' return.
 */
import { createHash } from 'node:crypto';
import type { APIResponse } from '@playwright/test';
import { execute } from './fixtures';
import { expect, test } from './test';

const STRICT_POLICY = "default-src 'none'; frame-ancestors 'none'";
const PLAYER = 'https://www.youtube-nocookie.com';
/** Pixel Farm's channel id (channels/pixelfarm-main.json): its rows are in its own database. */
const PIXEL_FARM = 4;

function directivesOf(policy: string): Map<string, string[]> {
	const directives = new Map<string, string[]>();
	for (const part of policy.split(';')) {
		const [name, ...values] = part.trim().split(/\s+/);
		if (name) directives.set(name.toLowerCase(), values);
	}
	return directives;
}

/** The one Content-Security-Policy of the answer (a second one would also be enforced). */
function policyOf(response: APIResponse): string {
	const policies = response.headersArray().filter((header) => header.name.toLowerCase() === 'content-security-policy');
	expect(policies, `one Content-Security-Policy on ${response.url()}`).toHaveLength(1);
	return policies[0]?.value ?? '';
}

/** The headers every answer carries, whatever it is. */
function expectCommonHeaders(response: APIResponse, referrerPolicy = 'strict-origin-when-cross-origin') {
	const headers = response.headers();
	const hsts = headers['strict-transport-security'] ?? '';
	expect(Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0), `HSTS max-age on ${response.url()}`).toBeGreaterThanOrEqual(31_536_000);
	expect(hsts).toMatch(/;\s*includeSubDomains/i);
	expect(headers['x-content-type-options']).toBe('nosniff');
	expect(headers['referrer-policy']).toBe(referrerPolicy);
	const permissions = headers['permissions-policy'] ?? '';
	for (const denied of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'bluetooth', 'midi', 'display-capture']) {
		expect(permissions, `${denied} denied on ${response.url()}`).toMatch(new RegExp(`(?:^|,\\s*)${denied}=\\(\\)`));
	}
	// The post page's YouTube player keeps the features its iframe asks for.
	for (const feature of ['autoplay', 'encrypted-media', 'fullscreen', 'picture-in-picture', 'accelerometer', 'gyroscope', 'clipboard-write']) {
		expect(permissions, `${feature} for the player on ${response.url()}`).toContain(`${feature}=(self "${PLAYER}")`);
	}
}

/** An answer that is not a page: nothing may load in it, and nothing may frame it. */
function expectStrictAnswer(response: APIResponse, referrerPolicy?: string) {
	expectCommonHeaders(response, referrerPolicy);
	expect(policyOf(response)).toBe(STRICT_POLICY);
}

/** A page: Astro's policy of hashes, with the site's directives. Returns its directives. */
function expectPagePolicy(response: APIResponse): Map<string, string[]> {
	expectCommonHeaders(response);
	const policy = policyOf(response);
	const directives = directivesOf(policy);
	for (const [name, values] of directives) {
		// No inline code or style by any directive, no eval, no wildcard or scheme-wide source.
		for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", '*', 'data:', 'blob:', 'https:', 'http:']) {
			expect(values, `${name} of ${response.url()}`).not.toContain(unsafe);
		}
	}
	expect(directives.get('default-src')).toEqual(["'none'"]);
	expect(directives.get('object-src')).toEqual(["'none'"]);
	expect(directives.get('base-uri')).toEqual(["'none'"]);
	expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
	// YouTube's image host for video posters (docs/reference/thumbnails.md), a fixed host no writer chooses.
	expect(directives.get('img-src')).toEqual(["'self'", 'https://i.ytimg.com']);
	expect(directives.get('connect-src')).toEqual(["'self'"]);
	expect(directives.get('frame-src')).toEqual([PLAYER]);
	expect(directives.get('form-action')?.[0]).toBe("'self'");
	const scripts = directives.get('script-src') ?? [];
	expect(scripts[0]).toBe("'self'");
	expect(scripts.slice(1).length).toBeGreaterThan(0);
	for (const source of scripts.slice(1)) expect(source).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
	const styles = directives.get('style-src') ?? [];
	expect(styles[0]).toBe("'self'");
	for (const source of styles.slice(1)) expect(source).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
	for (const attributes of ['script-src-attr', 'style-src-attr']) expect(directives.has(attributes)).toBe(false);
	return directives;
}

/** The hash source of every inline <style> of a page. */
function inlineStyleHashes(html: string): string[] {
	return [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/g)].map(
		(match) =>
			`'sha256-${createHash('sha256')
				.update(match[1] ?? '')
				.digest('base64')}'`,
	);
}

test.describe('security headers on every kind of answer', () => {
	test('a page, with every inline style (the channel theme too) allowed by its hash', async ({ request }) => {
		const response = await request.get('/pixelfarm/main/boards');
		expect(response.status()).toBe(200);
		const directives = expectPagePolicy(response);
		const html = await response.text();
		expect(html).toContain('<style>:root{--key:');
		expect(html).not.toMatch(/\sstyle="/);
		const styles = inlineStyleHashes(html);
		expect(styles.length).toBeGreaterThan(1);
		for (const hash of styles) expect(directives.get('style-src')).toContain(hash);
	});

	test('API reads and API errors', async ({ request }) => {
		const read = await request.get('/public/v1/starfall/global/boards/tree');
		expect(read.status()).toBe(200);
		expectStrictAnswer(read);
		const missing = await request.get('/public/v1/starfall/global/boards/99999');
		expect(missing.status()).toBe(404);
		expectStrictAnswer(missing);
		const refused = await request.post('/v1/starfall/global/auth/logout', { headers: { Origin: 'https://evil.example' } });
		expect(refused.status()).toBe(403);
		expectStrictAnswer(refused);
	});

	test('redirects: the channel index (302) and an old post address (301)', async ({ request }) => {
		const index = await request.get('/starfall/global', { maxRedirects: 0 });
		expect(index.status()).toBe(302);
		expectStrictAnswer(index);
		const moved = await request.get('/starfall/global/boards/12/posts/5', { maxRedirects: 0 });
		expect(moved.status()).toBe(301);
		expect(moved.headers()['location']).toBe('/starfall/global/posts/5');
		expectStrictAnswer(moved);
	});

	test('the site-wide not-found page', async ({ request }) => {
		const response = await request.get('/no-such-community/anywhere/at-all');
		expect(response.status()).toBe(404);
		expectPagePolicy(response);
	});

	test('the generic error page of a page that fails', async ({ request }) => {
		// A Pixel Farm post of its own, in no list, sitemap or feed (so on no page another test reads),
		// whose stored date no formatter can read: its page throws.
		const [post] = execute(
			`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
			 SELECT b.channel_id, b.id, (SELECT min(m.id) FROM members m WHERE m.channel_id = b.channel_id), 'A date nobody can read', '{"type":"doc","blocks":[]}', '', 'unreadable'
			 FROM boards b JOIN channels c ON c.id = b.channel_id WHERE c.domain = 'pixelfarm' AND b.is_public = 1 ORDER BY b.id LIMIT 1
			 RETURNING id`,
			PIXEL_FARM,
		) as { id: number }[];
		if (!post) throw new Error('The seed has no Pixel Farm board');
		try {
			const response = await request.get(`/pixelfarm/main/posts/${post.id}`);
			expect(response.status()).toBe(500);
			expect(await response.text()).toContain('Something went wrong');
			expectPagePolicy(response);
		} finally {
			execute(`DELETE FROM posts WHERE id = ${Number(post.id)}`, PIXEL_FARM);
		}
	});

	test('static assets: a bundled script and a demo image', async ({ request }) => {
		const page = await (await request.get('/starfall/global/boards/12')).text();
		const script = /\/_astro\/[\w.-]+\.js/.exec(page)?.[0];
		expect(script, 'a bundled script on the board page').toBeTruthy();
		const bundle = await request.get(script ?? '');
		expect(bundle.status()).toBe(200);
		expectStrictAnswer(bundle);
		// The Cloudflare adapter's caching rule for /_astro/* still applies beside ours.
		expect(bundle.headers()['cache-control']).toContain('immutable');
		const image = await request.get('/demo/starfall-icon.svg');
		expect(image.status()).toBe(200);
		expect(image.headers()['content-type']).toContain('image/svg+xml');
		expectStrictAnswer(image);
	});

	test('an edge-cache hit', async ({ request }) => {
		const url = '/starfall/global/boards/14?page=2';
		let hit: APIResponse | undefined;
		await expect
			.poll(async () => {
				hit = await request.get(url);
				return hit.headers()['x-edge-cache'];
			})
			.toBe('HIT');
		if (!hit) throw new Error('No answer');
		expect(hit.status()).toBe(200);
		expectPagePolicy(hit);
	});

	test("the providers' return keeps its stricter no-referrer", async ({ request }) => {
		const response = await request.get('/starfall/global/oauth', { maxRedirects: 0 });
		expect(response.status()).toBe(303);
		expectStrictAnswer(response, 'no-referrer');
	});

	test("the login page's form may go on only to its providers' authorization endpoints", async ({ request, baseURL }) => {
		const provider = `http://localhost:${Number(new URL(baseURL ?? '').port) + 1}`;
		const login = await request.get('/starfall/global/login');
		expect(login.status()).toBe(200);
		expect(expectPagePolicy(login).get('form-action')).toEqual(["'self'", provider]);
		// A community that offers no sign-in lets forms go nowhere else.
		const none = await request.get('/starfall/jp/login');
		expect(expectPagePolicy(none).get('form-action')).toEqual(["'self'"]);
		// Every other page keeps forms on the site.
		expect(expectPagePolicy(await request.get('/starfall/global/boards/12')).get('form-action')).toEqual(["'self'"]);
	});
});
