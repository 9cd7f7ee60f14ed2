/**
 * Takes the server-rendered comments section over: reads what the page rendered (its attributes
 * and each comment's), then renders the island over it with `createRoot`, in one synchronous
 * commit of the same markup, and puts focus, selection and anything already typed back where they
 * were. `createRoot` rather than hydration: the list is rendered by Astro, not by React on the
 * server (that would cost every uncached page a React render), so there is no React tree to
 * hydrate, and a fresh render cannot fail on a mismatch; the island then owns the section.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import CommentsIsland, { type IslandProps } from './CommentsIsland';
import type { CommentItem, ReplyTo } from './model';
import type { CommentTexts } from './texts';
import type { Wake } from './wake';
import type { Language } from '@/schemas/channel';
import { seedCounts } from '@/stores/post-counts';
import { showPostCounts } from '@/islands/common/post-counts';

/** The items as the page rendered them (CommentItem.astro's attributes and text). */
function readRenderedItems(root: HTMLElement): CommentItem[] {
	return [...root.querySelectorAll<HTMLElement>('li[data-comment-id]')].map((li): CommentItem => {
		const commentId = Number(li.dataset['commentId']);
		const parentId = li.dataset['parentId'] ? Number(li.dataset['parentId']) : null;
		const state = li.dataset['state'];
		const head = li.querySelector<HTMLElement>(':scope > .comment-body > .comment-head');
		const auto = state === 'HIDDEN_BY_ADMIN' && li.dataset['autoHidden'] !== undefined ? { autoHidden: true as const } : {};
		if (!head) return { readable: false, commentId, parentId, state: state === 'HIDDEN_BY_ADMIN' ? 'HIDDEN_BY_ADMIN' : 'DELETED', ...auto };
		const withdrawn = head.dataset['withdrawn'] !== undefined;
		return {
			readable: true,
			commentId,
			parentId,
			state: state === 'HIDDEN_BY_ADMIN' ? 'HIDDEN_BY_ADMIN' : 'VISIBLE',
			...auto,
			author: {
				userId: Number(head.dataset['authorId']),
				nickname: withdrawn ? null : (head.dataset['authorName'] ?? null),
				withdrawn,
				admin: head.dataset['authorAdmin'] !== undefined,
			},
			content: li.querySelector(':scope > .comment-body > [data-comment-text]')?.textContent ?? '',
			createdAt: Number(head.dataset['createdAt']),
			edited: head.dataset['edited'] !== undefined,
			...replyToOf(li.querySelector<HTMLElement>(':scope > .comment-body > [data-reply-to-id]')),
			...(li.dataset['reported'] !== undefined ? { reported: true as const } : {}),
		};
	});
}

/** A reply's context as the page rendered it (`{ replyTo }`), or nothing. */
function replyToOf(link: HTMLElement | null): { replyTo?: ReplyTo } {
	if (!link) return {};
	return { replyTo: { commentId: Number(link.dataset['replyToId']), nickname: link.dataset['replyToName'] ?? null } };
}

export function mountComments(section: HTMLElement, wake: Wake | null): void {
	const container = section.querySelector<HTMLElement>('[data-comments-root]');
	if (!container || section.dataset['mounted'] !== undefined) return;
	section.dataset['mounted'] = '';
	const data = section.dataset;
	const box = container.querySelector<HTMLTextAreaElement>('#comment-box-new');
	// The reply box the loader opened at the press on Reply: its text goes to the island's.
	const early = container.querySelector<HTMLTextAreaElement>('[data-comment-form^="reply-"] textarea');
	if (wake?.action === 'reply' && early) wake = { ...wake, text: early.value };
	const active = document.activeElement instanceof HTMLElement && container.contains(document.activeElement) ? document.activeElement : null;
	const selection = active instanceof HTMLTextAreaElement ? [active.selectionStart, active.selectionEnd] : null;
	const props: IslandProps = {
		postId: Number(data['postId']),
		userId: data['userId'] ? Number(data['userId']) : null,
		isAdmin: data['admin'] !== undefined,
		banned: data['banned'] !== undefined,
		language: (data['language'] ?? 'en') as Language,
		domain: data['domain'] ?? '',
		slug: data['slug'] ?? '',
		channelBase: data['channelBase'] ?? '',
		apis: { public: data['publicApi'] ?? '', member: data['memberApi'] ?? '' },
		items: readRenderedItems(container),
		commentCount: Number(container.querySelector('[data-comment-count]')?.textContent?.replace(/\D/g, '') ?? 0),
		nextAfter: data['nextAfter'] ? Number(data['nextAfter']) : null,
		startsAtBeginning: data['startsAtBeginning'] !== undefined,
		texts: JSON.parse(data['texts'] ?? '{}') as CommentTexts,
		initialText: box?.value ?? '',
		wake,
	};
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
