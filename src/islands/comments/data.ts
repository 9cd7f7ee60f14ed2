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

/**
 * What a member's page carries for blocking (docs/reference/blocking.md): the members they blocked,
 * whose comments are collapsed, and the texts of the collapsed comment and the menu's Block and
 * Unblock. Absent on a guest's page, which stays as it was.
 */
interface BlockingData {
	authors: number[];
	collapsed: string;
	menu: string;
	menuUnblock: string;
}

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
	/** The order of the items, and the post's Best comments (docs/reference/best-comments.md). */
	order: 'oldest' | 'best';
	best: CommentItem[];
	commentCount: number;
	nextAfter: number | null;
	startsAtBeginning: boolean;
	/** The page has the edit history's dialog (src/components/post/RevisionsDialog.astro). */
	revisions: boolean;
	texts: CommentTexts;
	blocking?: BlockingData | undefined;
}

/** The list the section starts with, as `data-list` holds it. */
interface ListData {
	items: CommentItem[];
	commentCount: number;
	best?: CommentItem[];
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
		// The list as a guest's page has it: the member's reports are in their own element (readMemberComments).
		'data-list': JSON.stringify({
			items: data.items.map(sharedItem),
			commentCount: data.commentCount,
			...(data.best.length > 0 && { best: data.best.map(sharedItem) }),
		} satisfies ListData),
		'data-order': data.order === 'best' ? data.order : undefined,
		'data-blocking': data.blocking ? JSON.stringify(data.blocking) : undefined,
	};
}

/** An item as every reader's page carries it: without the reader's own report and like. */
function sharedItem(item: CommentItem): CommentItem {
	if (!item.readable || (item.reported === undefined && item.liked === undefined)) return item;
	const { reported: _mine, liked: _liked, ...shared } = item;
	return shared;
}

/** The comments the member reported and liked, from the member's data element (member-parts.ts memberCommentsHtml); none for a guest. */
function memberMarksOf(section: HTMLElement): { reported: Set<number>; liked: Set<number> } {
	const element = section.querySelector(':scope > script[data-member-comments]');
	const state = element?.textContent ? (JSON.parse(element.textContent) as { reportedComments?: number[]; likedComments?: number[] }) : {};
	return { reported: new Set(state.reportedComments ?? []), liked: new Set(state.likedComments ?? []) };
}

/** Comments from `sharedItem` with the member's own marks put back. */
function withMarks(items: CommentItem[], { reported, liked }: { reported: Set<number>; liked: Set<number> }): CommentItem[] {
	return items.map((item) =>
		item.readable && (reported.has(item.commentId) || liked.has(item.commentId))
			? { ...item, ...(reported.has(item.commentId) && { reported: true }), ...(liked.has(item.commentId) && { liked: true }) }
			: item,
	);
}

/** What `sectionAttributes` wrote on `section`, with the member's own state put back on the items. */
export function readCommentsData(section: HTMLElement): CommentsData {
	const data = section.dataset;
	const list = JSON.parse(data['list'] ?? '{"items":[],"commentCount":0}') as ListData;
	const marks = memberMarksOf(section);
	return {
		postId: Number(data['postId']),
		userId: data['userId'] ? Number(data['userId']) : null,
		isAdmin: data['admin'] !== undefined,
		banned: data['banned'] !== undefined,
		language: (data['language'] ?? 'en') as Language,
		domain: data['domain'] ?? '',
		slug: data['slug'] ?? '',
		channelBase: data['channelBase'] ?? '',
		items: withMarks(list.items, marks),
		order: data['order'] === 'best' ? 'best' : 'oldest',
		best: withMarks(list.best ?? [], marks),
		commentCount: list.commentCount,
		nextAfter: data['nextAfter'] ? Number(data['nextAfter']) : null,
		startsAtBeginning: data['startsAtBeginning'] !== undefined,
		revisions: data['revisionsOffered'] !== undefined,
		texts: JSON.parse(data['texts'] ?? '{}') as CommentTexts,
		...(data['blocking'] ? { blocking: JSON.parse(data['blocking']) as BlockingData } : {}),
	};
}
