/**
 * The live banner's Show in the comments island (src/islands/comments/show-new.ts): what it reads
 * and merges, over a stand-in of the comments API's oldest-first pages (the same paging: thread
 * order, `after` an item, `nextAfter` while more follow), with a small page so that a post of a
 * dozen comments has several.
 */
import { describe, expect, it } from 'vitest';
import { compareThreadOrder, type CommentItem, type ReadableComment } from '@/islands/comments/model';
import { newComments } from '@/islands/comments/show-new';
import { commentsReducer, initialCommentsState, type CommentsState } from '@/islands/comments/state';
import type { commentsApi } from '@/islands/comments/api';
import type { CommentTexts } from '@/islands/comments/texts';

const texts = {} as CommentTexts;
const comment = (commentId: number, parentId: number | null = null): ReadableComment => ({
	readable: true,
	commentId,
	parentId,
	state: 'VISIBLE',
	author: { userId: 1000 + commentId, nickname: `member${commentId}`, withdrawn: false, admin: false },
	content: `text ${commentId}`,
	createdAt: commentId * 1000,
	edited: false,
	likeCount: 0,
});
const ids = (items: readonly CommentItem[]) => items.map((item) => item.commentId);

/** The oldest-first pages of `all` (PAGE items a page), and the `after` values asked. */
function pagesOf(all: CommentItem[], size = 5) {
	const sorted = [...all].sort(compareThreadOrder);
	const asked: (number | null)[] = [];
	const api = {
		page: (after: number | null) => {
			asked.push(after);
			const from = after === null ? 0 : sorted.findIndex((item) => item.commentId === after) + 1;
			const comments = sorted.slice(from, from + size);
			const more = from + size < sorted.length;
			return Promise.resolve({ comments, nextAfter: more ? comments.at(-1)!.commentId : null, commentCount: sorted.length });
		},
	} as unknown as ReturnType<typeof commentsApi>;
	return { api, asked };
}

async function show(state: CommentsState, all: CommentItem[]) {
	const { api, asked } = pagesOf(all);
	const { page, firstNew } = await newComments(api, state);
	return { state: commentsReducer(state, { type: 'moreLoaded', page }), firstNew, asked };
}

describe('Show of the live banner, oldest first', () => {
	it('puts a reply under a thread of the first page while more pages follow, and leaves the rest to Show more', async () => {
		const old = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => comment(id));
		const state = initialCommentsState({ items: old.slice(0, 5), nextAfter: 5, texts });
		const after = await show(state, [...old, comment(9, 2), comment(10)]);
		expect(ids(after.state.items)).toEqual([1, 2, 9, 3, 4, 5]);
		expect(after.firstNew).toBe(9);
		expect(after.state.nextAfter).toBe(5);
		// Read from the first comment shown, one page: the window shown.
		expect(after.asked).toEqual([1]);
	});

	it('reads every page shown and on to the end when the end is shown: a reply under a middle thread and a new comment last, once each', async () => {
		const old = Array.from({ length: 12 }, (_, i) => comment(i + 1));
		const state = initialCommentsState({ items: old, nextAfter: null, texts });
		const after = await show(state, [...old, comment(13, 7), comment(14), comment(15, 1)]);
		expect(ids(after.state.items)).toEqual([1, 15, 2, 3, 4, 5, 6, 7, 13, 8, 9, 10, 11, 12, 14]);
		expect(new Set(ids(after.state.items)).size).toBe(after.state.items.length);
		expect(after.state.nextAfter).toBeNull();
		expect(after.firstNew).toBe(15);
	});

	it('starts at the first comment shown on a page that does not start at the beginning (a link to a comment)', async () => {
		const old = Array.from({ length: 10 }, (_, i) => comment(i + 1));
		const state = initialCommentsState({ items: old.slice(6), nextAfter: null, texts });
		const after = await show(state, [...old, comment(11, 8), comment(12, 2)]);
		// The reply under 8 comes; the one under 2 (a thread the page does not show) and the comments before stay out.
		expect(ids(after.state.items)).toEqual([7, 8, 11, 9, 10]);
		expect(after.asked[0]).toBe(7);
	});
});
