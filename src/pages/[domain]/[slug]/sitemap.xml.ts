/** A community's sitemap index (docs/reference/seo.md): its boards' sitemap and one posts sitemap per range of All Posts positions. */
import type { APIRoute } from 'astro';
import { loadCrawlerChannel, notFound, xmlResponse } from '@/server/loaders/crawler';
import { postsSitemapCount } from '@/server/seo/crawl';
import { sitemapIndexXml } from '@/server/seo/xml';
import { absoluteUrl } from '@/server/seo/page-seo';
import { pageUrls } from '@/lib/urls';

export const GET: APIRoute = async ({ params, url }) => {
	const loaded = await loadCrawlerChannel(params, url);
	if (!loaded) return notFound();
	const { db, channel, origin } = loaded;
	const urls = pageUrls(channel.basePath);
	const parts = await postsSitemapCount(db, channel.id);
	const sitemaps = [urls.boardsSitemap, ...Array.from({ length: parts }, (_, index) => urls.postsSitemap(index + 1))];
	return xmlResponse(sitemapIndexXml(sitemaps.map((path) => ({ loc: absoluteUrl(origin, path) }))));
};
