/**
 * What the post page's comments loader (src/page-scripts/comments-loader.ts) shares with the island,
 * kept tiny: it is part of the JavaScript every post page loads before any interaction.
 */
import { keptCommentStorageKey } from '@/lib/names';

/** The press that woke the island, replayed once it has taken over (Reply, the menu, Show more, Post). */
export interface Wake {
	action: string;
	commentId: number | null;
	/** What was typed into the reply box the page opened before the island (comments-loader.ts), for the island's own. */
	text?: string;
}

/**
 * The event the live banner's Show sends on the comments section (src/page-scripts/live-thread.ts): the
 * loader wakes the island with it (the `live` wake), the island loads the new comments on it.
 */
export const LIVE_SHOW_EVENT = 'comments:show-new';

/**
 * The event a block or unblock sends on the comments section (src/islands/common/block-dialog.ts):
 * the loader wakes the island with it, so that the member's comments collapse or open at once; an
 * island already awake follows the store of blocks itself.
 */
export const BLOCKS_CHANGED_EVENT = 'comments:blocks-changed';

/** The layout's login-required modal (src/components/layout/LoginRequiredDialog.astro). */
export function loginRequiredDialog(): HTMLDialogElement | null {
	return document.querySelector<HTMLDialogElement>('[data-login-required-dialog]');
}

/** Whether the signed-in member of `section` left a comment on this post when their session ended. */
export function hasKeptComment(section: HTMLElement): boolean {
	const { domain = '', slug = '', userId = '', postId = '' } = section.dataset;
	try {
		return localStorage.getItem(keptCommentStorageKey(domain, slug, Number(userId), Number(postId))) !== null;
	} catch {
		return false;
	}
}
