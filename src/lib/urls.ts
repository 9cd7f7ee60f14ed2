/**
 * Every URL the product builds, for the server, the pages and the islands alike: a channel's page
 * routes (docs/reference/product-rules.md#routes) and its API prefixes (docs/reference/product-rules.md#api-calls, docs/reference/api.md). A page or island never spells a path
 * by hand.
 */

export interface ChannelRef {
	domain: string;
	slug: string;
}

/** /{domain}/{slug}: the path every route of the channel starts with. */
export function channelPath({ domain, slug }: ChannelRef): string {
	return `/${domain}/${slug}`;
}

/** Why the login page is shown again: the last attempt failed, or came too often. */
export type LoginError = 'failed' | 'busy';

/** The login route; `error` makes it say what went wrong with the last attempt. */
export function loginPageUrl(channelBase: string, redirectUrl: string, error?: LoginError): string {
	return `${channelBase}/login?redirectUrl=${encodeURIComponent(redirectUrl)}${error ? `&error=${error}` : ''}`;
}

/** The page routes of the channel whose base path is `base`. */
export function pageUrls(base: string) {
	return {
		home: base,
		boards: `${base}/boards`,
		board: (boardId: number) => `${base}/boards/${boardId}`,
		/** A Popular list (src/server/posts/popular.ts): a board's, or All Posts without one; its query in canonical (sorted) order. */
		popular: (boardId?: number, after?: number) =>
			`${base}/boards${boardId === undefined ? '' : `/${boardId}`}?${after === undefined ? '' : `after=${after}&`}sort=popular`,
		/** The Atom feeds (docs/reference/seo.md): All Posts, and a public board's. */
		feed: `${base}/feed.xml`,
		boardFeed: (boardId: number) => `${base}/boards/${boardId}/feed.xml`,
		/** The sitemap index of the channel, which names its sitemaps (docs/reference/seo.md). */
		sitemap: `${base}/sitemap.xml`,
		boardsSitemap: `${base}/sitemaps/boards.xml`,
		postsSitemap: (part: number) => `${base}/sitemaps/posts-${part}.xml`,
		post: (postId: number, commentId?: number) => `${base}/posts/${postId}${commentId === undefined ? '' : `#comment-${commentId}`}`,
		postEdit: (postId: number) => `${base}/posts/${postId}/edit`,
		/** docs/reference/product-rules.md#routes: the write link carries the board being read. */
		write: (boardId?: number) => `${base}/write${boardId === undefined ? '' : `?boardId=${boardId}`}`,
		search: `${base}/search`,
		user: (userId: number) => `${base}/users/${userId}`,
		mypage: `${base}/mypage`,
		mypageTab: (tab: string) => `${base}/mypage?tab=${encodeURIComponent(tab)}`,
		nickname: `${base}/mypage/nickname`,
		settings: `${base}/mypage/settings`,
		notifications: `${base}/mypage/notifications`,
		withdraw: `${base}/mypage/withdraw`,
		/** The admin area, for the community's administrators. */
		admin: `${base}/admin`,
		login: (redirectUrl: string, error?: LoginError) => loginPageUrl(base, redirectUrl, error),
		signup: `${base}/signup`,
		signupNickname: `${base}/signup/nickname`,
		/** The providers' return, registered with each of them (exact match). */
		oauthReturn: `${base}/oauth`,
	};
}

/** The API prefixes of a channel: anonymous reads, member actions and moderation. */
export function apiUrls(channel: ChannelRef) {
	const { domain, slug } = channel;
	return {
		public: `/public/v1/${domain}/${slug}`,
		member: `/v1/${domain}/${slug}`,
		admin: `/admin/v1/${domain}/${slug}`,
	};
}
