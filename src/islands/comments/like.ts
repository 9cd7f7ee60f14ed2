/**
 * A comment's Like in the comments island (docs/reference/best-comments.md): a guest is asked to log
 * in; a member's press shows at once and then as the API answered, and is put back if it failed (a
 * comment deleted or hidden since says so, CommentNotLikeable).
 */
import { resultCodeOf } from '@/lib/api-client';
import { CommentNotLikeable } from '@/lib/result-codes';
import type { commentsApi } from './api';
import type { ReadableComment } from './model';
import type { CommentsAction } from './state';

interface LikeDeps {
	api: ReturnType<typeof commentsApi>;
	userId: number | null;
	dispatch: (action: CommentsAction) => void;
	askLogin: () => void;
	fail: (error: unknown) => void;
	/** The sentence of CommentNotLikeable. */
	unavailable: string;
}

export function likeAction({ api, userId, dispatch, askLogin, fail, unavailable }: LikeDeps) {
	return (comment: ReadableComment) => {
		if (userId === null) return askLogin();
		const { commentId, likeCount } = comment;
		const liked = comment.liked !== true;
		dispatch({ type: 'liked', commentId, liked, likeCount: likeCount + (liked ? 1 : -1) });
		api.like(commentId, liked).then(
			(answer) => dispatch({ type: 'liked', commentId, ...answer }),
			(error: unknown) => {
				dispatch({ type: 'liked', commentId, liked: !liked, likeCount });
				if (resultCodeOf(error) === CommentNotLikeable.code) dispatch({ type: 'alert', message: unavailable });
				else fail(error);
			},
		);
	};
}
