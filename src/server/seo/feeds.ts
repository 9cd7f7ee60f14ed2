/** The Atom feed of a list (docs/reference/seo.md): its newest posts, as feed readers show them. */
import type { Channel } from '@/server/channels/channels';
import { feedEntries } from '@/server/seo/crawl';
import { atomXml } from '@/server/seo/xml';
import { excerpt } from '@/server/platform/excerpt';
import { absoluteUrl } from '@/server/seo/page-seo';
import { htmlLang, type Translate } from '@/i18n';
import { pageUrls } from '@/lib/urls';

/** The length of an entry's summary. */
const SUMMARY_LENGTH = 300;

/** The feed of All Posts (`board` null) or of a board everyone may read. */
/** What a feed is made from: the channel, its database, the site's origin and the channel's texts. */
export interface FeedSource {
	db: Db;
	channel: Channel;
	origin: string;
	t: Translate;
}

export async function listFeed({ db, channel, origin, t }: FeedSource, board: { boardId: number; name: string } | null): Promise<string> {
	const urls = pageUrls(channel.basePath);
	const entries = await feedEntries(db, channel.id, board?.boardId ?? null);
	return atomXml({
		selfUrl: absoluteUrl(origin, board ? urls.boardFeed(board.boardId) : urls.feed),
		pageUrl: absoluteUrl(origin, board ? urls.board(board.boardId) : urls.boards),
		title: `${board ? board.name : t('board.allPosts')} | ${channel.title}`,
		language: htmlLang(channel.language),
		siteName: channel.title,
		emptyUpdated: Date.now(),
		entries: entries.map((entry) => ({
			url: absoluteUrl(origin, urls.post(entry.id)),
			title: entry.title,
			authorName: entry.authorName ?? t('common.withdrawnMember'),
			published: entry.createdAt,
			updated: entry.changedAt,
			summary: excerpt(entry.text, SUMMARY_LENGTH),
			image: entry.image ? absoluteUrl(origin, entry.image) : null,
		})),
	});
}
