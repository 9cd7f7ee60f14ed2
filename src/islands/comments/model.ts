/**
 * The comments of a post as the page and the island hold them: flat items in thread order (a
 * top-level comment, then its replies by id), the shape of the Comments API's `CommentItem`. Pure
 * functions, so the server render, the island and the unit tests agree on every rule: how items
 * group into threads, where a new one goes, what a deletion leaves, whom a reply answers.
 */
import { COMMENT_MAX_LENGTH, commentLength } from '@/schemas/comment-limits';

// The comments as the API answers them (functions/api/routers/posts.ts, derived in src/lib/api-types.ts):
// a readable comment or a tombstone (deleted, or hidden from this reader) that keeps its place.
import type { CommentItem, ReadableComment } from '@/lib/api-types';
export type { CommentItem, ReadableComment } from '@/lib/api-types';

/** A top-level comment and its replies (one level, as the schema keeps them). */
export interface CommentThread {
	comment: CommentItem;
	replies: CommentItem[];
}

/** The id of the top-level comment `item` belongs to. */
function threadIdOf(item: CommentItem): number {
	return item.parentId ?? item.commentId;
}

/** Thread order: top-level comments by id, each followed by its replies by id. */
export function compareThreadOrder(a: CommentItem, b: CommentItem): number {
	return threadIdOf(a) - threadIdOf(b) || (a.parentId === null ? 0 : a.commentId) - (b.parentId === null ? 0 : b.commentId);
}

/** Flat items grouped into threads; a reply whose comment is not among them starts its own group. */
export function groupThreads(items: readonly CommentItem[]): CommentThread[] {
	const threads: CommentThread[] = [];
	const byId = new Map<number, CommentThread>();
	for (const item of items) {
		const thread = item.parentId === null ? undefined : byId.get(item.parentId);
		if (thread) {
			thread.replies.push(item);
			continue;
		}
		const started: CommentThread = { comment: item, replies: [] };
		threads.push(started);
		if (item.parentId === null) byId.set(item.commentId, started);
	}
	return threads;
}

/**
 * `items` with `added` put in (replacing items of the same id), in thread order; in the Best order
 * (`keepOrder`), an item replaced keeps its place, and a new one goes after its thread (a reply) or last.
 */
export function mergeItems(items: readonly CommentItem[], added: readonly CommentItem[], keepOrder = false): CommentItem[] {
	const ids = new Set(added.map((item) => item.commentId));
	if (!keepOrder) return [...items.filter((item) => !ids.has(item.commentId)), ...added].sort(compareThreadOrder);
	const merged = [...items];
	for (const item of added) {
		const at = merged.findIndex((old) => old.commentId === item.commentId);
		if (at !== -1) merged[at] = item;
		else merged.splice(merged.findLastIndex((old) => threadIdOf(old) === threadIdOf(item)) + 1 || merged.length, 0, item);
	}
	return merged;
}

/** `items` with the like of comment `commentId` as the API answered it. */
export function withLike(items: readonly CommentItem[], commentId: number, like: { liked: boolean; likeCount: number }): CommentItem[] {
	return items.map((item) => {
		if (item.commentId !== commentId || !item.readable) return item;
		const { liked: _was, ...rest } = item;
		return { ...rest, likeCount: like.likeCount, ...(like.liked && { liked: true as const }) };
	});
}

/**
 * What deleting comment `commentId` leaves: a top-level comment with replies keeps its place as
 * 'This comment has been deleted.'; anything else goes, and a deleted comment whose last reply
 * went goes with it (the API leaves such a comment out, so the page does too).
 */
export function removeItem(items: readonly CommentItem[], commentId: number): CommentItem[] {
	const removed = items.find((item) => item.commentId === commentId);
	if (!removed) return [...items];
	const hasReplies = (id: number, list: readonly CommentItem[]) => list.some((item) => item.parentId === id);
	if (removed.parentId === null && hasReplies(commentId, items)) {
		return items.map((item) => (item.commentId === commentId ? { readable: false, commentId, parentId: null, state: 'DELETED' } : item));
	}
	const left = items.filter((item) => item.commentId !== commentId);
	const parent = removed.parentId === null ? undefined : left.find((item) => item.commentId === removed.parentId);
	if (parent && !parent.readable && parent.state === 'DELETED' && !hasReplies(parent.commentId, left)) return left.filter((item) => item !== parent);
	return left;
}

/**
 * Where a reply to `target` goes and how it starts: replies are one level deep, so a reply to a
 * reply joins the same thread (`parentId`, the box's place) and starts with "@nickname " to say
 * whom it answers; `targetId` is the comment answered, sent as the reply's parent (the API files it
 * under the thread and remembers the reply it answers).
 */
export function replyTarget(target: ReadableComment): { parentId: number; targetId: number; prefix: string } {
	if (target.parentId === null) return { parentId: target.commentId, targetId: target.commentId, prefix: '' };
	return { parentId: target.parentId, targetId: target.commentId, prefix: target.author.nickname ? `@${target.author.nickname} ` : '' };
}

/**
 * The link of a reply's context to the comment it answers: its anchor when the page shows it, or
 * the page that holds it (an earlier page of comments).
 */
export function replyToHref(postUrl: string, items: readonly CommentItem[], commentId: number): string {
	return items.some((item) => item.commentId === commentId) ? `#comment-${commentId}` : commentLink(postUrl, commentId);
}

export type TextProblem = 'required' | 'tooLong';

/** Why `text` cannot be sent as a comment (as the API would refuse it), or null. */
export function textProblem(text: string): TextProblem | null {
	const length = commentLength(text);
	if (length === 0) return 'required';
	return length > COMMENT_MAX_LENGTH ? 'tooLong' : null;
}

/** The link to one comment: the page that starts at its thread, scrolled to it. */
export function commentLink(postUrl: string, commentId: number): string {
	return `${postUrl}?commentId=${commentId}#comment-${commentId}`;
}
