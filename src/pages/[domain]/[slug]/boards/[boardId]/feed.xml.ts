/** The Atom feed of a board everyone may read (docs/reference/seo.md); any other board has none. */
import type { APIRoute } from 'astro';
import { loadCrawlerChannel, notFound, xmlResponse } from '@/server/loaders/crawler';
import { listFeed } from '@/server/seo/feeds';
import { publicBoards } from '@/server/seo/crawl';
import { IdSchema } from '@/schemas/params';

export const GET: APIRoute = async ({ params, url }) => {
	const boardId = IdSchema.safeParse(params['boardId']);
	const loaded = boardId.success ? await loadCrawlerChannel(params, url) : null;
	const board = loaded && publicBoards(loaded.layout).find((candidate) => candidate.boardId === boardId.data);
	return loaded && board ? xmlResponse(await listFeed(loaded, board), 'application/atom+xml') : notFound();
};
