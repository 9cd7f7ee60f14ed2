/**
 * A community's sitemaps (docs/reference/seo.md): boards.xml (All Posts and every board a guest reads) and
 * posts-N.xml (the listed posts of the N-th range of All Posts positions, with their last change).
 */
import type { APIRoute } from 'astro';
import { loadCrawlerChannel, notFound, xmlResponse } from '@/server/loaders/crawler';
import { postsSitemapCountRead, publicBoards, sitemapPostsRead } from '@/server/seo/crawl';
import { sitemapXml } from '@/server/seo/xml';
import { absoluteUrl } from '@/server/seo/page-seo';
import { pageUrls } from '@/lib/urls';

const POSTS_FILE = /^posts-([1-9]\d{0,8})\.xml$/;

export const GET: APIRoute = async ({ params, url }) => {
	const file = params['file'] ?? '';
	const part = POSTS_FILE.exec(file);
	if (file !== 'boards.xml' && !part) return notFound();
	const number = Number(part?.[1] ?? 0);
	// A posts sitemap reads how many there are and its range's posts in one batch.
	const loaded = await loadCrawlerChannel(params, url, (db, channel) => ({
		...(part && { count: postsSitemapCountRead(db, channel.id), posts: sitemapPostsRead(db, channel.id, number) }),
	}));
	if (!loaded) return notFound();
	const { channel, layout, origin, read } = loaded;
	const urls = pageUrls(channel.basePath);
	if (!part) {
		const pages = [urls.boards, ...publicBoards(layout).map((board) => urls.board(board.boardId))];
		return xmlResponse(sitemapXml(pages.map((path) => ({ loc: absoluteUrl(origin, path) }))));
	}
	if (read.count === undefined || read.posts === undefined || number > read.count) return notFound();
	return xmlResponse(sitemapXml(read.posts.map((post) => ({ loc: absoluteUrl(origin, urls.post(post.id)), lastmod: post.changedAt }))));
};
