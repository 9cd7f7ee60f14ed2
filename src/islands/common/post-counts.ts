/**
 * The post page's counts outside its islands, as views of the counts store (src/stores/post-counts.ts):
 * the like count on the like button and beside the views, and the comment count in the post's
 * header. Bound by the first writer that needs them (the like button's script, the comments
 * island), so a page nobody touches loads none of this.
 */
import { $postCounts } from '@/stores/post-counts';
import { formatCount } from '@/lib/format-date';

const bound = new Set<number>();

/** Shows the store's counts of `postId` in the page's `[data-like-count]` and `[data-post-comment-count]`. */
export function showPostCounts(postId: number): void {
	if (bound.has(postId)) return;
	bound.add(postId);
	$postCounts.subscribe((all) => {
		const { likeCount, commentCount } = all[postId] ?? {};
		const article = document.querySelector(`article[data-post-id="${postId}"]`);
		if (!article) return;
		if (likeCount !== undefined) for (const shown of article.querySelectorAll('[data-like-count]')) shown.textContent = formatCount(likeCount);
		if (commentCount !== undefined)
			for (const shown of article.querySelectorAll('[data-post-comment-count]')) shown.textContent = formatCount(commentCount);
	});
}
