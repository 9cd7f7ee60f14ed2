/**
 * What the live banner's Show loads (src/page-scripts/live-thread.ts, docs/reference/live-threads.md),
 * through the island's own page loads: while more pages follow, the next page (the new comments come
 * after them); at the end of the thread, the first page and the page after the last comment shown,
 * so that a new comment, a reply in the last thread and a reply in a thread of the first page all
 * show. A reply to a thread between those is shown by the next reload.
 */
import { useEffect, useRef } from 'react';
import type { CommentPage } from '@/lib/api-types';
import type { commentsApi } from './api';
import type { CommentsState } from './state';
import { LIVE_SHOW_EVENT } from './wake';

/** Calls `load(true)` (the island's latest) at each Show of the live banner, once the island is awake. */
export function useShowNew(load: (live: boolean) => unknown): void {
	const latest = useRef(load);
	latest.current = load;
	useEffect(() => {
		const show = () => void latest.current(true);
		document.addEventListener(LIVE_SHOW_EVENT, show);
		return () => document.removeEventListener(LIVE_SHOW_EVENT, show);
	}, []);
}

/** The page to merge, and the first comment it brings that the island did not show (to move the focus to). */
export async function newComments(
	api: ReturnType<typeof commentsApi>,
	state: CommentsState,
): Promise<{ page: CommentPage; firstNew: number | null }> {
	const shown = new Set(state.items.map((item) => item.commentId));
	const last = state.items.at(-1);
	const [first, after] = await Promise.all([
		state.nextAfter === null ? api.page(null) : null,
		state.nextAfter !== null || last ? api.page(state.nextAfter ?? last!.commentId) : null,
	]);
	const comments = [
		...(first?.comments ?? []),
		...(after?.comments.filter((item) => !first?.comments.some((one) => one.commentId === item.commentId)) ?? []),
	];
	const page = { ...(after ?? first!), comments };
	return { page, firstNew: comments.find((item) => !shown.has(item.commentId))?.commentId ?? null };
}
