import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withSecurityHeaders } from '@functions/shell/security-headers';
import {
	cspHash,
	DEFAULT_REFERRER_POLICY,
	imageSourceDirective,
	PAGE_POLICY_DIRECTIVES,
	SECURITY_HEADERS,
	STRICT_POLICY,
} from '@/server/platform/security-policy';
import { DEFAULT_THEME, themeCss } from '@/server/channels/theme';

/** The headers public/_headers gives every static asset (its `/*` rule). */
function staticAssetHeaders(): Record<string, string> {
	const lines = readFileSync(new URL('../../public/_headers', import.meta.url), 'utf8').split('\n');
	const headers: Record<string, string> = {};
	let inRule = false;
	for (const line of lines) {
		if (line.startsWith('#') || line.trim() === '') continue;
		if (!/^\s/.test(line)) {
			inRule = line.trim() === '/*';
			continue;
		}
		const colon = line.indexOf(':');
		if (inRule) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
	}
	return headers;
}

describe('security headers', () => {
	it('gives static assets exactly the headers the Worker gives its other answers', () => {
		expect(staticAssetHeaders()).toEqual({
			'Content-Security-Policy': STRICT_POLICY,
			...SECURITY_HEADERS,
			'Referrer-Policy': DEFAULT_REFERRER_POLICY,
		});
	});

	it('gives an answer without a policy the strict one, even when its headers are immutable', () => {
		const redirect = Response.redirect('https://board.example/starfall/global/boards', 302);
		const secured = withSecurityHeaders(redirect);
		expect(secured.status).toBe(302);
		expect(secured.headers.get('Location')).toBe('https://board.example/starfall/global/boards');
		expect(secured.headers.get('Content-Security-Policy')).toBe(STRICT_POLICY);
		expect(secured.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin');
		expect(secured.headers.get('X-Content-Type-Options')).toBe('nosniff');
		expect(secured.headers.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
		expect(secured.headers.get('Permissions-Policy')).toContain('camera=()');
	});

	it("keeps a page's own policy and a stricter Referrer-Policy", async () => {
		const page = new Response('<p>page</p>', {
			headers: { 'Content-Security-Policy': "default-src 'none'; script-src 'self'", 'Referrer-Policy': 'no-referrer' },
		});
		const secured = withSecurityHeaders(page);
		expect(secured.headers.get('Content-Security-Policy')).toBe("default-src 'none'; script-src 'self'");
		expect(secured.headers.get('Referrer-Policy')).toBe('no-referrer');
		expect(await secured.text()).toBe('<p>page</p>');
	});

	it('adds no policy where none is wanted (astro dev, whose pages have none)', () => {
		const secured = withSecurityHeaders(new Response('<p>dev page</p>'), { fallbackPolicy: false });
		expect(secured.headers.has('Content-Security-Policy')).toBe(false);
		expect(secured.headers.get('X-Content-Type-Options')).toBe('nosniff');
	});

	it('lets pages frame only the YouTube player and be framed by nobody', () => {
		expect(PAGE_POLICY_DIRECTIVES).toContain("frame-ancestors 'none'");
		expect(PAGE_POLICY_DIRECTIVES).toContain('frame-src https://www.youtube-nocookie.com');
		expect(PAGE_POLICY_DIRECTIVES.join(';')).not.toContain('unsafe');
	});

	it('hashes a style as browsers do', async () => {
		// `openssl dgst -sha256 -binary | base64` of the same text.
		expect(await cspHash('a{color:red}')).toBe('sha256-6hWWMOcF+mJesSJGYhmK2lkIIEw9Xc5XKGLPVzh8yxs=');
		expect(themeCss(DEFAULT_THEME)).toBe(
			':root{--key:#4f46e5;--on-key:#ffffff;--key-text:#4f46e5;--page-bg:#f5f6fb;--header-bg:#ffffff;--header-text:#000000;--header-key:#4f46e5}',
		);
	});
});

describe("a community's image hosts", () => {
	it('widen img-src by the https origins of its configured images, each once, in order', () => {
		expect(imageSourceDirective([null, undefined, '/demo/logo.svg'])).toBeNull();
		expect(imageSourceDirective(['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png?x=1', 'https://img.example.org:8443/c.png'])).toBe(
			"img-src 'self' https://i.ytimg.com https://cdn.example.com https://img.example.org:8443",
		);
		// A host in another script is written as URL writes it (punycode).
		expect(imageSourceDirective(['https://例え.jp/x.png'])).toBe("img-src 'self' https://i.ytimg.com https://xn--r8jz45g.jp");
		// YouTube's image host (video posters) is in every page's img-src already, and named once.
		expect(imageSourceDirective(['https://i.ytimg.com/vi/x/hqdefault.jpg'])).toBeNull();
	});

	it('never takes anything that could end a source or add a directive, or another scheme', () => {
		for (const url of [
			'https://a;b.com/x.png',
			'https://a,b.com/x.png',
			"https://a'b.com/",
			'http://cdn.example.com/a.png',
			'data:image/png;base64,AAAA',
			'javascript:alert(1)',
			'https://',
			'//cdn.example.com/a.png',
		]) {
			expect(imageSourceDirective([url]), url).toBeNull();
		}
	});
});
