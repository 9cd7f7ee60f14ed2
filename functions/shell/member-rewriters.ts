/**
 * The member's parts, put into the guest's page on its way out (functions/shell/member-pages.ts says
 * when): what the full render shows this session in MainLayout, Header and Sidebar, on a board page
 * (BoardView's Watch) and on a post page (the author's Edit and Delete, PostActions' Like, Watch and
 * Report, and CommentList's member state and comment box). The markup comes from src/server/channels/member-parts.ts, which
 * the full render uses too. An ended session keeps the guest's page and says so.
 */
import type { Channel } from '@/server/channels/channels';
import type { SessionMember, SessionState } from '@/server/sign-in/sessions';
import { pageUrls } from '@/lib/urls';
import { translator, type Translate } from '@/i18n';
import {
	BOARD_WATCH_CLASS,
	BOARD_WATCH_MARKER,
	accountAvatarHtml,
	bellHtml,
	GUEST_LIKE_ATTRIBUTES,
	memberCardHtml,
	memberCommentsHtml,
	memberLikeAttributes,
	MENTION_STATUS_HTML,
	POST_WATCH_CLASS,
	POST_WATCH_MARKER,
	reportButtonHtml,
	blockButtonHtml,
	blockDialogHtml,
	commentBlocking,
	postManageHtml,
	revisionsDialogHtml,
	saveButtonHtml,
	watchButtonHtml,
} from '@/server/channels/member-parts';
import { mayReport } from '@/server/reports/reports';

/** What a post page's parts show: the member's own state of the post, read with the session. */
interface PostParts {
	postId: number;
	authorId: number;
	/** The author's nickname, null once they withdrew: no Block then. */
	authorNickname: string | null;
	liked: boolean;
	reported: boolean;
	watching: boolean;
	saved: boolean;
	reportedComments: number[];
	/** The comments of the page they like (docs/reference/best-comments.md). */
	likedComments: number[];
}

/** The parts of a page: All Posts (no board), a board page (its Watch state) or a post page. */
export type PageParts =
	| { kind: 'list'; boardId: null }
	| { kind: 'board'; boardId: number; watching: boolean }
	| ({ kind: 'post'; boardId: number } & PostParts);

/** The guest's page of `parts` with the parts of `session` put in. */
export function memberRewriter(channel: Channel, session: SessionState, parts: PageParts): HTMLRewriter {
	const member = session.kind === 'member' ? session.member : null;
	const rewriter = new HTMLRewriter().on('[data-route-error-dialog]', {
		element(dialog) {
			dialog.setAttribute('data-session', session.kind);
			if (!member) return;
			dialog.setAttribute('data-user-id', String(member.userId));
			dialog.setAttribute('data-nickname', member.nickname);
			dialog.setAttribute('data-role', member.role);
		},
	});
	if (!member) return rewriter;
	const t: Translate = translator(channel.language);
	layoutParts(rewriter, t, channel, member, parts.boardId);
	if (parts.kind === 'board') boardParts(rewriter, t, channel, member, parts);
	if (parts.kind === 'post') postParts(rewriter, t, channel, member, parts);
	return rewriter;
}

/** MainLayout's, Header's and Sidebar's parts: the bell, My Page with the member's avatar, the member's card and Write, the session's scripts. */
function layoutParts(rewriter: HTMLRewriter, t: Translate, channel: Channel, member: SessionMember, boardId: number | null): void {
	const urls = pageUrls(channel.basePath);
	const writeHref = urls.write(boardId ?? undefined);
	rewriter
		.on('body', { element: (body) => void body.setAttribute('data-session-sync', '') })
		.on('div.top-bar-search', { element: (search) => void search.setAttribute('data-beside-bell', '') })
		.on('a[data-account-icon]', {
			element(account) {
				account.before(bellHtml(t, urls.notifications), { html: true });
				account.setAttribute('href', urls.mypage);
				account.setInnerContent(accountAvatarHtml(channel.basePath, member.userId), { html: true });
			},
		})
		.on('[data-guest-welcome]', {
			element: (welcome) =>
				void welcome.replace(memberCardHtml(t, { nickname: member.nickname, mypageHref: urls.mypage, writeHref }), { html: true }),
		})
		.on('[data-login-required]', { element: (link) => void link.removeAttribute('data-login-required') })
		.on('[data-login-required-dialog]', { element: (dialog) => void dialog.remove() });
}

/** BoardView's part: the board's Watch toggle with the member's state. */
function boardParts(
	rewriter: HTMLRewriter,
	t: Translate,
	channel: Channel,
	member: SessionMember,
	parts: { boardId: number; watching: boolean },
): void {
	const watch = {
		target: 'board' as const,
		targetId: parts.boardId,
		userId: member.userId,
		channelBase: channel.basePath,
		watching: parts.watching,
		className: BOARD_WATCH_CLASS,
		marker: BOARD_WATCH_MARKER,
	};
	rewriter.on('[data-board-actions]', { element: (actions) => void actions.prepend(watchButtonHtml(t, watch), { html: true }) });
}

/**
 * The post page's parts: the author's Edit and Delete by the title on their own post, the member's Like
 * (the guest's, made their button), Watch, Save and Report (Block of the author), the comments section's member id and data element, the "Reported" marks on their reported comments,
 * and the comment box open to them. The structured data is the crawlers', who read as guests.
 */
function postParts(rewriter: HTMLRewriter, t: Translate, channel: Channel, member: SessionMember, parts: PostParts): void {
	const userId = String(member.userId);
	const watch = {
		target: 'post' as const,
		targetId: parts.postId,
		userId: member.userId,
		channelBase: channel.basePath,
		watching: parts.watching,
		className: POST_WATCH_CLASS,
		marker: POST_WATCH_MARKER,
	};
	const reported = new Set(parts.reportedComments);
	const liked = new Set(parts.likedComments);
	let revisionsOffered = false;
	// The author's Edit and Delete by the title, after the crumbs, as the full render has them (an administrator's page is rendered in full).
	if (parts.authorId === member.userId) {
		const change = { postId: parts.postId, editHref: pageUrls(channel.basePath).postEdit(parts.postId) };
		rewriter.on('div.post-header-top', { element: (top) => void top.append(postManageHtml(t, change), { html: true }) });
	}
	rewriter
		.on('script[type="application/ld+json"]', { element: (script) => void script.remove() })
		.on('[data-post-action-bar]', { element: (bar) => void bar.setAttribute('data-user-id', userId) })
		.on('a[data-guest-like]', {
			element(like) {
				// HTMLRewriter's element may be renamed (the DOM's Element, also in scope, may not).
				(like as { tagName: string }).tagName = 'button';
				for (const name of GUEST_LIKE_ATTRIBUTES) like.removeAttribute(name);
				for (const [name, value] of memberLikeAttributes(t, { liked: parts.liked, userId: member.userId, channelBase: channel.basePath })) {
					like.setAttribute(name, value);
				}
				like.after(
					watchButtonHtml(t, watch) +
						saveButtonHtml(t, { postId: parts.postId, userId: member.userId, channelBase: channel.basePath, saved: parts.saved }),
					{
						html: true,
					},
				);
			},
		})
		.on('a[data-guest-report]', {
			element(report) {
				// As PostActions: Report, then Block (a member who blocked anyone gets the full render, so never Unblock here).
				const mine =
					(mayReport(parts.authorId, member) ? reportButtonHtml(t, { postId: parts.postId, reported: parts.reported }) : '') +
					(parts.authorId !== member.userId && parts.authorNickname !== null
						? blockButtonHtml(t, { userId: parts.authorId, nickname: parts.authorNickname, blocked: false })
						: '');
				if (mine) report.replace(mine, { html: true });
				else report.remove();
			},
		})
		.on('dialog[data-action-alert]', { element: (alert) => void alert.after(blockDialogHtml(t, channel.basePath), { html: true }) })
		.on('article.post[data-post-id]', {
			element(article) {
				article.onEndTag((end) => {
					if (!revisionsOffered) end.after(revisionsDialogHtml(t, channel, parts.postId), { html: true });
				});
			},
		})
		.on('section[data-comments]', {
			element(section) {
				section.setAttribute('data-user-id', userId);
				section.setAttribute('data-blocking', JSON.stringify(commentBlocking(t, [])));
				// A member's page offers the edit history's dialog (src/components/post/RevisionsDialog.astro), a
				// guest's only where a mark shows: put it in after the post when the guest's page has none.
				if (section.hasAttribute('data-revisions-offered')) revisionsOffered = true;
				else section.setAttribute('data-revisions-offered', '');
				section.prepend(memberCommentsHtml({ reportedComments: parts.reportedComments, likedComments: parts.likedComments }), { html: true });
			},
		})
		.on('li[data-comment-id]', {
			element(comment) {
				// A comment a member reads in full is a visible one (CommentEntry marks only those).
				if (comment.getAttribute('data-state') === 'VISIBLE' && reported.has(Number(comment.getAttribute('data-comment-id')))) {
					comment.setAttribute('data-reported', '');
				}
			},
		})
		.on('button[data-action="like"][data-comment-id]', {
			element(like) {
				if (liked.has(Number(like.getAttribute('data-comment-id')))) like.setAttribute('aria-pressed', 'true');
			},
		})
		.on('textarea#comment-box-new', {
			element(box) {
				box.removeAttribute('readonly');
				box.setAttribute('placeholder', t('comment.write.placeholder'));
				box.after(MENTION_STATUS_HTML, { html: true });
			},
		});
}
