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
		'data-list': JSON.stringify({ items: data.items.map(sharedItem), commentCount: data.commentCount } satisfies ListData),
		'data-blocking': data.blocking ? JSON.stringify(data.blocking) : undefined,
	};
}

/** An item as every reader's page carries it: without the reader's own report. */
function sharedItem(item: CommentItem): CommentItem {
	if (!item.readable || item.reported === undefined) return item;
	const { reported: _mine, ...shared } = item;
	return shared;
}

/** The comments the member reported, from the member's data element (member-parts.ts memberCommentsHtml); none for a guest. */
function reportedOf(section: HTMLElement): Set<number> {
	const element = section.querySelector(':scope > script[data-member-comments]');
	const state = element?.textContent ? (JSON.parse(element.textContent) as { reportedComments?: number[] }) : {};
	return new Set(state.reportedComments ?? []);
}

/** What `sectionAttributes` wrote on `section`, with the member's own state put back on the items. */
export function readCommentsData(section: HTMLElement): CommentsData {
	const data = section.dataset;
	const list = JSON.parse(data['list'] ?? '{"items":[],"commentCount":0}') as ListData;
	const reported = reportedOf(section);
	list.items = list.items.map((item) => (item.readable && reported.has(item.commentId) ? { ...item, reported: true } : item));
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
		...(data['blocking'] ? { blocking: JSON.parse(data['blocking']) as BlockingData } : {}),
	};
}
