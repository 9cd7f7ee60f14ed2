/**
 * The comments island's calls (the Comments API) and what their failures mean to a person
 * (docs/product-rules.md#errors-and-texts): the box's own validation text, the forced-login alert, the ban dialog, too many requests, or
 * the generic alert.
 */
import { createApiClient, resultCodeOf } from '@/lib/api-client';
import { memberFailure, type MemberFailure } from '@/lib/route-errors';
import { CommentRequired, CommentTooLong } from '@/lib/result-codes';
import type { CommentEdit, CommentPage, CreatedComment, EditedComment, NewComment, RemovedComment } from '@/lib/api-types';
import type { TextProblem } from './model';

/** The Comments API of one post; `userId` null for a guest (public reads only). */
export function commentsApi(apis: { public: string; member: string }, postId: number, userId: number | null) {
	const api = createApiClient({ getUserId: () => (userId === null ? null : String(userId)) });
	const base = `${apis.member}/posts/${postId}/comments`;
	return {
		page: async (after: number) => (await api.get<{ content: CommentPage }>(`${apis.public}/posts/${postId}/comments`, { after })).content,
		create: async (content: string, parentId: number | null, requestId: string) =>
			(await api.post<{ content: CreatedComment }>(base, { content, parentId, requestId } satisfies NewComment)).content,
		edit: async (commentId: number, content: string) =>
			(await api.patch<{ content: EditedComment }>(`${base}/${commentId}`, { content } satisfies CommentEdit)).content,
		remove: async (commentId: number) => (await api.delete<{ content: RemovedComment }>(`${base}/${commentId}`)).content,
		/** An administrator's hide or show again, through the admin API (/admin/v1/…). */
		setHidden: async (commentId: number, hidden: boolean, reason: string) =>
			api.post(`/admin${apis.member}/comments/${commentId}/${hidden ? 'hide' : 'unhide'}`, { reason }),
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
