/** The Atom feed of a community's All Posts (docs/reference/seo.md). */
import type { APIRoute } from 'astro';
import { loadCrawlerChannel, notFound, xmlResponse } from '@/server/loaders/crawler';
import { listFeed } from '@/server/seo/feeds';

export const GET: APIRoute = async ({ params, url }) => {
	const loaded = await loadCrawlerChannel(params, url);
	return loaded ? xmlResponse(await listFeed(loaded, null), 'application/atom+xml') : notFound();
};
