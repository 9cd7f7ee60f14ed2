/**
 * The post page's view model (src/pages/[domain]/[slug]/posts/[postId].astro renders it): what its
 * reads found (src/server/loaders/post-page.ts), as the reader may see it, with the texts, links and
 * permissions its markup shows. Read from D1, the page counts against the `postRead` rate limit of
 * the reader's address (a guest's edge-cache hit is not counted), and past it the page answers 429.
 */
import type { AstroGlobal } from 'astro';
import { isSignedIn, type ChannelPage } from './channel-page';
import { loadReadLimitedPage } from './read-limit';
import { postWithCommentsOf, postWithCommentsRead } from './post-page';
import { commentPageStartOfQuery } from '@/server/comments/pages';
import { memberPostStateRead } from '@/server/posts/member-state';
import { blockedIdsRead } from '@/server/members/blocks';
import type { PostDetail, PostTombstone, PostView } from '@/server/posts/detail';
import { orderOf, type CommentItem, type CommentOrder } from '@/server/comments/comments';
import { isAdminViewer, viewerOf } from '@/server/visibility/visibility';
import { renderContentHtml } from '@/server/posts/content-html';
import { mayChangePost } from '@/server/posts/writing';
import { postSeo } from '@/server/seo/post-seo';
import { siteOrigin } from '@/server/platform/site-origin';
import type { SessionMember } from '@/server/sign-in/sessions';
import { parseId } from '@/schemas/params';
import { excerpt, storedText } from '@/server/platform/excerpt';
import { pageUrls } from '@/lib/urls';
import type { PageSeo } from '@/server/seo/page-seo';

type Context = Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'csp' | 'url'>;

interface PostPageView extends Omit<ChannelPage, 'read'> {
	/** Whether the read limit refused the page (it answers 429). */
	refused: boolean;
	/** The post, or its tombstone when the reader may not read it; null when there is no such post. */
	post: PostView | null;
	/** The post when the reader may read it. */
	readable: PostDetail | null;
	/** The comments of the page, flat in thread order; the last one's id when more follow; whether it is the first page. */
	comments: CommentItem[];
	nextAfter: number | null;
	startsAtBeginning: boolean;
	/** The order of the comments shown, and the post's Best comments (on a first page). */
	order: CommentOrder;
	best: CommentItem[];
	title: string;
	description: string;
	seo: PageSeo | undefined;
	/** What a post the reader may not read says instead. */
	stateText: (shown: PostTombstone) => string;
	/** The notice over a post its author or an administrator still reads, saying who else can. */
	restrictedText: string | null;
	/** The body, rendered. */
	body: string;
	boardHref: string;
	/** The member reading (not a banned one), and the one acting (a banned one too). */
	member: SessionMember | null;
	actor: SessionMember | null;
	admin: boolean;
	liked: boolean;
	reported: boolean;
	watching: boolean;
	/** The comments of the post the member reported (their data element: member-parts.ts memberCommentsHtml). */
	reportedComments: number[];
	saved: boolean;
	canEdit: boolean;
	canDelete: boolean;
	/** The members the reader blocked (docs/reference/blocking.md): their comments collapsed; null for a guest's page. */
	blocked: number[] | null;
}

/**
 * The post page's view model, or the Response it answers with instead: the not-found page for a
 * path with no channel, or a redirect to the post's own URL for a comment id that names no comment
 * of a post the reader may read.
 */
export async function loadPostPage(astro: Context & Pick<AstroGlobal, 'rewrite'>): Promise<PostPageView | Response> {
	const postId = parseId(astro.params['postId']);
	// A link to a comment (`?commentId=N#comment-N`) opens the page of comments that holds it;
	// `?commentsAfter=N` is the next page after comment N (Show more comments, without JavaScript);
	// `?commentsSort=best` the Best order (docs/reference/best-comments.md).
	const start = commentPageStartOfQuery(astro.url.searchParams);
	// The post with its comments, and the member's like, report, watch and save, go to D1 in one batch with
	// the session's row, counted against the read limit (a malformed post id reads nothing and is not counted).
	const page = await loadReadLimitedPage(astro, postId === null ? null : 'postRead', (db, channel, tokenHash) => ({
		...(postId !== null && { post: postWithCommentsRead(db, channel.id, postId, start, tokenHash) }),
		...(postId !== null &&
			tokenHash !== null && { mine: memberPostStateRead(db, channel.id, tokenHash, postId), blocked: blockedIdsRead(db, channel.id, { tokenHash }) }),
	}));
	if (!page) return astro.rewrite('/404');
	const { channel, t, session, refused, read } = page;
	const viewer = viewerOf(session);
	const found = postWithCommentsOf(read?.post ?? null, viewer, start);
	// A comment id that names no comment of a post the reader may read is sent to the post's own URL,
	// and that answer is not stored: the edge cache keeps only the post's own comments' ids in its keys
	// (docs/reference/edge-cache.md), however many made-up ids a client sends.
	if (postId !== null && !refused && start.kind !== 'first' && !(found?.post.readable && found.anchorFound)) {
		const headers = new Headers(astro.response.headers);
		headers.set('Location', pageUrls(channel.basePath).post(postId));
		headers.set('Cache-Control', 'no-store');
		return new Response(null, { status: 302, headers });
	}
	const post = found?.post ?? null;
	// A post that is not there answers 404; one its reader may not read 404 too, or 410 once deleted,
	// so that a search engine drops it (the page still says what happened to it).
	if (!refused && (!post || !post.readable)) astro.response.status = post?.state === 'DELETED' ? 410 : 404;
	const STATE_TEXT = {
		HIDDEN_BY_ADMIN: t('post.state.hidden'),
		DELETED: t('post.state.deleted'),
		PRIVATE: t('post.state.private'),
		BOARD_PRIVATE: t('board.private'),
	} as const;
	const RESTRICTED_TEXT = {
		VISIBLE: null,
		DELETED: null,
		HIDDEN_BY_ADMIN: t('post.restricted.hidden'),
		PRIVATE: t('post.restricted.private'),
		BOARD_PRIVATE: t('post.restricted.boardPrivate'),
	} as const;
	const readable = post?.readable ? post : null;
	const comments = found?.comments ?? [];
	// A post the community's automatic hide took away says so, not that an administrator did.
	const stateText = (shown: PostTombstone) => (shown.autoHidden ? t('post.state.hiddenByReports') : STATE_TEXT[shown.state]);
	const restrictedText = readable?.autoHidden ? t('post.restricted.hiddenByReports') : readable ? RESTRICTED_TEXT[readable.state] : null;
	const body = readable
		? renderContentHtml(readable.content, {
				playVideo: t('content.playVideo'),
				openImage: t('content.openImage'),
				videoTitle: readable.title,
				mentions: { list: readable.mentions ?? [], profile: pageUrls(channel.basePath).user },
			})
		: '';
	// The body's plain text, for the description and the preview (postSeo).
	const bodyText = readable ? storedText(readable.content) : '';
	const member = session.kind === 'member' ? session.member : null;
	// The action bar: a member's page is rendered for them alone (never cached), so it carries their like.
	const actor = isSignedIn(session) ? session.member : null;
	const mine = readable !== null && actor !== null;
	// On a post they read in full that is not deleted, Edit and Delete as the service allows them (mayChangePost).
	const changeable = readable !== null && member !== null && readable.state !== 'DELETED';
	return {
		...page,
		post,
		readable,
		comments,
		nextAfter: found?.nextAfter ?? null,
		startsAtBeginning: found?.startsAtBeginning ?? true,
		order: orderOf(start),
		best: found?.best ?? [],
		title: refused ? t('error.tooManyRequests.title') : readable ? readable.title : t('post.notFound.title'),
		description: refused ? t('error.tooManyRequests.desc') : !post ? t('post.notFound.desc') : post.readable ? excerpt(bodyText) : stateText(post),
		// A visible post is indexed, with its preview and structured data (docs/reference/seo.md); the structured
		// data is for crawlers, which read as guests.
		seo:
			readable?.state === 'VISIBLE'
				? postSeo(
						siteOrigin(astro.url),
						channel,
						readable,
						bodyText,
						comments,
						{ withdrawn: t('common.withdrawnMember') },
						{ structuredData: !isSignedIn(session) },
					)
				: undefined,
		stateText,
		restrictedText,
		body,
		boardHref: post ? pageUrls(channel.basePath).board(post.boardId) : channel.basePath,
		member,
		actor,
		admin: isAdminViewer(viewer),
		liked: mine && read?.mine?.liked === true,
		reported: mine && read?.mine?.reported === true,
		watching: mine && read?.mine?.watching === true,
		reportedComments: (mine && read?.mine?.reportedComments) || [],
		saved: mine && read?.mine?.saved === true,
		canEdit: changeable && mayChangePost('edit', readable.author.userId, member),
		canDelete: changeable && mayChangePost('delete', readable.author.userId, member),
		blocked: actor !== null ? (read?.blocked ?? []) : null,
	};
}
