/**
 * What a readable post tells search engines and link previews (docs/reference/seo.md): its canonical URL, a
 * preview of its text (without images' alt text) and first PNG or JPEG image, and the structured data of Google's discussion-forum
 * documentation: a DiscussionForumPosting with its author, dates, counts and first page of comments,
 * and a BreadcrumbList of community, board and post. Built from what the page read already: no query.
 */
import type { Channel } from '@/server/channels/channels';
import type { PostDetail } from '@/server/posts/detail';
import type { CommentItem } from '@/server/comments/comments';
import type { PostAuthor } from '@/server/visibility/author';
import { parseStoredDocument } from '@/schemas/content';
import { excerpt, sentenceExcerpt, storedFirstImageBlock } from '@/server/platform/excerpt';
import { isoDate } from '@/lib/format-date';
import { absoluteUrl, postPreviewImage, type PageSeo } from '@/server/seo/page-seo';
import { pageUrls } from '@/lib/urls';

/** The length of a link preview's text (og:description): a phone's preview card shows about this much. */
const PREVIEW_LENGTH = 180;
/** The longest `text` of the structured data: the post's opening, enough to say what it is about. */
const STRUCTURED_TEXT_LENGTH = 5000;

/** Texts the structured data needs in the community's language. */
export interface PostSeoTexts {
	/** The name shown for a member who has withdrawn. */
	withdrawn: string;
}

/** The YouTube videos of a stored body. */
function videosOf(stored: string): string[] {
	return (parseStoredDocument(stored)?.blocks ?? []).flatMap((block) => (block.type === 'youtube' ? [block.videoId] : []));
}

function person(origin: string, channel: Channel, author: PostAuthor, texts: PostSeoTexts) {
	return author.withdrawn || author.nickname === null
		? { '@type': 'Person', name: texts.withdrawn }
		: { '@type': 'Person', name: author.nickname, url: absoluteUrl(origin, pageUrls(channel.basePath).user(author.userId)) };
}

/**
 * The canonical URL, preview and structured data of a post its reader may read. `text` is the plain
 * text of its body (storedText), which the page has made for its description already. The
 * structured data is for crawlers, which read as guests: a signed-in member's page (never cached,
 * never crawled) goes without it (`structuredData: false`), and without the work of making it.
 */
export function postSeo(
	origin: string,
	channel: Channel,
	post: PostDetail,
	text: string,
	comments: CommentItem[],
	texts: PostSeoTexts,
	{ structuredData = true }: { structuredData?: boolean } = {},
): PageSeo {
	const urls = pageUrls(channel.basePath);
	const first = storedFirstImageBlock(post.content);
	// The preview shows the post's image when it is a PNG or JPEG; the structured data names any first image.
	const image = first?.src ?? null;
	const seo: PageSeo = {
		canonical: urls.post(post.postId),
		type: 'article',
		previewText: sentenceExcerpt(text, PREVIEW_LENGTH),
		image: postPreviewImage(first),
	};
	if (!structuredData) return seo;
	const url = absoluteUrl(origin, urls.post(post.postId));
	const boardUrl = absoluteUrl(origin, urls.board(post.boardId));
	const videos = videosOf(post.content);
	const published = isoDate(post.createdAt);
	const posting = {
		'@context': 'https://schema.org',
		'@type': 'DiscussionForumPosting',
		'@id': url,
		mainEntityOfPage: url,
		url,
		headline: post.title,
		text: excerpt(text, STRUCTURED_TEXT_LENGTH),
		author: person(origin, channel, post.author, texts),
		datePublished: published,
		dateModified: post.editedAt === null ? published : isoDate(post.editedAt),
		...(image ? { image: absoluteUrl(origin, image) } : {}),
		...(videos.length > 0
			? {
					video: videos.map((videoId) => ({
						'@type': 'VideoObject',
						name: post.title,
						embedUrl: `https://www.youtube-nocookie.com/embed/${videoId}`,
						thumbnailUrl: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`,
						uploadDate: published,
					})),
				}
			: {}),
		interactionStatistic: [
			{ '@type': 'InteractionCounter', interactionType: 'https://schema.org/LikeAction', userInteractionCount: post.likeCount },
			{ '@type': 'InteractionCounter', interactionType: 'https://schema.org/CommentAction', userInteractionCount: post.commentCount },
		],
		comment: comments.flatMap((comment) =>
			comment.readable && comment.state === 'VISIBLE'
				? [
						{
							'@type': 'Comment',
							url: absoluteUrl(origin, urls.post(post.postId, comment.commentId)),
							author: person(origin, channel, comment.author, texts),
							datePublished: isoDate(comment.createdAt),
							text: comment.content,
						},
					]
				: [],
		),
		isPartOf: { '@type': 'WebPage', name: post.boardName, url: boardUrl },
	};
	const breadcrumbs = {
		'@context': 'https://schema.org',
		'@type': 'BreadcrumbList',
		itemListElement: [
			{ '@type': 'ListItem', position: 1, name: channel.title, item: absoluteUrl(origin, urls.boards) },
			{ '@type': 'ListItem', position: 2, name: post.boardName, item: boardUrl },
			{ '@type': 'ListItem', position: 3, name: post.title, item: url },
		],
	};
	return { ...seo, jsonLd: [posting, breadcrumbs] };
}
