/**
 * The data the server's comments section carries for the island, written and read in one place:
 * `sectionAttributes` gives the section's data attributes (CommentList.astro spreads them) and
 * `readCommentsData` reads them back, typed. The items and the count travel as data (JSON in
 * `data-list`), never read back out of the rendered markup or its formatted text. The page's
 * loader and session sync read `data-user-id`, `data-post-id`, `data-domain`, `data-slug` and
 * `data-texts` themselves (src/page-scripts/comments-loader.ts, session-sync.ts).
 */
import type { Language } from '@/schemas/channel';
import type { CommentItem } from './model';
import type { CommentTexts } from './texts';

export interface CommentsData {
	postId: number;
	/** The signed-in member's id; null for a guest (the shared cached page) and a banned member. */
	userId: number | null;
	isAdmin: boolean;
	/** The page was rendered for a banned member. */
	banned: boolean;
	language: Language;
	domain: string;
	slug: string;
	channelBase: string;
	items: CommentItem[];
	commentCount: number;
	nextAfter: number | null;
	startsAtBeginning: boolean;
	/** The page has the edit history's dialog (src/components/post/RevisionsDialog.astro). */
	revisions: boolean;
	texts: CommentTexts;
}

/** The list the section starts with, as `data-list` holds it. */
interface ListData {
	items: CommentItem[];
	commentCount: number;
}

const flag = (on: boolean) => (on ? '' : undefined);

/** The comments section's data attributes (`data-comments` marks it for the page's scripts). */
export function sectionAttributes(data: CommentsData): Record<`data-${string}`, string | number | undefined> {
	return {
		'data-comments': '',
		'data-post-id': data.postId,
		'data-user-id': data.userId ?? undefined,
		'data-admin': flag(data.isAdmin),
		'data-banned': flag(data.banned),
		'data-language': data.language,
		'data-domain': data.domain,
		'data-slug': data.slug,
		'data-channel-base': data.channelBase,
		'data-next-after': data.nextAfter ?? undefined,
		'data-starts-at-beginning': flag(data.startsAtBeginning),
		'data-revisions-offered': flag(data.revisions),
		'data-texts': JSON.stringify(data.texts),
		'data-list': JSON.stringify({ items: data.items, commentCount: data.commentCount } satisfies ListData),
	};
}

/** What `sectionAttributes` wrote on `section`. */
export function readCommentsData(section: HTMLElement): CommentsData {
	const data = section.dataset;
	const list = JSON.parse(data['list'] ?? '{"items":[],"commentCount":0}') as ListData;
	return {
		postId: Number(data['postId']),
		userId: data['userId'] ? Number(data['userId']) : null,
		isAdmin: data['admin'] !== undefined,
		banned: data['banned'] !== undefined,
		language: (data['language'] ?? 'en') as Language,
		domain: data['domain'] ?? '',
		slug: data['slug'] ?? '',
		channelBase: data['channelBase'] ?? '',
		items: list.items,
		commentCount: list.commentCount,
		nextAfter: data['nextAfter'] ? Number(data['nextAfter']) : null,
		startsAtBeginning: data['startsAtBeginning'] !== undefined,
		revisions: data['revisionsOffered'] !== undefined,
		texts: JSON.parse(data['texts'] ?? '{}') as CommentTexts,
	};
}
