/**
 * The like and comment counts of posts, by post id, as the page shows them: the like button's
 * count and the one beside the views, the comments heading and the count in the post's header all
 * read them here, so an answer to a like or a comment moves every one at once. Each writer starts
 * with what the page rendered (seedCounts), so nothing is fetched. Browser only.
 */
import { map } from 'nanostores';

interface PostCounts {
	likeCount?: number;
	commentCount?: number;
}

export const $postCounts = map<Record<string, PostCounts>>({});

/** The counts the page rendered for `postId`, for those the store does not hold yet. */
export function seedCounts(postId: number, rendered: PostCounts): void {
	const known = $postCounts.get()[postId] ?? {};
	$postCounts.setKey(String(postId), { ...rendered, ...known });
}

/** New counts for `postId` (an API's answer, or a like shown before its answer). */
export function setCounts(postId: number, counts: PostCounts): void {
	$postCounts.setKey(String(postId), { ...$postCounts.get()[postId], ...counts });
}
