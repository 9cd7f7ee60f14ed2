/**
 * The comments island's calls (the Comments API) and what their failures mean to a person
 * (docs/reference/product-rules.md#errors-and-texts): the box's own validation text, the forced-login alert, the ban dialog, too many requests, or
 * the generic alert.
 */
import { createApiClient, resultCodeOf } from '@/lib/api-client';
import { memberFailure, type MemberFailure } from '@/lib/route-errors';
import { CommentRequired, CommentTooLong } from '@/lib/result-codes';
import type { ChannelRef } from '@/lib/urls';
import type { TextProblem } from './model';

/** The Comments API of one post, its pages in `order`; `userId` null for a guest (public reads only). */
export function commentsApi(channel: ChannelRef, postId: number, userId: number | null, order: 'oldest' | 'best' = 'oldest') {
	const api = createApiClient({ channel, getUserId: () => (userId === null ? null : String(userId)) });
	const param = { postId };
	return {
		/** The first page (`after` null), or the one after comment `after`, in the thread's order. */
		page: (after: number | null) =>
			api.public.get('/posts/:postId/comments', { param, query: { ...(after !== null && { after }), ...(order === 'best' && { sort: order }) } }),
		/** A comment's like (PUT) or its removal (DELETE): `{ liked, likeCount }`. */
		like: (commentId: number, liked: boolean) =>
			liked
				? api.member.put('/posts/:postId/comments/:commentId/like', { param: { postId, commentId } })
				: api.member.delete('/posts/:postId/comments/:commentId/like', { param: { postId, commentId } }),
		create: (content: string, parentId: number | null, requestId: string) =>
			api.member.post('/posts/:postId/comments', { param, json: { content, parentId, requestId } }),
		edit: (commentId: number, content: string) =>
			api.member.patch('/posts/:postId/comments/:commentId', { param: { postId, commentId }, json: { content } }),
		remove: (commentId: number) => api.member.delete('/posts/:postId/comments/:commentId', { param: { postId, commentId } }),
		/** An administrator's hide or show again, through the admin API (/admin/v1/…). */
		setHidden: (commentId: number, hidden: boolean, reason: string) =>
			hidden
				? api.admin.post('/comments/:commentId/hide', { param: { commentId }, json: { reason } })
				: api.admin.post('/comments/:commentId/unhide', { param: { commentId }, json: { reason } }),
	};
}

export type FailureMeaning = { kind: 'field'; problem: TextProblem } | MemberFailure | { kind: 'generic' };

/** Decides what a failed comment request means; `returnPath` is where login comes back to. */
export function failureMeaning(error: unknown, channelBase: string, returnPath: string): FailureMeaning {
	const shared = memberFailure(error, channelBase, returnPath);
	if (shared) return shared;
	const code = resultCodeOf(error);
	if (code === CommentRequired.code) return { kind: 'field', problem: 'required' };
	if (code === CommentTooLong.code) return { kind: 'field', problem: 'tooLong' };
	return { kind: 'generic' };
}
