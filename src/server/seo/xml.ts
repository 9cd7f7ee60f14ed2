/**
 * The XML of the crawlers' files (docs/reference/seo.md): sitemaps (sitemaps.org 0.9) and Atom feeds (RFC
 * 4287). Every text is escaped, and characters XML 1.0 cannot carry are dropped.
 */
import { isoDate } from '@/lib/format-date';

/**
 * Whether `ms` is a time a date can show. A row with a broken date (a column that holds no number)
 * loses its date here, or its feed entry, rather than failing the whole file for every crawler.
 */
const isTime = (ms: unknown): ms is number => typeof ms === 'number' && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;

/** Text for XML character data or an attribute value. */
export function xmlText(text: string): string {
	return (
		text
			// Control characters XML 1.0 does not allow (a pasted title may hold one), and lone surrogates.
			// eslint-disable-next-line no-control-regex
			.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
			.replace(/[&<>"']/g, (character) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[character]};`)
	);
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export interface SitemapEntry {
	/** An absolute URL. */
	loc: string;
	/** The last change (ms), when known. */
	lastmod?: number;
}

function entryXml(tag: 'url' | 'sitemap', { loc, lastmod }: SitemapEntry): string {
	return `<${tag}><loc>${xmlText(loc)}</loc>${isTime(lastmod) ? `<lastmod>${isoDate(lastmod)}</lastmod>` : ''}</${tag}>\n`;
}

/** A sitemap index: the sitemaps of a channel. */
export function sitemapIndexXml(sitemaps: SitemapEntry[]): string {
	return `${XML_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.map((entry) => entryXml('sitemap', entry)).join('')}</sitemapindex>\n`;
}

/** A sitemap: the pages it lists. */
export function sitemapXml(urls: SitemapEntry[]): string {
	return `${XML_DECLARATION}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((entry) => entryXml('url', entry)).join('')}</urlset>\n`;
}

interface AtomEntry {
	/** The post's absolute URL: its link and its id. */
	url: string;
	title: string;
	authorName: string;
	published: number;
	updated: number;
	summary: string;
	/** The first image's absolute URL, or null. */
	image: string | null;
}

export interface AtomFeed {
	/** The feed's own absolute URL (its id and rel="self"). */
	selfUrl: string;
	/** The page the feed follows. */
	pageUrl: string;
	title: string;
	/** The language of the channel (xml:lang). */
	language: string;
	/** The community: the feed's author when an entry has none. */
	siteName: string;
	entries: AtomEntry[];
	/** The feed's last change when it has no entry (ms). */
	emptyUpdated: number;
}

const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml' };

function atomEntryXml(entry: AtomEntry): string {
	const type = IMAGE_TYPES[entry.image?.split('.').pop()?.toLowerCase() ?? ''];
	return [
		'<entry>',
		`<id>${xmlText(entry.url)}</id>`,
		`<title type="text">${xmlText(entry.title)}</title>`,
		`<link rel="alternate" type="text/html" href="${xmlText(entry.url)}"/>`,
		entry.image ? `<link rel="enclosure" href="${xmlText(entry.image)}"${type ? ` type="${type}"` : ''}/>` : '',
		`<author><name>${xmlText(entry.authorName)}</name></author>`,
		`<published>${isoDate(entry.published)}</published>`,
		`<updated>${isoDate(entry.updated)}</updated>`,
		`<summary type="text">${xmlText(entry.summary)}</summary>`,
		'</entry>\n',
	].join('');
}

/** An Atom feed of a list's newest posts. */
export function atomXml(feed: AtomFeed): string {
	const entries = feed.entries.filter((entry) => isTime(entry.published) && isTime(entry.updated));
	const updated = Math.max(feed.emptyUpdated, ...entries.map((entry) => entry.updated));
	return [
		XML_DECLARATION,
		`<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlText(feed.language)}">\n`,
		`<id>${xmlText(feed.selfUrl)}</id>`,
		`<title type="text">${xmlText(feed.title)}</title>`,
		`<link rel="self" type="application/atom+xml" href="${xmlText(feed.selfUrl)}"/>`,
		`<link rel="alternate" type="text/html" href="${xmlText(feed.pageUrl)}"/>`,
		`<author><name>${xmlText(feed.siteName)}</name></author>`,
		`<updated>${isoDate(updated)}</updated>\n`,
		...entries.map(atomEntryXml),
		'</feed>\n',
	].join('');
}
