/**
 * Every route that reads a community, pages and API alike, with the URLs that ask it about given
 * boards, posts and members. The privacy tests ask all of them as every kind of reader
 * (tests/workers/read-privacy.test.ts for the API, tests/e2e/read-privacy.spec.ts for the pages),
 * and each of them fails when the code has a read route that is not listed here: a new route
 * must join this list.
 */
import { LIMITERS } from '@/server/platform/rate-limit';

export interface ReadTargets {
	/** The channel the URLs are asked under: /{domain}/{slug}. */
	base: string;
	/** Boards whose lists are walked (a private one included). */
	boardIds: number[];
	posts: { postId: number; boardId: number }[];
	userIds: number[];
	/** Drafts asked for by id (only their author reads them). */
	draftIds: number[];
	/** Comments asked for by id (the admin area's read of removed text). */
	commentIds: number[];
	/** How many pages of each list to walk. */
	listPages: number;
}

/** `url` and its next pages, up to `count`. */
function paged(url: string, count: number): string[] {
	const joiner = url.includes('?') ? '&' : '?';
	return Array.from({ length: count }, (_, i) => (i === 0 ? url : `${url}${joiner}page=${i + 1}`));
}

/** Searches asked by the privacy tests: the canaries' words and common ones, in every search type. */
const SEARCHES = [
	'q=CANARY&searchType=ALL',
	'q=CANARY&searchType=TITLE',
	'q=CANARY&searchType=CONTENT',
	'q=CANARY',
	'q=the',
	'q=e%20',
	'q=%EA%B3%B5%EC%A7%80&searchType=ALL',
];

/**
 * The page routes a signed-in reader's own read budget counts (docs/reference/rate-limits.md: searches 30 a
 * minute, profiles 60). The limiters count a member across every test of a run, and the tests that walk
 * PAGE_ROUTES read as the same members (PrivacyIds), so only the privacy tests ask these at every URL.
 */
export const READ_LIMITED_PAGE_ROUTES: readonly string[] = ['/{domain}/{slug}/search', '/{domain}/{slug}/users/{userId}'];

/** The rate limiters' longest window (ms): their counts start again at each turn of it, on the clock. */
const RATE_WINDOW_MS = Math.max(...Object.values(LIMITERS).map(({ periodSeconds }) => periodSeconds)) * 1000;

/**
 * `ask()`, and once more at the next turn of the rate limiters' window when it was refused as too many
 * (429): the tests that walk PAGE_ROUTES read as the same members, whose read budget is counted across
 * every test of the run, so another test may have spent it this minute. The answer is then the page's,
 * never a refusal the test would take for it (a 429 holds no canary and no rewritten page).
 */
export async function withinReadBudget<T>(ask: () => Promise<T>, statusOf: (answer: T) => number): Promise<T> {
	const answer = await ask();
	if (statusOf(answer) !== 429) return answer;
	await new Promise((resolve) => setTimeout(resolve, RATE_WINDOW_MS - (Date.now() % RATE_WINDOW_MS) + 100));
	return ask();
}

/** Page routes and endpoints by their file under src/pages: `[param]` becomes `{param}`, `index` its folder. */
export const PAGE_ROUTES: Record<string, (t: ReadTargets) => string[]> = {
	'/': () => ['/'],
	'/robots.txt': () => ['/robots.txt'],
	'/{domain}/{slug}/sitemap.xml': (t) => [`${t.base}/sitemap.xml`],
	'/{domain}/{slug}/sitemaps/{file}': (t) => [`${t.base}/sitemaps/boards.xml`, `${t.base}/sitemaps/posts-1.xml`],
	'/{domain}/{slug}/feed.xml': (t) => [`${t.base}/feed.xml`],
	'/{domain}/{slug}/boards/{boardId}/feed.xml': (t) => t.boardIds.map((id) => `${t.base}/boards/${id}/feed.xml`),
	'/404': () => ['/404'],
	'/500': () => ['/500'],
	'/{domain}/{slug}': (t) => [t.base],
	'/{domain}/{slug}/{...rest}': (t) => [`${t.base}/no-such-page`, `${t.base}/posts/${t.posts[0]?.postId ?? 1}/no-such-page`],
	'/{domain}/{slug}/write': (t) => [
		`${t.base}/write`,
		...t.boardIds.map((id) => `${t.base}/write?boardId=${id}`),
		...t.draftIds.map((id) => `${t.base}/write?draftId=${id}`),
	],
	'/{domain}/{slug}/posts/{postId}/edit': (t) => t.posts.map((post) => `${t.base}/posts/${post.postId}/edit`),
	// Each list in both orders: newest first (paged) and Popular (src/server/posts/popular.ts).
	'/{domain}/{slug}/boards': (t) => [...paged(`${t.base}/boards`, t.listPages), `${t.base}/boards?sort=popular`],
	'/{domain}/{slug}/boards/{boardId}': (t) =>
		t.boardIds.flatMap((id) => [...paged(`${t.base}/boards/${id}`, t.listPages), `${t.base}/boards/${id}?sort=popular`]),
	'/{domain}/{slug}/boards/{boardId}/posts': (t) => t.boardIds.map((id) => `${t.base}/boards/${id}/posts`),
	'/{domain}/{slug}/boards/{boardId}/posts/{postId}': (t) => t.posts.map((post) => `${t.base}/boards/${post.boardId}/posts/${post.postId}`),
	'/{domain}/{slug}/posts': (t) => [`${t.base}/posts`],
	// A post's comments in both orders: oldest first and Best (docs/reference/best-comments.md).
	'/{domain}/{slug}/posts/{postId}': (t) =>
		t.posts.flatMap((post) => [`${t.base}/posts/${post.postId}`, `${t.base}/posts/${post.postId}?commentsSort=best`]),
	'/{domain}/{slug}/users/{userId}': (t) => t.userIds.flatMap((id) => paged(`${t.base}/users/${id}`, t.listPages)),
	'/{domain}/{slug}/mypage': (t) =>
		['posts', 'comments', 'likes', 'saved', 'drafts'].flatMap((tab) => paged(`${t.base}/mypage?tab=${tab}`, t.listPages)),
	'/{domain}/{slug}/mypage/nickname': (t) => [`${t.base}/mypage/nickname`],
	'/{domain}/{slug}/email/confirm': (t) => [`${t.base}/email/confirm`, `${t.base}/email/confirm?result=done`],
	'/{domain}/{slug}/email/unsubscribe': (t) => [`${t.base}/email/unsubscribe`],
	'/{domain}/{slug}/mypage/notifications': (t) => [`${t.base}/mypage/notifications`, `${t.base}/mypage/notifications?tab=watching`],
	'/{domain}/{slug}/mypage/settings': (t) => [`${t.base}/mypage/settings`],
	'/{domain}/{slug}/mypage/withdraw': (t) => [`${t.base}/mypage/withdraw`],
	'/{domain}/{slug}/admin': (t) =>
		['reports', 'history', 'bans', 'log', 'settings']
			.flatMap((tab) => paged(`${t.base}/admin?tab=${tab}`, t.listPages))
			.concat(`${t.base}/admin?order=most`),
	'/{domain}/{slug}/search': (t) => SEARCHES.flatMap((query) => paged(`${t.base}/search?${query}`, t.listPages)),
	'/{domain}/{slug}/login': (t) => [`${t.base}/login`],
	'/{domain}/{slug}/signup': (t) => [`${t.base}/signup`],
	'/{domain}/{slug}/signup/nickname': (t) => [`${t.base}/signup/nickname`],
};

/** The API prefixes of the channel at `base`. */
function apiBase(t: ReadTargets) {
	return { pub: `/public/v1${t.base}`, member: `/v1${t.base}` };
}

/**
 * The admin area's read of a post's or comment's stored text, for appeals: the one route
 * that answers deleted text, to the community's administrators alone (REMOVED_TEXT_CANARIES); a
 * POST, since each read writes its row of the audit log (API_POST_READS).
 */
export const REMOVED_TEXT_ROUTE = '/admin/v1/:domain/:slug/content/:targetType/:targetId';

/** API GET routes by their Hono path. */
export const API_ROUTES: Record<string, (t: ReadTargets) => string[]> = {
	'/public/v1/:domain/:slug/layouts/header': (t) => [`${apiBase(t).pub}/layouts/header`],
	'/public/v1/:domain/:slug/layouts/content': (t) => [`${apiBase(t).pub}/layouts/content`],
	'/public/v1/:domain/:slug/layouts/footer': (t) => [`${apiBase(t).pub}/layouts/footer`],
	'/public/v1/:domain/:slug/boards': (t) => [`${apiBase(t).pub}/boards`],
	'/public/v1/:domain/:slug/boards/tree': (t) => [`${apiBase(t).pub}/boards/tree`],
	'/public/v1/:domain/:slug/boards/:boardId': (t) => t.boardIds.map((id) => `${apiBase(t).pub}/boards/${id}`),
	'/public/v1/:domain/:slug/board-subjects': (t) => [
		`${apiBase(t).pub}/board-subjects`,
		...t.boardIds.map((id) => `${apiBase(t).pub}/board-subjects?boardId=${id}`),
	],
	'/public/v1/:domain/:slug/posts': (t) => [
		...paged(`${apiBase(t).pub}/posts`, t.listPages),
		...t.boardIds.flatMap((id) => paged(`${apiBase(t).pub}/posts?boardId=${id}`, t.listPages)),
	],
	'/public/v1/:domain/:slug/posts/:postId': (t) => t.posts.map((post) => `${apiBase(t).pub}/posts/${post.postId}`),
	'/public/v1/:domain/:slug/posts/:postId/comments': (t) =>
		t.posts.flatMap((post) => [`${apiBase(t).pub}/posts/${post.postId}/comments`, `${apiBase(t).pub}/posts/${post.postId}/comments?sort=best`]),
	'/public/v1/:domain/:slug/posts/:postId/revisions': (t) => t.posts.map((post) => `${apiBase(t).pub}/posts/${post.postId}/revisions`),
	// The comments' posts are the last of `posts` (privacyTargets): each comment asked under them.
	'/public/v1/:domain/:slug/posts/:postId/comments/:commentId/revisions': (t) =>
		t.posts
			.slice(-t.commentIds.length)
			.flatMap((post) => t.commentIds.map((id) => `${apiBase(t).pub}/posts/${post.postId}/comments/${id}/revisions`)),
	'/public/v1/:domain/:slug/users/:userId': (t) => t.userIds.map((id) => `${apiBase(t).pub}/users/${id}`),
	'/public/v1/:domain/:slug/users/:userId/posts': (t) => t.userIds.flatMap((id) => paged(`${apiBase(t).pub}/users/${id}/posts`, t.listPages)),
	'/public/v1/:domain/:slug/search': (t) => SEARCHES.flatMap((query) => paged(`${apiBase(t).pub}/search?${query}`, t.listPages)),
	'/public/v1/:domain/:slug/auth/status': (t) => [`${apiBase(t).pub}/auth/status`],
	'/public/v1/:domain/:slug/oauth/providers': (t) => [`${apiBase(t).pub}/oauth/providers`],
	'/public/v1/:domain/:slug/oauth/providers/exists': (t) => [`${apiBase(t).pub}/oauth/providers/exists`],
	'/v1/:domain/:slug/me': (t) => [`${apiBase(t).member}/me`],
	'/admin/v1/:domain/:slug/audit-log': (t) => paged(`/admin/v1${t.base}/audit-log`, t.listPages),
	'/admin/v1/:domain/:slug/reports': (t) => [...paged(`/admin/v1${t.base}/reports`, t.listPages), `/admin/v1${t.base}/reports?order=most`],
	'/admin/v1/:domain/:slug/reports/history': (t) => paged(`/admin/v1${t.base}/reports/history`, t.listPages),
	'/admin/v1/:domain/:slug/bans': (t) => paged(`/admin/v1${t.base}/bans`, t.listPages),
	'/admin/v1/:domain/:slug/members': (t) => ['CANARY', 'the'].map((nickname) => `/admin/v1${t.base}/members?nickname=${nickname}`),
	'/admin/v1/:domain/:slug/settings': (t) => [`/admin/v1${t.base}/settings`],
	'/admin/v1/:domain/:slug/members/:userId/bans': (t) => t.userIds.map((id) => `/admin/v1${t.base}/members/${id}/bans`),
	'/v1/:domain/:slug/drafts': (t) => paged(`${apiBase(t).member}/drafts`, t.listPages),
	'/v1/:domain/:slug/drafts/:draftId': (t) => t.draftIds.map((id) => `${apiBase(t).member}/drafts/${id}`),
	'/v1/:domain/:slug/posts/:postId/like': (t) => t.posts.map((post) => `${apiBase(t).member}/posts/${post.postId}/like`),
	'/v1/:domain/:slug/notifications': (t) => [`${apiBase(t).member}/notifications`],
	'/v1/:domain/:slug/notifications/unread': (t) => [`${apiBase(t).member}/notifications/unread`],
	'/v1/:domain/:slug/notifications/settings': (t) => [`${apiBase(t).member}/notifications/settings`],
	'/v1/:domain/:slug/watches': (t) => [`${apiBase(t).member}/watches`],
	'/v1/:domain/:slug/me/blocks': (t) => [`${apiBase(t).member}/me/blocks`],
	'/v1/:domain/:slug/notifications/email': (t) => [`${apiBase(t).member}/notifications/email`],
	'/v1/:domain/:slug/members/suggest': (t) => ['CANARY', 'a', '스'].map((q) => `${apiBase(t).member}/members/suggest?q=${encodeURIComponent(q)}`),
};

/**
 * API reads asked by POST, because asking writes one bounded row: the member's export spends their
 * slot of 20 minutes, and an administrator's read of removed text writes its audit-log row. A GET,
 * which another site's link or image makes a browser send with its cookies, would do that for them;
 * a POST passes the Origin check. The privacy tests ask these by POST, as every kind of reader.
 */
export const API_POST_READS: Record<string, (t: ReadTargets) => string[]> = {
	'/v1/:domain/:slug/me/export': (t) => [`${apiBase(t).member}/me/export`],
	[REMOVED_TEXT_ROUTE]: (t) => [
		...t.posts.map((post) => `/admin/v1${t.base}/content/posts/${post.postId}`),
		...t.commentIds.map((id) => `/admin/v1${t.base}/content/comments/${id}`),
	],
};

/** Every URL of `routes` for the targets. */
export function urlsOf(routes: Record<string, (t: ReadTargets) => string[]>, targets: ReadTargets): string[] {
	return Object.values(routes).flatMap((urls) => urls(targets));
}

/**
 * Marks written into the demo data by the privacy tests: a text that no reader outside the
 * allowed ones may ever receive, in any route's answer.
 */
const CANARY = {
	privateTitle: 'CANARY-PRIVATE-TITLE',
	privateBody: 'CANARY-PRIVATE-BODY',
	hiddenTitle: 'CANARY-HIDDEN-TITLE',
	hiddenBody: 'CANARY-HIDDEN-BODY',
	deletedTitle: 'CANARY-DELETED-TITLE',
	deletedBody: 'CANARY-DELETED-BODY',
	staffTitle: 'CANARY-STAFF-TITLE',
	hiddenComment: 'CANARY-HIDDEN-COMMENT',
	deletedComment: 'CANARY-DELETED-COMMENT',
	commentOnHidden: 'CANARY-COMMENT-ON-HIDDEN',
	draftTitle: 'CANARY-DRAFT-TITLE',
	draftBody: 'CANARY-DRAFT-BODY',
} as const;

export type Canary = (typeof CANARY)[keyof typeof CANARY];

/** The canaries each kind of reader may receive (src/server/visibility/visibility.ts). */
export const ALLOWED_CANARIES = {
	guest: [],
	member: [],
	author: [CANARY.privateTitle, CANARY.privateBody],
	admin: [
		CANARY.privateTitle,
		CANARY.privateBody,
		CANARY.hiddenTitle,
		CANARY.hiddenBody,
		CANARY.staffTitle,
		CANARY.hiddenComment,
		CANARY.commentOnHidden,
	],
} as const satisfies Record<string, readonly Canary[]>;

/** What an administrator receives from REMOVED_TEXT_ROUTE alone: the text its writer deleted. */
export const REMOVED_TEXT_CANARIES = [CANARY.deletedTitle, CANARY.deletedBody, CANARY.deletedComment] as const satisfies readonly Canary[];

/**
 * The canaries of the author's draft, which only its author receives: from the drafts API, My
 * Page's drafts tab and the write screen opened with the draft.
 */
export const DRAFT_CANARIES = [CANARY.draftTitle, CANARY.draftBody] as const satisfies readonly Canary[];

/**
 * SQL that plants the canaries in a channel's demo data (its private post, hidden post, deleted
 * post, private board, hidden and deleted comments) and moves its content version, so no cached
 * page from before hides a leak. Returns the statements; `ids` are the demo rows.
 */
export function canarySql(ids: PrivacyIds, channelId: number): string[] {
	const body = (text: string) => JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] }).replace(/'/g, "''");
	const post = (id: number, title: string, text: string) =>
		`UPDATE posts SET title = '${title}', content = '${body(text)}', content_text = '${text}' WHERE id = ${id}`;
	return [
		post(ids.privatePost, CANARY.privateTitle, CANARY.privateBody),
		post(ids.hiddenPost, CANARY.hiddenTitle, CANARY.hiddenBody),
		post(ids.deletedPost, CANARY.deletedTitle, CANARY.deletedBody),
		`UPDATE posts SET title = '${CANARY.staffTitle} ' || id WHERE board_id = ${ids.privateBoard}`,
		`UPDATE comments SET content = '${CANARY.hiddenComment}' WHERE id = ${ids.hiddenComment}`,
		`UPDATE comments SET content = '${CANARY.deletedComment}' WHERE id = ${ids.deletedComment}`,
		`UPDATE comments SET content = '${CANARY.commentOnHidden}' WHERE post_id = ${ids.hiddenPost} AND deleted_at IS NULL AND hidden_by_admin = 0`,
		// Their earlier versions (edit history) say the same: a revision answers no one the content does not.
		`INSERT INTO revisions (channel_id, content_type, content_id, member_id, title, content, written_at, replaced_at)
		 SELECT channel_id, 'POST', id, member_id, title, content_text, created_at, created_at FROM posts WHERE id IN (${ids.privatePost}, ${ids.hiddenPost}, ${ids.deletedPost})
		 UNION ALL SELECT channel_id, 'COMMENT', id, member_id, NULL, content, created_at, created_at FROM comments WHERE id IN (${ids.hiddenComment}, ${ids.deletedComment})`,
		// A draft of the private post's author, beside the demo's drafts (which other tests use).
		`INSERT OR REPLACE INTO drafts (id, channel_id, member_id, board_id, subject_id, title, content, created_at, updated_at)
		 VALUES (${ids.draft}, ${channelId}, ${ids.privatePostAuthor}, ${ids.privatePostBoard}, NULL, '${CANARY.draftTitle}', '${body(CANARY.draftBody)}', 0, 0)`,
		`UPDATE channels SET content_version = content_version + 1 WHERE id = ${channelId}`,
	];
}

/** The demo rows the privacy tests aim at, and who wrote them. */
export interface PrivacyIds {
	privateBoard: number;
	privatePost: number;
	privatePostBoard: number;
	privatePostAuthor: number;
	hiddenPost: number;
	hiddenPostBoard: number;
	hiddenPostAuthor: number;
	deletedPost: number;
	deletedPostBoard: number;
	deletedPostAuthor: number;
	hiddenComment: number;
	hiddenCommentPost: number;
	hiddenCommentBoard: number;
	hiddenCommentAuthor: number;
	deletedComment: number;
	deletedCommentPost: number;
	deletedCommentBoard: number;
	administrator: number;
	/** The id canarySql gives the private post author's draft. */
	draft: number;
	/** A member who wrote none of the rows above, nothing in the private board and no comment on the hidden post. */
	bystander: number;
}

/** One SQL query that finds PrivacyIds in a channel's demo data. */
export function privacyIdsSql(channelId: number): string {
	const post = (where: string, column = 'id') => `(SELECT ${column} FROM posts WHERE channel_id = ${channelId} AND ${where} ORDER BY id LIMIT 1)`;
	const comment = (where: string, column: string) =>
		`(SELECT ${column} FROM comments WHERE channel_id = ${channelId} AND ${where} ORDER BY id LIMIT 1)`;
	return `SELECT
		(SELECT id FROM boards WHERE channel_id = ${channelId} AND is_public = 0 ORDER BY id LIMIT 1) AS privateBoard,
		${post('is_private = 1')} AS privatePost, ${post('is_private = 1', 'board_id')} AS privatePostBoard, ${post('is_private = 1', 'member_id')} AS privatePostAuthor,
		${post('hidden_by_admin = 1')} AS hiddenPost, ${post('hidden_by_admin = 1', 'board_id')} AS hiddenPostBoard, ${post('hidden_by_admin = 1', 'member_id')} AS hiddenPostAuthor,
		${post('deleted_at IS NOT NULL')} AS deletedPost, ${post('deleted_at IS NOT NULL', 'board_id')} AS deletedPostBoard, ${post('deleted_at IS NOT NULL', 'member_id')} AS deletedPostAuthor,
		${comment('hidden_by_admin = 1', 'id')} AS hiddenComment, ${comment('hidden_by_admin = 1', 'post_id')} AS hiddenCommentPost, ${comment('hidden_by_admin = 1', 'member_id')} AS hiddenCommentAuthor,
		(SELECT board_id FROM posts WHERE id = ${comment('hidden_by_admin = 1', 'post_id')}) AS hiddenCommentBoard,
		${comment('deleted_at IS NOT NULL', 'id')} AS deletedComment, ${comment('deleted_at IS NOT NULL', 'post_id')} AS deletedCommentPost,
		(SELECT board_id FROM posts WHERE id = ${comment('deleted_at IS NOT NULL', 'post_id')}) AS deletedCommentBoard,
		(SELECT id FROM members WHERE channel_id = ${channelId} AND role = 'ADMIN' ORDER BY id LIMIT 1) AS administrator,
		${channelId * 100 + 99} AS draft,
		(SELECT m.id FROM members m WHERE m.channel_id = ${channelId} AND m.role = 'MEMBER' AND m.withdrawn_at IS NULL
			AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.member_id = m.id AND b.lifted_at IS NULL)
			AND m.id NOT IN (${post('is_private = 1', 'member_id')}, ${post('hidden_by_admin = 1', 'member_id')}, ${post('deleted_at IS NOT NULL', 'member_id')},
				${comment('hidden_by_admin = 1', 'member_id')}, ${comment('deleted_at IS NOT NULL', 'member_id')})
			-- Nor anything in the private board or on the hidden post: the member's export (me/export) holds all they wrote.
			AND NOT EXISTS (SELECT 1 FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.member_id = m.id AND b.is_public = 0)
			AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.member_id = m.id AND c.post_id = ${post('hidden_by_admin = 1')})
			ORDER BY m.id LIMIT 1) AS bystander`;
}

/** The targets that ask about every row of PrivacyIds under `base`. */
export function privacyTargets(ids: PrivacyIds, base: string, listPages = 2): ReadTargets {
	return {
		base,
		boardIds: [...new Set([ids.privateBoard, ids.privatePostBoard, ids.hiddenPostBoard, ids.deletedPostBoard])],
		posts: [
			{ postId: ids.privatePost, boardId: ids.privatePostBoard },
			{ postId: ids.hiddenPost, boardId: ids.hiddenPostBoard },
			{ postId: ids.deletedPost, boardId: ids.deletedPostBoard },
			{ postId: ids.hiddenCommentPost, boardId: ids.hiddenCommentBoard },
			{ postId: ids.deletedCommentPost, boardId: ids.deletedCommentBoard },
		],
		userIds: [...new Set([ids.privatePostAuthor, ids.hiddenPostAuthor, ids.deletedPostAuthor, ids.hiddenCommentAuthor])],
		draftIds: [ids.draft],
		commentIds: [ids.hiddenComment, ids.deletedComment],
		listPages,
	};
}

/** The canaries found in `text`. */
export function canariesIn(text: string): Canary[] {
	return Object.values(CANARY).filter((canary) => text.includes(canary));
}
