/**
 * /robots.txt (docs/reference/seo.md): crawlers may read every page (the pages that must stay out of search
 * engines say so themselves, with X-Robots-Tag), not the JSON API; and each community's sitemap
 * index, as an absolute URL on the site's origin.
 */
import type { APIRoute } from 'astro';
import { loadDirectory } from '@/server/loaders/directory-page';
import { siteOrigin } from '@/server/platform/site-origin';
import { absoluteUrl } from '@/server/seo/page-seo';
import { pageUrls } from '@/lib/urls';

export const GET: APIRoute = async ({ url }) => {
	const origin = siteOrigin(url);
	const communities = await loadDirectory();
	const lines = [
		'User-agent: *',
		'Allow: /',
		'Disallow: /v1/',
		'Disallow: /admin/v1/',
		'Disallow: /public/v1/',
		'',
		...communities.map((community) => `Sitemap: ${absoluteUrl(origin, pageUrls(community.path).sitemap)}`),
	];
	return new Response(`${lines.join('\n')}\n`, {
		headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
	});
};
