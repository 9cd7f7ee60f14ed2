/**
 * The member's parts, put into the guest's page on its way out (functions/shell/member-pages.ts says
 * when): what the full render shows this session in MainLayout, Header and Sidebar, on a board page
 * (BoardView's Watch) and on a post page (the author's Edit and Delete, PostActions' Like, Watch and
 * Report, and CommentList's member state and comment box). The markup comes from src/server/channels/member-parts.ts, which
 * the full render uses too. An ended session keeps the guest's page and says so.
 *
 * Each part is a handler of the elements one selector matches (memberParts), run either by
 * HTMLRewriter over the page (memberRewriter) or on the elements found once when the guest's page
 * was stored, its markup spliced into the stored bytes (functions/shell/splice.ts): the same
 * handlers both ways.
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
import type { MemberPart } from './splice';

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
	/** The comments of the page they like (docs/reference/best-comments.md), ascending: those whose Like button the page has. */
	likedComments: number[];
}

/** The parts of a page: All Posts (no board), a board page (its Watch state) or a post page. */
export type PageParts =
	| { kind: 'list'; boardId: null }
	| { kind: 'board'; boardId: number; watching: boolean }
	| ({ kind: 'post'; boardId: number } & PostParts);

/**
 * Every selector a member part is put in by: the stored guest's page is searched for these once
 * (functions/shell/page-spots.ts), and a page with a part of a selector not listed here is rewritten
 * by HTMLRewriter instead of spliced. A new part's selector joins the list.
 */
export const PART_SELECTORS = [
	'[data-route-error-dialog]',
	'body',
	'div.top-bar-search',
	'a[data-account-icon]',
	'[data-guest-welcome]',
	'[data-login-required]',
	'[data-login-required-dialog]',
	'[data-board-actions]',
	'div.post-header-top',
	'script[type="application/ld+json"]',
	'[data-post-action-bar]',
	'a[data-guest-like]',
	'a[data-guest-report]',
	'dialog[data-action-alert]',
	'article.post[data-post-id]',
	'section[data-comments]',
	'li[data-comment-id]',
	'button[data-action="like"][data-comment-id]',
	'textarea#comment-box-new',
] as const;

/** A comment's Like button: a guest's page has one on each comment a member may like (a visible one), Best comments' included. */
export const COMMENT_LIKE = 'button[data-action="like"][data-comment-id]' satisfies (typeof PART_SELECTORS)[number];

type PartSelector = (typeof PART_SELECTORS)[number];

/** A part of one of PART_SELECTORS. */
const part = (selector: PartSelector, element: MemberPart['element']): MemberPart => ({ selector, element });

/**
 * The parts of `session` on the guest's page of `parts`, in the order their handlers run on an element
 * several match (as HTMLRewriter runs them: in the order they were added). A list is for one page: a
 * post's parts remember what they met on it.
 */
export function memberParts(channel: Channel, session: SessionState, parts: PageParts): MemberPart[] {
	const member = session.kind === 'member' ? session.member : null;
	const list = [
		part('[data-route-error-dialog]', (dialog) => {
			dialog.setAttribute('data-session', session.kind);
			if (!member) return;
			dialog.setAttribute('data-user-id', String(member.userId));
			dialog.setAttribute('data-nickname', member.nickname);
			dialog.setAttribute('data-role', member.role);
		}),
	];
	if (!member) return list;
	const t: Translate = translator(channel.language);
	list.push(...layoutParts(t, channel, member, parts.boardId));
	if (parts.kind === 'board') list.push(boardPart(t, channel, member, parts));
	if (parts.kind === 'post') list.push(...postParts(t, channel, member, parts));
	return list;
}

/** The comments of the page `body` with a Like button (COMMENT_LIKE), read by HTMLRewriter (when the page's places are not known). */
export async function likeButtonsOf(body: ArrayBuffer): Promise<string[]> {
	const ids: string[] = [];
	const rewriter = new HTMLRewriter().on(COMMENT_LIKE, {
		element(like) {
			ids.push(like.getAttribute('data-comment-id') ?? '');
		},
	});
	await rewriter.transform(new Response(body)).arrayBuffer();
	return ids;
}

/** The guest's page with `parts` put in by HTMLRewriter as it streams past (when the page's places are not known). */
export function memberRewriter(parts: readonly MemberPart[]): HTMLRewriter {
	let rewriter = new HTMLRewriter();
	for (const { selector, element } of parts) rewriter = rewriter.on(selector, { element });
	return rewriter;
}

/** MainLayout's, Header's and Sidebar's parts: the bell, My Page with the member's avatar, the member's card and Write, the session's scripts. */
function layoutParts(t: Translate, channel: Channel, member: SessionMember, boardId: number | null): MemberPart[] {
	const urls = pageUrls(channel.basePath);
	const writeHref = urls.write(boardId ?? undefined);
	return [
		part('body', (body) => void body.setAttribute('data-session-sync', '')),
		part('div.top-bar-search', (search) => void search.setAttribute('data-beside-bell', '')),
		part('a[data-account-icon]', (account) => {
			account.before(bellHtml(t, urls.notifications), { html: true });
			account.setAttribute('href', urls.mypage);
			account.setInnerContent(accountAvatarHtml(channel.basePath, member.userId), { html: true });
		}),
		part(
			'[data-guest-welcome]',
			(welcome) => void welcome.replace(memberCardHtml(t, { nickname: member.nickname, mypageHref: urls.mypage, writeHref }), { html: true }),
		),
		part('[data-login-required]', (link) => void link.removeAttribute('data-login-required')),
		part('[data-login-required-dialog]', (dialog) => void dialog.remove()),
	];
}

/** BoardView's part: the board's Watch toggle with the member's state. */
function boardPart(t: Translate, channel: Channel, member: SessionMember, parts: { boardId: number; watching: boolean }): MemberPart {
	const watch = {
		target: 'board' as const,
		targetId: parts.boardId,
		userId: member.userId,
		channelBase: channel.basePath,
		watching: parts.watching,
		className: BOARD_WATCH_CLASS,
		marker: BOARD_WATCH_MARKER,
	};
	return part('[data-board-actions]', (actions) => void actions.prepend(watchButtonHtml(t, watch), { html: true }));
}

/**
 * The post page's parts: the author's Edit and Delete by the title on their own post, the member's Like
 * (the guest's, made their button), Watch, Save and Report (Block of the author), the comments section's member id and data element, the "Reported" marks on their reported comments,
 * and the comment box open to them. The structured data is the crawlers', who read as guests.
 */
function postParts(t: Translate, channel: Channel, member: SessionMember, parts: PostParts): MemberPart[] {
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
	const list: MemberPart[] = [];
	// The author's Edit and Delete by the title, after the crumbs, as the full render has them (an administrator's page is rendered in full).
	if (parts.authorId === member.userId) {
		const change = { postId: parts.postId, editHref: pageUrls(channel.basePath).postEdit(parts.postId) };
		list.push(part('div.post-header-top', (top) => void top.append(postManageHtml(t, change), { html: true })));
	}
	list.push(
		part('script[type="application/ld+json"]', (script) => void script.remove()),
		part('[data-post-action-bar]', (bar) => void bar.setAttribute('data-user-id', userId)),
		part('a[data-guest-like]', (like) => {
			like.tagName = 'button';
			for (const name of GUEST_LIKE_ATTRIBUTES) like.removeAttribute(name);
			for (const [name, value] of memberLikeAttributes(t, { liked: parts.liked, userId: member.userId, channelBase: channel.basePath })) {
				like.setAttribute(name, value);
			}
			const save = saveButtonHtml(t, { postId: parts.postId, userId: member.userId, channelBase: channel.basePath, saved: parts.saved });
			like.after(watchButtonHtml(t, watch) + save, { html: true });
		}),
		part('a[data-guest-report]', (report) => {
			// As PostActions: Report, then Block (a member who blocked anyone gets the full render, so never Unblock here).
			const mine =
				(mayReport(parts.authorId, member) ? reportButtonHtml(t, { postId: parts.postId, reported: parts.reported }) : '') +
				(parts.authorId !== member.userId && parts.authorNickname !== null
					? blockButtonHtml(t, { userId: parts.authorId, nickname: parts.authorNickname, blocked: false })
					: '');
			if (mine) report.replace(mine, { html: true });
			else report.remove();
		}),
		part('dialog[data-action-alert]', (alert) => void alert.after(blockDialogHtml(t, channel.basePath), { html: true })),
		part('article.post[data-post-id]', (article) => {
			article.onEndTag((end) => {
				if (!revisionsOffered) end.after(revisionsDialogHtml(t, channel, parts.postId), { html: true });
			});
		}),
		part('section[data-comments]', (section) => {
			section.setAttribute('data-user-id', userId);
			section.setAttribute('data-blocking', JSON.stringify(commentBlocking(t, [])));
			// A member's page offers the edit history's dialog (src/components/post/RevisionsDialog.astro), a
			// guest's only where a mark shows: put it in after the post when the guest's page has none.
			if (section.hasAttribute('data-revisions-offered')) revisionsOffered = true;
			else section.setAttribute('data-revisions-offered', '');
			section.prepend(memberCommentsHtml({ reportedComments: parts.reportedComments, likedComments: parts.likedComments }), { html: true });
		}),
		part('li[data-comment-id]', (comment) => {
			// A comment a member reads in full is a visible one (CommentEntry marks only those).
			if (comment.getAttribute('data-state') === 'VISIBLE' && reported.has(Number(comment.getAttribute('data-comment-id')))) {
				comment.setAttribute('data-reported', '');
			}
		}),
		part(COMMENT_LIKE, (like) => {
			if (liked.has(Number(like.getAttribute('data-comment-id')))) like.setAttribute('aria-pressed', 'true');
		}),
		part('textarea#comment-box-new', (box) => {
			box.removeAttribute('readonly');
			box.setAttribute('placeholder', t('comment.write.placeholder'));
			box.after(MENTION_STATUS_HTML, { html: true });
		}),
	);
	return list;
}
