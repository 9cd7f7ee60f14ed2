/**
 * Takes the server-rendered comments section over: reads the data the server wrote on it
 * (./data.ts), then renders the island over it with `createRoot`, in one synchronous commit of the
 * same markup (./CommentsView.tsx renders both), and puts focus, selection and anything already
 * typed back where they were. `createRoot` rather than hydration: the server renders the markup
 * as plain HTML with no React tree to hydrate, and a fresh render cannot fail on a mismatch; the
 * island then owns the section.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import CommentsIsland, { type IslandProps } from './CommentsIsland';
import { readCommentsData } from './data';
import type { Wake } from './wake';
import { seedCounts } from '@/stores/post-counts';
import { showPostCounts } from '@/islands/common/post-counts';

export function mountComments(section: HTMLElement, wake: Wake | null): void {
	const container = section.querySelector<HTMLElement>('[data-comments-root]');
	if (!container || section.dataset['mounted'] !== undefined) return;
	section.dataset['mounted'] = '';
	const box = container.querySelector<HTMLTextAreaElement>('#comment-box-new');
	// The reply box the loader opened at the press on Reply: its text goes to the island's.
	const early = container.querySelector<HTMLTextAreaElement>('[data-comment-form^="reply-"] textarea');
	if (wake?.action === 'reply' && early) wake = { ...wake, text: early.value };
	const active = document.activeElement instanceof HTMLElement && container.contains(document.activeElement) ? document.activeElement : null;
	const selection = active instanceof HTMLTextAreaElement ? [active.selectionStart, active.selectionEnd] : null;
	// A blocked member's comment the reader opened stays open under the island.
	const revealed = [...container.querySelectorAll<HTMLDetailsElement>('details[data-blocked-comment][open]')].map((details) =>
		Number(details.dataset['blockedComment']),
	);
	const props: IslandProps = { ...readCommentsData(section), initialText: box?.value ?? '', wake, revealed };
	// The heading's count, and the post header's, follow the counts store from here on.
	seedCounts(props.postId, { commentCount: props.commentCount });
	showPostCounts(props.postId);
	const root = createRoot(container);
	flushSync(() => root.render(createElement(CommentsIsland, props)));
	const again = active?.id
		? document.getElementById(active.id)
		: active?.dataset['action'] && active.dataset['commentId']
			? container.querySelector<HTMLElement>(`[data-action="${active.dataset['action']}"][data-comment-id="${active.dataset['commentId']}"]`)
			: null;
	// A press replayed takes the focus where it leads, except from a box being typed in.
	if (again && (!wake || again instanceof HTMLTextAreaElement)) {
		// The caret first: the box reads it as it takes the focus, so an "@K" typed before the island suggests at once.
		if (selection && again instanceof HTMLTextAreaElement) again.setSelectionRange(selection[0] ?? 0, selection[1] ?? 0);
		again.focus();
	}
}
