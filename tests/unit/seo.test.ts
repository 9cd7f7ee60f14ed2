/** What search engines and link previews read (src/server/seo/page-seo.ts, src/server/seo/xml.ts; docs/reference/seo.md). */
import { describe, expect, it } from 'vitest';
import { absoluteUrl, communityImage, isNoindex, jsonLdText, listCanonical, ogLocale, postPreviewImage } from '@/server/seo/page-seo';
import { atomXml, sitemapXml, xmlText } from '@/server/seo/xml';

describe('which answers search engines may index', () => {
	it.each([
		['/starfall/global/posts/12', 200],
		['/starfall/global/boards', 200],
		['/starfall/global/boards/12', 200],
		['/robots.txt', 200],
		['/starfall/global/sitemap.xml', 200],
		['/starfall/global/sitemaps/posts-1.xml', 200],
		['/starfall/global/feed.xml', 200],
		['/starfall/global/boards/12/feed.xml', 200],
	])('%s answering %i is indexed', (path, status) => {
		expect(isNoindex(path, status)).toBe(false);
	});

	it.each([
		['/starfall/global/search', 200],
		['/starfall/global/login', 200],
		['/starfall/global/oauth', 200],
		['/starfall/global/signup', 200],
		['/starfall/global/signup/nickname', 200],
		['/starfall/global/write', 200],
		['/starfall/global/posts/12/edit', 200],
		['/starfall/global/mypage', 200],
		['/starfall/global/mypage/settings', 200],
		['/starfall/global/admin', 200],
		['/starfall/global/users/1002', 200],
		['/starfall/global/boards/12/posts', 200],
		['/public/v1/starfall/global/posts/12', 200],
		['/starfall/global/posts/999999', 404],
		['/starfall/global/posts/12', 410],
		['/starfall/global/boards/12', 500],
		['/', 200],
	])('%s answering %i is not', (path, status) => {
		expect(isNoindex(path, status)).toBe(true);
	});
});

describe('the head of a page', () => {
	it('names the locale of each language, and absolute URLs on the site', () => {
		expect(['en', 'ja', 'ko', 'zh'].map((language) => ogLocale(language as 'en'))).toEqual(['en_US', 'ja_JP', 'ko_KR', 'zh_TW']);
		expect(absoluteUrl('https://board.example', '/starfall/global/posts/1')).toBe('https://board.example/starfall/global/posts/1');
		expect(absoluteUrl('https://board.example', 'https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
	});

	it('gives a list page its page number past the first and its category, nothing else', () => {
		expect(listCanonical('/s/g/boards/12', 1)).toBe('/s/g/boards/12');
		expect(listCanonical('/s/g/boards/12', 3)).toBe('/s/g/boards/12?page=3');
		expect(listCanonical('/s/g/boards/12', 2, 121)).toBe('/s/g/boards/12?subjectId=121&page=2');
	});

	it("takes the community's share image with its size and alt, else the first PNG or JPEG of its header image, banner and logo, never an SVG", () => {
		const share = { url: '/demo/share.jpg', width: 1200, height: 630, alt: 'Three ships' };
		const channel = { pcHeaderImage: null, banner: null, header: { gameBiIcon: '/demo/logo.png', shareImage: null } };
		expect(communityImage(channel)).toEqual({ url: '/demo/logo.png', type: 'image/png' });
		expect(communityImage({ ...channel, banner: { imageUrl: '/demo/banner.jpg' } })).toEqual({ url: '/demo/banner.jpg', type: 'image/jpeg' });
		expect(communityImage({ ...channel, pcHeaderImage: '/demo/header.png' })).toEqual({ url: '/demo/header.png', type: 'image/png' });
		expect(communityImage({ ...channel, header: { gameBiIcon: '/demo/logo.svg', shareImage: share } })).toEqual({ ...share, type: 'image/jpeg' });
		// An SVG is shown by no link preview: none is offered.
		expect(
			communityImage({ pcHeaderImage: '/demo/h.svg', banner: { imageUrl: '/demo/banner.svg' }, header: { gameBiIcon: '/demo/logo.svg' } }),
		).toBeNull();
		expect(communityImage({ ...channel, header: { gameBiIcon: null } })).toBeNull();
	});

	it("offers a post's first image to previews only as a PNG or JPEG of at least 200 px a side", () => {
		expect(postPreviewImage({ src: '/uploads/a.png', alt: 'A ship', width: 1280, height: 720 })).toEqual({
			url: '/uploads/a.png',
			type: 'image/png',
			width: 1280,
			height: 720,
			alt: 'A ship',
		});
		expect(postPreviewImage({ src: '/uploads/a.jpg', alt: '' })).toMatchObject({ type: 'image/jpeg', alt: undefined });
		expect(postPreviewImage({ src: '/demo/shot-01.svg', alt: 'A ship', width: 1280, height: 720 })).toBeNull();
		expect(postPreviewImage({ src: '/uploads/a.webp', alt: '', width: 1280, height: 720 })).toBeNull();
		expect(postPreviewImage({ src: '/uploads/a.gif', alt: '', width: 1280, height: 720 })).toBeNull();
		expect(postPreviewImage({ src: '/uploads/a.png', alt: '', width: 150, height: 720 })).toBeNull();
		expect(postPreviewImage(null)).toBeNull();
	});

	it('writes JSON-LD that no text can break out of: </script>, <!--, quotes and line separators', () => {
		const hostile = { headline: '</script><script>alert(1)</script>', text: '<!-- "quoted" & \'single\' \u2028\u2029 -->' };
		const text = jsonLdText(hostile);
		expect(text).not.toMatch(/[<>\u2028\u2029]/);
		expect(text).not.toContain('</');
		expect(JSON.parse(text)).toEqual(hostile);
	});
});

describe('the XML of sitemaps and feeds', () => {
	it('escapes markup and drops what XML cannot carry', () => {
		expect(xmlText(`<a href="x">'&'</a>\u0000\u0007\uD800`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
		expect(xmlText('한국어 日本語 中文 😀')).toBe('한국어 日本語 中文 😀');
	});

	it('leaves out the date of a row whose date is broken, and its feed entry, instead of failing the file', () => {
		const broken = 'unreadable' as unknown as number;
		expect(sitemapXml([{ loc: 'https://board.example/a', lastmod: broken }])).toContain('<url><loc>https://board.example/a</loc></url>');
		const feed = atomXml({
			selfUrl: 'https://board.example/f',
			pageUrl: 'https://board.example/p',
			title: 't',
			language: 'en',
			siteName: 's',
			emptyUpdated: 0,
			entries: [{ url: 'https://board.example/x', title: 'x', authorName: 'n', published: broken, updated: broken, summary: '', image: null }],
		});
		expect(feed).not.toContain('<entry>');
	});

	it('dates every entry in ISO 8601 with its zone', () => {
		const xml = sitemapXml([{ loc: 'https://board.example/s/g/posts/1?a=1&b=2', lastmod: Date.UTC(2026, 10, 27, 1, 2, 3) }]);
		expect(xml).toContain('<loc>https://board.example/s/g/posts/1?a=1&amp;b=2</loc><lastmod>2026-11-27T01:02:03.000Z</lastmod>');
		const feed = atomXml({
			selfUrl: 'https://board.example/s/g/feed.xml',
			pageUrl: 'https://board.example/s/g/boards',
			title: 'All Posts | <Starfall>',
			language: 'en',
			siteName: 'Starfall',
			emptyUpdated: 0,
			entries: [
				{
					url: 'https://board.example/s/g/posts/1',
					title: 'A & B',
					authorName: 'Nova',
					published: 0,
					updated: Date.UTC(2026, 0, 1),
					summary: 'x',
					image: 'https://board.example/uploads/a.webp',
				},
			],
		});
		expect(feed).toContain('<updated>2026-01-01T00:00:00.000Z</updated>');
		expect(feed).toContain('<title type="text">All Posts | &lt;Starfall&gt;</title>');
		expect(feed).toContain('<link rel="enclosure" href="https://board.example/uploads/a.webp" type="image/webp"/>');
	});
});
