/**
 * What the crawlers' files (robots.txt, sitemaps, feeds: docs/reference/seo.md) load: the channel of the path
 * and its layout, with no session (they are the same for everyone and cached at the edge), and the
 * site's origin for their absolute URLs.
 */
import type { Channel } from '@/server/channels/channels';
import { findCommunity } from '@/server/channels/community';
import { loadLayout, type LayoutData } from '@/server/channels/layout';
import { siteOrigin } from '@/server/platform/site-origin';
import { channelPathOf } from '@/schemas/params';
import { translator, type Translate } from '@/i18n';
import { readAll, type Reads, type ReadValues } from '@/server/platform/reads';

export interface CrawlerChannel<R extends Reads> {
	db: Db;
	channel: Channel;
	layout: LayoutData;
	origin: string;
	t: Translate;
	/** The values of the file's own named reads (loadCrawlerChannel's `reads`). */
	read: ReadValues<R>;
}

/**
 * The channel a crawler's file belongs to, or null when the path names none. `reads`, the file's
 * own named reads, go to D1 in one batch, beside the layout's (one round trip, none when the layout is
 * remembered).
 */
export async function loadCrawlerChannel<R extends Reads = Record<never, never>>(
	params: Record<string, string | undefined>,
	url: URL,
	reads?: (db: Db, channel: Channel) => R,
): Promise<CrawlerChannel<R> | null> {
	const path = channelPathOf(params);
	if (!path) return null;
	const community = await findCommunity(path.domain, path.slug);
	if (!community) return null;
	const { db, channel } = community;
	const [layout, read] = await Promise.all([loadLayout(db, channel), readAll(db, reads?.(db, channel) ?? ({} as R))]);
	return { db, channel, layout, origin: siteOrigin(url), t: translator(channel.language), read };
}

/** An XML answer. */
export function xmlResponse(body: string, type = 'application/xml'): Response {
	return new Response(body, { headers: { 'Content-Type': `${type}; charset=utf-8` } });
}

/** The answer to a crawler's file that is not there. */
export function notFound(): Response {
	return new Response('Not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
