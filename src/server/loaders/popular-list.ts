/** What the two list pages (All Posts, a board) show for the Popular order (src/server/posts/popular.ts). */
import type { PopularPage, PopularView } from '@/server/posts/popular';

/**
 * The Popular page as the board shows it, or, for an `after` that names no post of the list, a
 * redirect to the list's first Popular page that is not stored (Cache-Control: no-store): the edge
 * cache keeps only the list's own posts in its keys (docs/reference/edge-cache.md#popular-lists).
 * `popularHref` is the list's Popular URL after a post (none: the first page).
 */
export function popularView(
	response: ResponseInit & { headers: Headers },
	page: PopularPage,
	popularHref: (after?: number) => string,
): PopularView | Response {
	if (!page.anchorFound) {
		const headers = new Headers(response.headers);
		headers.set('Location', popularHref());
		headers.set('Cache-Control', 'no-store');
		return new Response(null, { status: 302, headers });
	}
	return {
		posts: page.posts,
		firstHref: page.after === null ? null : popularHref(),
		nextHref: page.next === null ? null : popularHref(page.next),
	};
}
