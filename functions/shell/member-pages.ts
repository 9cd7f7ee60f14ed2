/**
 * A member's page made from the guest's: a signed-in member's GET of All Posts or a board page is
 * answered from the guest's page (the edge cache's entry, or the guest's render made and stored as
 * a guest's miss would be) with the member's parts put in on the way out by HTMLRewriter, instead
 * of Astro rendering the whole page again for that member. The parts' markup comes from one place,
 * src/server/channels/member-parts.ts, which the full render uses too.
 *
 * The one rule (memberPageOf, then memberPageChoice) keeps the full render where the member's page
 * is not the guest's page with their parts:
 * - any other route (a post's page, My Page, search, …): not rewritten yet;
 * - a URL that is not its canonical one (the page's links follow the URL asked, the guest's entry
 *   the canonical one);
 * - a community without sign-in providers (a guest is offered no Write there, a member is);
 * - a board that does not exist, or that a guest may not read (a private board: an administrator
 *   reads its list, a member its notice);
 * - a notice-only board (its administrators are offered Write there, no one else is: decided
 *   before the session is read, so an administrator's page there costs no extra round trip);
 * - a banned member (the ban notice and the ban's end), and a member who blocked anyone (their
 *   blocked members' posts are collapsed: docs/reference/blocking.md): the cases decided by the
 *   session (whether it blocked anyone is read in the session's batch), so the full render's own
 *   round trip comes after the session's.
 * Everything else is rewritten: a member, an administrator, and a cookie whose session has ended
 * (the guest's page, with the session's state and the cookie cleared, as the full render answers).
 *
 * The session and what the parts need (the board's Watch state) are read in one D1 batch, while
 * the guest's page is fetched or made: no more round trips in sequence than the full render. A
 * member's answer is `Cache-Control: private, no-store` and never stored; the guest's page it is made
 * from is a guest's, made without the member's cookie.
 */
import type { Channel } from '@/server/channels/channels';
import type { LayoutData } from '@/server/channels/layout';
import type { SessionState } from '@/server/sign-in/sessions';
import { requestSession } from '@/server/sign-in/request-session';
import { watchingByTokenRead } from '@/server/notifications/watches';
import { blocksAnyoneByTokenRead } from '@/server/members/blocks';
import { together } from '@/server/platform/reads';
import { canReadBoard, GUEST } from '@/server/visibility/visibility';
import { pageUrls } from '@/lib/urls';
import { translator, type Translate } from '@/i18n';
import { BOARD_WATCH_CLASS, BOARD_WATCH_MARKER, bellHtml, memberCardHtml, watchButtonHtml } from '@/server/channels/member-parts';
import type { CacheableRequest } from './cache-routes';

/** A page the rewrite may answer: All Posts (boardId null) or a board a guest may read. */
export interface MemberPage {
	boardId: number | null;
}

/** The path under a channel of the two pages rewritten (cache-routes.ts's page routes). */
const ALL_POSTS = /^\/boards$/;
const BOARD = /^\/boards\/(\d+)$/;

/** Whether `route` is one the rewrite may answer: checked before anything is read for a member. */
export function rewritableRoute(route: CacheableRequest): boolean {
	return !route.prefix.startsWith('/public/') && (ALL_POSTS.test(route.rest) || BOARD.test(route.rest));
}

/**
 * The rule's first half, before anything is read: the page the rewrite answers, or null for the
 * full render (the cases above that the URL, the channel and its layout decide).
 */
export function memberPageOf(
	route: CacheableRequest,
	url: string,
	canonical: string,
	layout: Pick<LayoutData, 'boards' | 'providers'>,
): MemberPage | null {
	if (!rewritableRoute(route) || url !== canonical || layout.providers.length === 0) return null;
	const boardText = BOARD.exec(route.rest)?.[1];
	if (boardText === undefined) return { boardId: null };
	const board = layout.boards.find((candidate) => candidate.boardId === Number(boardText));
	if (!board || !canReadBoard(board, GUEST) || board.noticeOnly) return null;
	return { boardId: board.boardId };
}

/** The rule's second half, once the session is known: rewrite the guest's page, or render in full. */
export function memberPageChoice(session: SessionState, blocksAnyone: boolean): 'rewrite' | 'full' {
	return session.kind === 'banned' || (session.kind === 'member' && blocksAnyone) ? 'full' : 'rewrite';
}

/** What the rewrite needs to know of the request. */
interface MemberAsk {
	request: Request;
	db: Db;
	channel: Channel;
	page: MemberPage;
	/** The guest's answer for the canonical URL, from the edge cache or made and stored as for a guest. */
	guestAnswer: () => Promise<Response>;
	/** The full render, with the member's cookie. */
	origin: (request: Request) => Promise<Response>;
	now: number;
}

/** Answers a member's request for `page` (memberPageOf): the guest's page rewritten, or the full render. */
export async function answerMember({ request, db, channel, page, guestAnswer, origin, now }: MemberAsk): Promise<Response> {
	const { boardId } = page;
	const alongside = (tokenHash: string | null) =>
		together(
			tokenHash === null
				? {}
				: {
						blocksAnyone: blocksAnyoneByTokenRead(db, channel.id, tokenHash),
						...(boardId !== null && { watching: watchingByTokenRead(db, channel.id, tokenHash, 'BOARD', boardId) }),
					},
		);
	// The session's batch and the guest's page at the same time: one round trip in sequence, as the full render.
	const [{ session, headers, read }, guest] = await Promise.all([requestSession(db, channel, request, alongside, now), guestAnswer()]);
	const blocksAnyone = read !== null && 'blocksAnyone' in read && read.blocksAnyone === true;
	if (memberPageChoice(session, blocksAnyone) === 'full' || guest.status !== 200 || !guest.headers.get('content-type')?.startsWith('text/html')) {
		await guest.body?.cancel();
		return origin(request);
	}
	const watching = read !== null && 'watching' in read && read.watching === true;
	const sent = memberRewriter(channel, page, session, watching).transform(new Response(guest.body, guest));
	sent.headers.delete('Content-Length');
	sent.headers.delete('X-Edge-Cache');
	for (const [name, value] of headers) {
		if (name === 'Set-Cookie') sent.headers.append(name, value);
		else sent.headers.set(name, value);
	}
	sent.headers.set('X-Member-Page', 'REWRITTEN');
	return sent;
}

/**
 * The member's parts, put into the guest's page of `page`: what the full render shows this session
 * (MainLayout, Header, Sidebar, BoardView). An ended session keeps the guest's page and says so.
 */
function memberRewriter(channel: Channel, page: MemberPage, session: SessionState, watching: boolean): HTMLRewriter {
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
	const urls = pageUrls(channel.basePath);
	const writeHref = urls.write(page.boardId ?? undefined);
	rewriter
		.on('body', { element: (body) => void body.setAttribute('data-session-sync', '') })
		.on('div.top-bar-search', { element: (search) => void search.setAttribute('data-beside-bell', '') })
		.on('a[data-account-icon]', {
			element(account) {
				account.before(bellHtml(t, urls.notifications), { html: true });
				account.setAttribute('href', urls.mypage);
			},
		})
		.on('[data-guest-welcome]', {
			element: (welcome) =>
				void welcome.replace(memberCardHtml(t, { nickname: member.nickname, mypageHref: urls.mypage, writeHref }), { html: true }),
		})
		.on('[data-login-required]', { element: (link) => void link.removeAttribute('data-login-required') })
		.on('[data-login-required-dialog]', { element: (dialog) => void dialog.remove() });
	const { boardId } = page;
	if (boardId !== null) {
		const watch = {
			target: 'board' as const,
			targetId: boardId,
			userId: member.userId,
			channelBase: channel.basePath,
			watching,
			className: BOARD_WATCH_CLASS,
			marker: BOARD_WATCH_MARKER,
		};
		rewriter.on('[data-board-actions]', { element: (actions) => void actions.prepend(watchButtonHtml(t, watch), { html: true }) });
	}
	return rewriter;
}
