/**
 * Reach (docs/reference/seo.md) as crawlers and link previews meet it: a crawler's walk from robots.txt through
 * every sitemap to every URL they list, the head of a post with and without an image and of one with
 * hostile text, the pages that stay out of search engines, and the status of a missing or deleted post.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './test';
import { demoIds, execute } from './fixtures';
import { signInContext } from './sessions';
import { imageSize } from '../image-size';

const GLOBAL = { index: 1, domain: 'starfall', slug: 'global' };

/** The <loc> values of a sitemap or sitemap index. */
const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));

async function text(request: APIRequestContext, url: string) {
	const response = await request.get(url);
	expect(response.status(), url).toBe(200);
	return response.text();
}

test('a crawler walks robots.txt, every sitemap and every URL they list: each answers 200, indexable, canonical to itself', async ({
	request,
	baseURL,
}) => {
	test.setTimeout(240_000);
	const robots = await request.get('/robots.txt');
	expect(robots.headers()['content-type']).toBe('text/plain; charset=utf-8');
	const indexes = [...(await robots.text()).matchAll(/^Sitemap: (.+)$/gm)].map((match) => match[1]!);
	expect(indexes).toContain(`${baseURL}/starfall/global/sitemap.xml`);
	const files = (await Promise.all(indexes.map(async (index) => locations(await text(request, index))))).flat();
	const pages = (await Promise.all(files.map(async (file) => locations(await text(request, file))))).flat();
	expect(pages.length).toBeGreaterThan(500);
	expect(new Set(pages).size).toBe(pages.length);
	// Four at a time: each page is asked once, as a crawler does. A search engine's crawler comes from
	// many addresses: each ask from one of its own (CF-Connecting-IP, which the local runtime keeps as
	// sent), so that a thousand posts in a minute are not refused by the read limit per address
	// (docs/reference/rate-limits.md), which the other tests' reads from this machine share.
	const queue = [...pages];
	let asked = 0;
	const crawlerAddress = () => ((asked += 1), `10.200.${(asked >> 8) & 255}.${asked & 255}`);
	// Node's own fetch rather than the test's request context: through the context, each of these pages would
	// also travel from Playwright's driver process to the test's process, and be parsed and copied on both sides.
	const walk = async () => {
		for (let url = queue.shift(); url; url = queue.shift()) {
			const response = await fetch(url, { redirect: 'manual', headers: { 'cf-connecting-ip': crawlerAddress() } });
			// Other tests remove posts as this one walks: a post that answers 404 or 410 must have left
			// All Posts since the sitemap was read.
			const postId = /\/posts\/(\d+)$/.exec(url)?.[1];
			if (postId && [404, 410].includes(response.status)) {
				await response.body?.cancel();
				expect(execute(`SELECT id FROM posts WHERE id = ${Number(postId)} AND channel_seq IS NOT NULL`), url).toEqual([]);
				continue;
			}
			expect(response.status, url).toBe(200);
			expect(response.headers.get('x-robots-tag'), url).toBeNull();
			const html = await response.text();
			expect(/<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&'), url).toBe(url);
			expect(html, url).not.toContain('name="robots"');
		}
	};
	await Promise.all([walk(), walk(), walk(), walk()]);
});

/**
 * How the edge cache answers the second of two asks of `path` in a row. Other tests write in the
 * same communities meanwhile, and a write that moves a version the key carries makes the second a
 * miss: callers ask again until a pair falls between writes.
 */
async function secondAsk(request: APIRequestContext, path: string) {
	await request.get(path);
	const second = await request.get(path);
	return second.status() >= 500 ? `status ${second.status()}` : second.headers()['x-edge-cache'];
}

/** The head's meta values and JSON-LD of the page open in `page`. */
async function head(page: Page) {
	return page.evaluate(() => {
		const meta = (key: string) => document.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
		return {
			canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
			title: meta('og:title'),
			description: meta('og:description'),
			type: meta('og:type'),
			url: meta('og:url'),
			siteName: meta('og:site_name'),
			locale: meta('og:locale'),
			image: meta('og:image'),
			imageType: meta('og:image:type'),
			imageWidth: meta('og:image:width'),
			imageHeight: meta('og:image:height'),
			imageAlt: meta('og:image:alt'),
			card: meta('twitter:card'),
			robots: meta('robots'),
			jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) => JSON.parse(script.textContent ?? '')),
			lang: document.documentElement.lang,
		};
	});
}

/** A meta tag's value in a page's HTML as served (`<meta property|name="key" content="…">`), its entities decoded. */
function metaIn(html: string, key: string): string | null {
	const value = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1];
	if (value === undefined) return null;
	const entities: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&lt;': '<', '&gt;': '>' };
	return value.replace(/&(?:amp|quot|lt|gt|#39|#x27);/g, (entity) => entities[entity] ?? entity);
}

/** What `head()` reads from a page, read from its HTML as served: what a crawler or a link preview reads, with no browser. */
function headOf(html: string): Awaited<ReturnType<typeof head>> {
	return {
		canonical: /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null,
		title: metaIn(html, 'og:title'),
		description: metaIn(html, 'og:description'),
		type: metaIn(html, 'og:type'),
		url: metaIn(html, 'og:url'),
		siteName: metaIn(html, 'og:site_name'),
		locale: metaIn(html, 'og:locale'),
		image: metaIn(html, 'og:image'),
		imageType: metaIn(html, 'og:image:type'),
		imageWidth: metaIn(html, 'og:image:width'),
		imageHeight: metaIn(html, 'og:image:height'),
		imageAlt: metaIn(html, 'og:image:alt'),
		card: metaIn(html, 'twitter:card'),
		robots: metaIn(html, 'robots'),
		jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]!)),
		lang: /<html lang="([^"]*)"/.exec(html)?.[1] ?? '',
	};
}

test('a post with an image previews with its title, text and image, and carries its structured data', async ({ request, baseURL }) => {
	// A demo post with an image and visible comments (other tests add or remove comments on posts of their own).
	const [picked] = execute(
		`SELECT p.id, p.board_id AS boardId FROM posts p WHERE p.channel_id = 1 AND p.has_image = 1 AND p.channel_seq IS NOT NULL
		 AND (SELECT count(*) FROM comments c WHERE c.post_id = p.id AND c.deleted_at IS NULL AND c.hidden_by_admin = 0) >= 2 ORDER BY p.id LIMIT 1`,
	) as { id: number; boardId: number }[];
	const postWithImage = picked!.id;
	// The page as served after the redirects, which is what a link preview reads.
	const response = await request.get(`/starfall/global/boards/${picked!.boardId}/posts/${postWithImage}?utm_source=discord`);
	expect(response.url()).toMatch(new RegExp(`/starfall/global/posts/${postWithImage}`));
	const html = await response.text();
	const found = headOf(html);
	const url = `${baseURL}/starfall/global/posts/${postWithImage}`;
	expect(found).toMatchObject({ canonical: url, url, type: 'article', locale: 'en_US', card: 'summary_large_image', robots: null, lang: 'en' });
	// The demo's post images are SVG, which no link preview shows: the community's share image stands in.
	expect(found.image).toBe(`${baseURL}/demo/share-starfall-global.jpg`);
	// The body's opening, cut at 180 characters (the demo's post may be shorter).
	expect(found.description?.length).toBeGreaterThan(0);
	expect(found.description?.length).toBeLessThanOrEqual(180);
	const [posting, breadcrumbs] = found.jsonLd;
	expect(posting).toMatchObject({ '@type': 'DiscussionForumPosting', url, headline: found.title });
	expect(posting.image).toMatch(new RegExp(`^${baseURL}/(?:uploads|demo)/`));
	expect(posting.text.startsWith(found.description!.replace(/…$/, ''))).toBe(true);
	expect(posting.datePublished).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
	expect(posting.author).toMatchObject({ '@type': 'Person', url: expect.stringMatching(new RegExp(`^${baseURL}/starfall/global/users/\\d+$`)) });
	// The counts are those the page shows.
	const likes = Number(/data-like-count[^>]*>([^<]*)</.exec(html)?.[1]?.replace(/\D/g, '') ?? NaN);
	const counts = Object.fromEntries(
		posting.interactionStatistic.map((counter: { interactionType: string; userInteractionCount: number }) => [
			counter.interactionType,
			counter.userInteractionCount,
		]),
	);
	expect(counts['https://schema.org/LikeAction']).toBe(likes);
	expect(posting.comment.length).toBeGreaterThan(0);
	expect(posting.comment[0]).toMatchObject({ '@type': 'Comment', author: { '@type': 'Person' } });
	expect(breadcrumbs['@type']).toBe('BreadcrumbList');
	expect(breadcrumbs.itemListElement.map((item: { item: string }) => item.item)).toEqual([
		`${baseURL}/starfall/global/boards`,
		`${baseURL}/starfall/global/boards/${posting.isPartOf.url.split('/').pop()}`,
		url,
	]);
});

test('a post without an image previews with its community’s share image, in its community’s language', async ({ request, baseURL }) => {
	const [row] = execute(
		'SELECT id FROM posts WHERE channel_id = 2 AND has_image = 0 AND has_video = 0 AND board_seq IS NOT NULL AND deleted_at IS NULL AND hidden_by_admin = 0 LIMIT 1',
	) as { id: number }[];
	const found = headOf(await (await request.get(`/starfall/kr/posts/${row!.id}`)).text());
	expect(found).toMatchObject({
		card: 'summary_large_image',
		locale: 'ko_KR',
		lang: 'ko',
		type: 'article',
		image: `${baseURL}/demo/share-starfall-kr.jpg`,
	});
	expect(found.jsonLd[0].image).toBeUndefined();
});

test('a title and body with </script>, quotes and <!-- stay text in the structured data and the preview', async ({ page, context }) => {
	const hostile = `</script><script>window.pwned = 1</script><!-- "x" 'y' &amp;`;
	// A post of its own (in no list, so no other test meets it), written as the editor stores one.
	const body = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: hostile }] }] });
	const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
	const [row] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (1, 12, 1002, ${quoted(hostile)}, ${quoted(body)}, ${quoted(hostile)}, ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	// A new post: no edge cache holds its page, so this guest's page is made for this request.
	await page.goto(`/starfall/global/posts/${row!.id}`);
	const found = await head(page);
	expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
	expect(found.jsonLd[0].headline).toBe(hostile);
	expect(found.jsonLd[0].text).toBe(hostile);
	expect(found.title).toBe(hostile);
	expect(found.description).toBe(hostile);
	expect(found.jsonLd).toHaveLength(2);
	// The structured data is for crawlers, which read as guests: a signed-in member's page goes without
	// (its HTML as served: the context's request carries the session).
	await signInContext(context, GLOBAL, 1002);
	const member = headOf(await (await context.request.get(`/starfall/global/posts/${row!.id}`)).text());
	expect(member.jsonLd).toEqual([]);
	expect(member.title).toBe(hostile);
	execute(`DELETE FROM posts WHERE id = ${row!.id}`);
});

test('what stays out of search engines says noindex; a missing post answers 404 and a deleted one 410', async ({ request }) => {
	const { deletedPost, privatePost } = demoIds();
	for (const path of [
		'/starfall/global/search?q=guide',
		'/starfall/global/login',
		'/starfall/global/signup',
		'/starfall/global/write',
		'/starfall/global/mypage',
		'/starfall/global/admin',
		'/starfall/global/users/1002',
		'/public/v1/starfall/global/boards',
		'/starfall/global/nothing-here',
	]) {
		const response = await request.get(path, { maxRedirects: 0 });
		expect(response.headers()['x-robots-tag'], path).toBe('noindex');
	}
	const missing = await request.get('/starfall/global/posts/99999999');
	expect([missing.status(), missing.headers()['x-robots-tag']]).toEqual([404, 'noindex']);
	const deleted = await request.get(`/starfall/global/posts/${deletedPost}`);
	expect([deleted.status(), deleted.headers()['x-robots-tag']]).toEqual([410, 'noindex']);
	expect((await request.get(`/starfall/global/posts/${privatePost}`)).status()).toBe(404);
	// A second ask of a removed post is answered by the edge cache (asked in pairs until no other
	// test's write in the community moved its versions between the two).
	await expect.poll(async () => secondAsk(request, `/starfall/global/posts/${deletedPost}`)).toBe('HIT');
	const privateBoard = await request.get('/starfall/global/boards/17');
	expect(await privateBoard.text()).toContain('<meta name="robots" content="noindex">');
});

test('list pages name their feeds, and the second read of a sitemap or feed is an edge-cache hit', async ({ request, baseURL }) => {
	const html = await (await request.get('/starfall/global/boards/12?page=2&utm_campaign=x')).text();
	expect(headOf(html).canonical).toBe(`${baseURL}/starfall/global/boards/12?page=2`);
	expect(
		[...html.matchAll(/<link rel="alternate" type="application\/atom\+xml"[^>]* href="([^"]+)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&')),
	).toEqual([`${baseURL}/starfall/global/boards/12/feed.xml`, `${baseURL}/starfall/global/feed.xml`]);
	for (const path of [
		'/starfall/global/feed.xml',
		'/starfall/global/boards/12/feed.xml',
		'/starfall/global/sitemap.xml',
		'/starfall/global/sitemaps/posts-1.xml',
	]) {
		await expect.poll(async () => secondAsk(request, path), { message: path }).toBe('HIT');
	}
});

test('every demo community previews with a PNG or JPEG share image of the size it declares, with its alt, on lists and on posts whose image is an SVG', async ({
	request,
}) => {
	const communities = execute('SELECT id, domain, slug FROM channels WHERE id BETWEEN 1 AND 5 ORDER BY id') as {
		id: number;
		domain: string;
		slug: string;
	}[];
	expect(communities).toHaveLength(5);
	for (const { id, domain, slug } of communities) {
		// A fan-art post: its first image is one of the demo's SVG illustrations.
		const [post] = execute(
			`SELECT id FROM posts WHERE channel_id = ${id} AND has_image = 1 AND channel_seq IS NOT NULL AND content LIKE '%.svg%' ORDER BY id LIMIT 1`,
		) as { id: number }[];
		for (const path of [`/${domain}/${slug}/boards`, `/${domain}/${slug}/posts/${post!.id}`]) {
			// The preview's tags are in the HTML as served, which is what a link preview reads: no browser needed.
			const found = headOf(await (await request.get(path)).text());
			expect(found.image, path).toMatch(/\.(?:png|jpe?g)$/);
			expect(found, path).toMatchObject({ imageWidth: '1200', imageHeight: '630', card: 'summary_large_image' });
			expect(found.imageAlt?.length, path).toBeGreaterThan(10);
			const image = await request.get(found.image!);
			expect(image.status(), found.image!).toBe(200);
			expect(image.headers()['content-type'], found.image!).toBe(found.imageType);
			expect(['image/png', 'image/jpeg']).toContain(found.imageType);
			const bytes = await image.body();
			expect(bytes.length, found.image!).toBeLessThan(300_000);
			expect(imageSize(bytes), found.image!).toEqual({ width: 1200, height: 630 });
		}
	}
});

test('a post with an image between two sentences previews the two sentences, without the image’s alt text', async ({ request }) => {
	const alt = 'A silver starfighter crossing a violet nebula';
	const body = JSON.stringify({
		type: 'doc',
		blocks: [
			{ type: 'paragraph', children: [{ text: 'I painted my Kestrel last night.' }] },
			{ type: 'image', src: '/demo/shot-01.svg', alt, width: 1280, height: 720 },
			{ type: 'paragraph', children: [{ text: 'The engine trail took longest.' }] },
		],
	});
	const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
	// A post of its own, in no list, so no other test meets it; its id is one no other test's post
	// had (a reused id could meet the edge cache's copy of the page of a post deleted before).
	const [row] = execute(
		`INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (990001, 1, 14, 1002, 'Kestrel painting', ${quoted(body)}, ${quoted(`I painted my Kestrel last night.\n${alt}\nThe engine trail took longest.`)}, ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	const html = await (await request.get(`/starfall/global/posts/${row!.id}`)).text();
	const found = headOf(html);
	expect(found.description).toBe('I painted my Kestrel last night. The engine trail took longest.');
	expect(metaIn(html, 'description')).toBe(found.description);
	expect(found.jsonLd[0].text).not.toContain(alt);
	// The image keeps its alt where it belongs: on the image.
	const main = /<main[\s>][\s\S]*<\/main>/.exec(html)?.[0] ?? '';
	expect([...main.matchAll(new RegExp(`<img [^>]*alt="${alt}"`, 'g'))]).toHaveLength(1);
	execute(`DELETE FROM posts WHERE id = ${row!.id}`);
});
