/**
 * What search engines, link previews and feed readers read of a page (docs/reference/seo.md): which answers
 * may be indexed, absolute URLs, the Open Graph locale of a channel's language, and JSON-LD that
 * no text of a post can break out of.
 */
import { rasterImageType, type Language, type ShareImage } from '@/schemas/channel';

/** The paths under /{domain}/{slug} whose pages are indexed: All Posts, a board's list and a post. */
const INDEXABLE_PAGE = /^\/[^/]+\/[^/]+\/(?:boards|boards\/\d+|posts\/\d+)\/?$/;
/** What crawlers read but do not index as pages: robots.txt, sitemaps and feeds (their own X-Robots-Tag would say nothing useful). */
const CRAWLER_FILE = /^\/(?:robots\.txt|[^/]+\/[^/]+\/(?:sitemap\.xml|sitemaps\/[a-z0-9-]+\.xml|feed\.xml|boards\/\d+\/feed\.xml))$/;

/**
 * Whether an answer carries `X-Robots-Tag: noindex`: everything but a page that answers 200 on an
 * indexable path (a post, a board, All Posts) and the crawlers' own files. Search results, sign-in
 * and sign-up, writing and editing, My Page, profiles, the admin area, the API and every error stay
 * out of search engines.
 */
export function isNoindex(pathname: string, status: number): boolean {
	if (CRAWLER_FILE.test(pathname)) return false;
	return status !== 200 || !INDEXABLE_PAGE.test(pathname);
}

/** The Open Graph locale of a channel's language. */
export function ogLocale(language: Language): string {
	return { en: 'en_US', ja: 'ja_JP', ko: 'ko_KR', zh: 'zh_TW' }[language];
}

/** `pathOrUrl` as an absolute URL on `origin` (an absolute one is kept as it is). */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
	return new URL(pathOrUrl, `${origin}/`).href;
}

/**
 * JSON-LD for the inside of a `<script type="application/ld+json">`: JSON in which `<`, `>` and `&`
 * are escaped (so `</script>` and `<!--` in a title or body cannot end or change the element) and so
 * are U+2028 and U+2029.
 */
export function jsonLdText(value: unknown): string {
	return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A feed a list page names in its head (`<link rel="alternate">`). */
interface FeedLink {
	title: string;
	/** The feed's path on this site. */
	href: string;
}

/** What a page tells search engines and link previews beyond its title and description (MainLayout). */
export interface PageSeo {
	/** The path (and query) of the page's one URL on this site, for a page that is indexed. */
	canonical?: string;
	/** og:type: `article` for a post; `website` otherwise. */
	type?: 'article' | 'website';
	/** The preview's text (og:description), when it is longer than the meta description. */
	previewText?: string;
	/** The page's own preview image (a post's first PNG or JPEG); without one, the community's (previewImageOf). */
	image?: PreviewImage | null;
	/** Structured data, each object one `<script type="application/ld+json">`. */
	jsonLd?: unknown[];
	feeds?: FeedLink[];
	/** A page of an indexed path that shows nothing to index (a private board to a guest). */
	noindex?: boolean;
}

/** The path and query of a list page's canonical URL: its page number past the first, and its category. */
export function listCanonical(path: string, page: number, subjectId?: number): string {
	const query = new URLSearchParams();
	if (subjectId !== undefined) query.set('subjectId', String(subjectId));
	if (page > 1) query.set('page', String(page));
	const search = query.toString();
	return search ? `${path}?${search}` : path;
}

/** A link preview's image (og:image and its width, height, type and alt). */
export interface PreviewImage {
	/** A path on this site, or an https URL. */
	url: string;
	type: 'image/png' | 'image/jpeg';
	/** The size, when known (a community's share image; a post image that recorded it). */
	width?: number | undefined;
	height?: number | undefined;
	alt?: string | undefined;
}

/** The smallest image Facebook shows in a preview; a smaller one gives way to the community's. */
const PREVIEW_MIN_SIDE = 200;

/**
 * A post's image as a preview image: only a PNG or JPEG (an SVG, GIF or WebP is not shown by every
 * preview), and not one recorded smaller than 200 px on a side. Otherwise null, and the community's
 * share image stands in (docs/reference/seo.md#share-images).
 */
export function postPreviewImage(
	image: { src: string; alt: string; width?: number | undefined; height?: number | undefined } | null,
): PreviewImage | null {
	if (!image) return null;
	const type = rasterImageType(image.src);
	if (type === null) return null;
	if ((image.width ?? PREVIEW_MIN_SIDE) < PREVIEW_MIN_SIDE || (image.height ?? PREVIEW_MIN_SIDE) < PREVIEW_MIN_SIDE) return null;
	return { url: image.src, type, width: image.width, height: image.height, alt: image.alt || undefined };
}

/**
 * The community's own picture for previews of its pages: its share image (a PNG or JPEG of
 * 1200×630 with its size and alt), else the first of its header image, banner and logo that is a
 * PNG or JPEG. An SVG is never offered: Facebook, X, LINE and KakaoTalk do not show one.
 */
export function communityImage(channel: {
	pcHeaderImage: string | null;
	banner: { imageUrl: string } | null;
	header: { gameBiIcon: string | null; shareImage?: ShareImage | null };
}): PreviewImage | null {
	const share = channel.header.shareImage;
	if (share) {
		const type = rasterImageType(share.url);
		if (type) return { url: share.url, type, width: share.width, height: share.height, alt: share.alt };
	}
	for (const url of [channel.pcHeaderImage, channel.banner?.imageUrl, channel.header.gameBiIcon]) {
		const type = url ? rasterImageType(url) : null;
		if (url && type) return { url, type };
	}
	return null;
}
