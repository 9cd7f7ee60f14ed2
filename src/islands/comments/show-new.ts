/**
 * What the live banner's Show loads (src/page-scripts/live-thread.ts, docs/reference/live-threads.md):
 * the comments written since the page's, each where its order puts it, through the island's own page
 * reads. The pages the island shows are read again, from the first comment shown (oldest first) or
 * the first page (Best), until past the last comment shown, and on to the end when the island shows
 * the end; so a reply under any thread the page shows comes under it, and a new comment comes at the
 * end, whichever thread it answers, heard over the socket or by polling. Items merge by id: nothing
 * shows twice. At most SHOW_PAGES pages a Show (a page that shows more reads its first SHOW_PAGES).
 */
import { useEffect, useRef } from 'react';
import type { CommentPage } from '@/lib/api-types';
import type { commentsApi } from './api';
import { compareThreadOrder, type CommentItem } from './model';
import type { CommentsState } from './state';
import { LIVE_SHOW_EVENT } from './wake';

/** The most pages one Show reads: 10 pages of oldest-first comments (1,000) or of Best threads (200). */
const SHOW_PAGES = 10;

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

const topLevel = (items: readonly CommentItem[]) => items.filter((item) => item.parentId === null).length;

/**
 * The page to merge (./state.ts moreLoaded), and the first comment it brings that the island did not
 * show (to move the focus to).
 * - Oldest first: everything read, which is the window shown and what follows it contiguously; the
 *   next page follows the last item read.
 * - Best: the comments shown (their counts and marks as now) and the new ones: a reply under its
 *   thread when the thread is shown (among the first replies the order shows, or its "View the whole
 *   thread" link says more follow), a new top-level comment at the end when the island shows the end
 *   (it has the fewest likes and is the newest: the order puts it last). Comments that moved between
 *   pages as likes changed keep the place they have, or come with "Show more comments".
 */
export async function newComments(
	api: ReturnType<typeof commentsApi>,
	state: CommentsState,
): Promise<{ page: CommentPage; firstNew: number | null }> {
	const { items, order } = state;
	const shown = new Set(items.map((item) => item.commentId));
	const atEnd = state.nextAfter === null;
	const last = items.at(-1);
	const threadsShown = topLevel(items);
	const read: CommentItem[] = [];
	let after = order === 'oldest' ? (items[0]?.commentId ?? null) : null;
	let answer: CommentPage | null = null;
	let passed = false;
	for (let pages = 0; pages < SHOW_PAGES; pages++) {
		answer = await api.page(after);
		read.push(...answer.comments);
		const end = answer.comments.at(-1);
		passed = order === 'oldest' ? !last || (end !== undefined && compareThreadOrder(end, last) >= 0) : topLevel(read) >= threadsShown;
		if (answer.nextAfter === null || (passed && !atEnd)) break;
		after = answer.nextAfter;
	}
	const known = Math.max(0, ...shown);
	const threads = new Set(items.filter((item) => item.parentId === null).map((item) => item.commentId));
	const comments =
		order === 'oldest'
			? read
			: read.filter((item) => shown.has(item.commentId) || (item.commentId > known && (item.parentId === null ? atEnd : threads.has(item.parentId))));
	const nextAfter = order === 'oldest' && (passed || answer?.nextAfter === null) ? (answer?.nextAfter ?? null) : state.nextAfter;
	const page = { ...answer!, comments, nextAfter };
	return { page, firstNew: comments.find((item) => !shown.has(item.commentId))?.commentId ?? null };
}
