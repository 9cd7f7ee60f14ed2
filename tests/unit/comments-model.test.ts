/** The comments island's model: threads, where new items go, what a deletion leaves, whom a reply answers. */
import { describe, expect, it } from 'vitest';
import {
	commentLink,
	groupThreads,
	mergeItems,
	removeItem,
	replyTarget,
	replyToHref,
	textProblem,
	type CommentItem,
	type ReadableComment,
} from '@/islands/comments/model';
import { fill } from '@/islands/comments/texts';
import { COMMENT_MAX_LENGTH } from '@/schemas/comment-limits';

const comment = (commentId: number, parentId: number | null = null, nickname: string | null = `member${commentId}`): ReadableComment => ({
	readable: true,
	commentId,
	parentId,
	state: 'VISIBLE',
	author: { userId: 1000 + commentId, nickname, withdrawn: nickname === null, admin: false },
	content: `text ${commentId}`,
	createdAt: commentId * 1000,
	edited: false,
	likeCount: 0,
});
const deleted = (commentId: number): CommentItem => ({ readable: false, commentId, parentId: null, state: 'DELETED' });
const ids = (items: readonly CommentItem[]) => items.map((item) => item.commentId);

describe('groupThreads', () => {
	it('puts each reply under its top-level comment, in the order given', () => {
		const threads = groupThreads([comment(1), comment(3, 1), comment(4, 1), comment(2), comment(5, 2)]);
		expect(threads.map((thread) => [thread.comment.commentId, ids(thread.replies)])).toEqual([
			[1, [3, 4]],
			[2, [5]],
		]);
	});

	it('starts a group for a reply whose comment is on an earlier page', () => {
		const threads = groupThreads([comment(7, 1), comment(8)]);
		expect(threads.map((thread) => thread.comment.commentId)).toEqual([7, 8]);
	});
});

describe('mergeItems', () => {
	it('keeps thread order: a new reply goes after its thread’s replies, a new comment at the end', () => {
		const items = [comment(1), comment(3, 1), comment(2)];
		expect(ids(mergeItems(items, [comment(9, 1)]))).toEqual([1, 3, 9, 2]);
		expect(ids(mergeItems(items, [comment(10)]))).toEqual([1, 3, 2, 10]);
	});

	it('places a loaded page before a comment the member added while more pages remained, without duplicates', () => {
		const items = [comment(1), comment(2), comment(50)];
		expect(ids(mergeItems(items, [comment(2), comment(6, 2), comment(7)]))).toEqual([1, 2, 6, 7, 50]);
	});

	it('replaces an edited comment in place', () => {
		const edited = { ...comment(3, 1), content: 'new', edited: true };
		const merged = mergeItems([comment(1), comment(3, 1), comment(2)], [edited]);
		expect(merged[1]).toEqual(edited);
		expect(merged).toHaveLength(3);
	});
});

describe('removeItem', () => {
	it('removes a comment without replies', () => {
		expect(ids(removeItem([comment(1), comment(2)], 1))).toEqual([2]);
	});

	it('keeps a top-level comment with replies in place as deleted', () => {
		const left = removeItem([comment(1), comment(3, 1), comment(2)], 1);
		expect(left[0]).toEqual({ readable: false, commentId: 1, parentId: null, state: 'DELETED' });
		expect(ids(left)).toEqual([1, 3, 2]);
	});

	it('removes a deleted comment with its last reply, and keeps it while another reply is left', () => {
		expect(ids(removeItem([deleted(1), comment(3, 1), comment(2)], 3))).toEqual([2]);
		expect(ids(removeItem([deleted(1), comment(3, 1), comment(4, 1)], 3))).toEqual([1, 4]);
	});

	it('keeps a hidden comment when its last reply goes', () => {
		const hidden: CommentItem = { readable: false, commentId: 1, parentId: null, state: 'HIDDEN_BY_ADMIN' };
		expect(ids(removeItem([hidden, comment(3, 1)], 3))).toEqual([1]);
	});
});

describe('replyTarget', () => {
	it('answers a top-level comment in its thread without a prefix', () => {
		expect(replyTarget(comment(1))).toEqual({ parentId: 1, targetId: 1, prefix: '' });
	});

	it('answers a reply in the same thread, starting with @nickname', () => {
		expect(replyTarget(comment(3, 1, 'Aria'))).toEqual({ parentId: 1, targetId: 3, prefix: '@Aria ' });
	});

	it('names no one for a withdrawn member’s reply', () => {
		expect(replyTarget(comment(3, 1, null))).toEqual({ parentId: 1, targetId: 3, prefix: '' });
	});
});

describe('replyToHref', () => {
	it("links to the answered comment's anchor on the page, or to the page that holds it", () => {
		const items = [comment(1), comment(3, 1)];
		expect(replyToHref('/starfall/global/posts/9', items, 3)).toBe('#comment-3');
		expect(replyToHref('/starfall/global/posts/9', items, 2)).toBe('/starfall/global/posts/9?commentId=2#comment-2');
	});
});

describe('textProblem', () => {
	it('refuses an empty or blank comment', () => {
		expect(textProblem('')).toBe('required');
		expect(textProblem(' \n\t ')).toBe('required');
	});

	it('counts code points after trimming, so 1,000 emoji pass and 1,001 do not', () => {
		expect(textProblem(`  ${'😀'.repeat(COMMENT_MAX_LENGTH)}  `)).toBeNull();
		expect(textProblem('a'.repeat(COMMENT_MAX_LENGTH + 1))).toBe('tooLong');
	});
});

describe('links and texts', () => {
	it('links to a comment by the page that holds it and its anchor', () => {
		expect(commentLink('/starfall/global/posts/10', 42)).toBe('/starfall/global/posts/10?commentId=42#comment-42');
	});

	it('fills placeholders and leaves unknown ones', () => {
		expect(fill('{{count}} / {{max}} {{other}}', { count: 3, max: '1,000' })).toBe('3 / 1,000 {{other}}');
	});
});
