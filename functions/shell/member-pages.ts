/**
 * A member's page made from the guest's: a signed-in member's GET of All Posts, a board page or a
 * post page is answered from the guest's page (the edge cache's entry, or the guest's render made
 * and stored as a guest's miss would be) with the member's parts (functions/shell/member-rewriters.ts)
 * spliced into its stored bytes at the places found when it was stored (functions/shell/splice.ts),
 * or put in on the way out by HTMLRewriter where those are not known, instead of Astro rendering the
 * whole page again for that member. The parts' markup comes from one place,
 * src/server/channels/member-parts.ts, which the full render uses too.
 *
 * The one rule (memberPageOf, then the stored guest's answer, then memberPageChoice) keeps the full
 * render where the member's page is not the guest's page with their parts:
 * - any other route (My Page, search, a profile, home, …): not rewritten;
 * - a URL that is not its canonical one (the page's links follow the URL asked, the guest's entry
 *   the canonical one);
 * - a community without sign-in providers (a guest is offered no Write there, a member is);
 * - a board that does not exist, or that a guest may not read (a private board: an administrator
 *   reads its list, a member its notice);
 * - a notice-only board (its administrators are offered Write there, no one else is);
 * - a guest's answer that is not a 200 HTML page: a post a guest may not read (private, hidden,
 *   deleted, on a private board, or none), which its author or an administrator may read: decided
 *   before the session is read when the guest's answer is stored, so it costs the full render's
 *   round trip alone;
 * - a banned member (the ban notice and the ban's end), and a member who blocked anyone (their
 *   blocked members' posts and comments are collapsed: docs/reference/blocking.md), decided by the
 *   session (whether it blocked anyone is read in the session's batch);
 * - on a post page, an administrator (moderation controls and hidden comments' text), and a member
 *   who likes more of its comments than the session's batch reads (LIKED_COMMENTS_READ: 200), decided
 *   by the session. The post's author is rewritten: their Edit and Delete are parts too (their own
 *   post a guest may not read, hidden or private, is the guest's 404 above).
 * The cases decided by the session cost the full render's round trip after the session's (2).
 * Everything else is rewritten: a member, the author of a post a guest reads, an administrator on a
 * list, and a cookie whose session has ended (the guest's page, with the session's state and the cookie cleared, as the full render answers).
 *
 * The session and what the parts need (a board's Watch state; a post's like, report, watch, the
 * comments reported and liked and the post's author and board) are read in one D1 batch, while the guest's
 * page is made: one round trip in sequence, as the full render. A member's answer is
 * `Cache-Control: private, no-store` and never stored; the guest's page it is made from is a
 * guest's, made without the member's cookie.
 */
import type { Channel } from '@/server/channels/channels';
import type { LayoutData } from '@/server/channels/layout';
import type { Board } from '@/server/boards/boards';
import type { AlongsideReads, SessionState } from '@/server/sign-in/sessions';
import { requestSession } from '@/server/sign-in/request-session';
import { listStateOf, listStateSql, type ListState } from '@/server/members/blocks';
import { together } from '@/server/platform/reads';
import { canReadBoard, GUEST } from '@/server/visibility/visibility';
import { isAdmin } from '@/lib/roles';
import { memberPostStateOf, memberPostStateSql, postPlaceRead, type MemberPostState, type PostPlace } from '@/server/posts/member-state';
import { likedCommentsOf, likedCommentsOfPostSql } from '@/server/likes/comment-likes';
import type { CacheableRequest } from './cache-routes';
import { COMMENT_LIKE, likeButtonsOf, memberParts, memberRewriter, PART_SELECTORS, type PageParts } from './member-rewriters';
import { attributeValues, splicePage, type PageSpots } from './splice';

/** A page the rewrite may answer: All Posts (boardId null), a board a guest may read, or a post's page. */
export type MemberPage = { kind: 'list'; boardId: number | null } | { kind: 'post'; postId: number };

/** The path under a channel of the pages rewritten (cache-routes.ts's page routes). */
const ALL_POSTS = /^\/boards$/;
const BOARD = /^\/boards\/(\d+)$/;
const POST = /^\/posts\/(\d+)$/;

/** Whether `route` is one the rewrite may answer: checked before anything is read for a member. */
export function rewritableRoute(route: CacheableRequest): boolean {
	return !route.prefix.startsWith('/public/') && [ALL_POSTS, BOARD, POST].some((path) => path.test(route.rest));
}

/** Whether `route` is a board's page, which memberPageOf decides by its board as well. */
export const isBoardPage = (route: CacheableRequest): boolean => BOARD.test(route.rest);

/** Whether a guest's answer (a Response, or the edge cache's entry of one) is a page the parts can be put into (a 200 HTML page). */
export function isGuestPage(guest: { status: number; headers: Headers }): boolean {
	return guest.status === 200 && guest.headers.get('content-type')?.startsWith('text/html') === true;
}

/**
 * The rule's first half, before anything is read: the page the rewrite answers, or null for the
 * full render (the cases above that the URL, the channel and its layout decide). A post's page needs
 * only the channel's providers; a board's list its boards too (without them, the full render).
 */
export function memberPageOf(
	route: CacheableRequest,
	url: string,
	canonical: string,
	layout: Pick<LayoutData, 'providers'> & { boards?: Pick<Board, 'boardId' | 'publicFlag' | 'noticeOnly'>[] },
): MemberPage | null {
	if (!rewritableRoute(route) || url !== canonical || layout.providers.length === 0) return null;
	if (route.postId !== null) return { kind: 'post', postId: route.postId };
	const boardText = BOARD.exec(route.rest)?.[1];
	if (boardText === undefined) return { kind: 'list', boardId: null };
	const board = layout.boards?.find((candidate) => candidate.boardId === Number(boardText));
	if (!board || !canReadBoard(board, GUEST) || board.noticeOnly) return null;
	return { kind: 'list', boardId: board.boardId };
}

/** What the session's batch told of the member that the rule's last half looks at. */
export interface MemberFacts {
	/** The post's place, on a post page: null where the channel has no such post. */
	place?: PostPlace | null;
	/** Whether they blocked anyone. */
	blocksAnyone?: boolean;
	/** On a post page, whether they like more of its comments than LIKED_COMMENTS_READ. */
	likesPastRead?: boolean;
}

/**
 * The rule's last half, once the session (and, on a post page, the post's place) is known: rewrite
 * the guest's page, or render in full for a banned member and a member who blocked anyone, and on a
 * post page for an administrator, where the channel has no such post and for a member who likes
 * more of its comments than the session's batch reads (LIKED_COMMENTS_READ).
 */
export function memberPageChoice(session: SessionState, page: MemberPage, facts: MemberFacts = {}): 'rewrite' | 'full' {
	if (session.kind === 'banned') return 'full';
	if (session.kind !== 'member') return 'rewrite';
	if (facts.blocksAnyone === true) return 'full';
	if (page.kind !== 'post') return 'rewrite';
	return isAdmin(session.member) || !facts.place || facts.likesPastRead === true ? 'full' : 'rewrite';
}

/**
 * A guest's answer: its status and headers, where the edge cache keeps its bytes with the places of
 * the member's parts in them (when it knows them), and the answer as a Response, made at the first
 * ask from a stored entry (a spliced member's page needs none).
 */
export interface GuestAnswer {
	status: number;
	headers: Headers;
	stored: { body: ArrayBuffer; spots: PageSpots } | null;
	response: () => Response;
}

/** What the rewrite needs to know of the request. */
interface MemberAsk {
	request: Request;
	db: Db;
	channel: Channel;
	page: MemberPage;
	/** The guest's answer for the canonical URL, from the edge cache or made and stored as for a guest. */
	guestAnswer: () => Promise<GuestAnswer>;
	/** The full render, with the member's cookie. */
	origin: (request: Request) => Promise<Response>;
	now: number;
}

/**
 * The values of partsReads, by name. `likedComments`: the post's comments the member likes, ascending
 * (null past LIKED_COMMENTS_READ); the page shows those of them it has a Like button of.
 */
type PartsValues = { list?: ListState; post?: MemberPostState; place?: PostPlace | null; likedComments?: number[] | null };

/**
 * The reads of `page`'s parts, in the session's own row (local D1 runs every statement of a batch in
 * the Worker's process, each at its own cost: docs/decisions/performance.md): on a post page the
 * member's state of the post with its place, and the post's comments they like (at most
 * LIKED_COMMENTS_READ + 1 index entries, whatever the post's size: the page's Like buttons then say
 * which of them it shows); on a board page and All Posts whether they blocked anyone with their Watch
 * of the board.
 */
function partsReads(db: Db, channel: Channel, page: MemberPage): AlongsideReads<PartsValues> {
	return (tokenHash) => {
		if (page.kind === 'post') {
			if (tokenHash === null) return together({ place: postPlaceRead(db, channel.id, page.postId) });
			return {
				inSessionRow: {
					columns: `${memberPostStateSql('s.member_id', '?2', '?4')} AS member_post, ${likedCommentsOfPostSql('s.member_id', '?4')} AS liked_comments`,
					params: [page.postId],
				},
				statements: [],
				parse: ([session]) => {
					const row = sessionRowOf<{ member_post: string | null; liked_comments: string | null }>(session);
					return { post: memberPostStateOf(row?.member_post), likedComments: likedCommentsOf(row?.liked_comments) };
				},
			};
		}
		if (tokenHash === null) return together({});
		return {
			inSessionRow: { columns: listStateSql('s.member_id', '?4'), params: [page.boardId] },
			statements: [],
			parse: ([session]) => ({ list: listStateOf(sessionRowOf<Parameters<typeof listStateOf>[0] & object>(session)) }),
		};
	};
}

/** The session's row (with a page's columns), none when the token has no session. */
const sessionRowOf = <T>(result: D1Result | undefined) => result?.results[0] as T | undefined;

/** What the rewriter puts in for `page`, from the values of partsReads and the liked comments the page shows (likedShown). */
function partsOf(page: MemberPage, read: PartsValues | null, likedComments: number[]): PageParts {
	if (page.kind === 'list') {
		return page.boardId === null
			? { kind: 'list', boardId: null }
			: { kind: 'board', boardId: page.boardId, watching: read?.list?.watching === true };
	}
	const place = placeOf(read);
	return {
		kind: 'post',
		postId: page.postId,
		boardId: place?.boardId ?? 0,
		authorId: place?.authorId ?? 0,
		authorNickname: place?.authorNickname ?? null,
		liked: read?.post?.liked === true,
		reported: read?.post?.reported === true,
		watching: read?.post?.watching === true,
		saved: read?.post?.saved === true,
		reportedComments: read?.post?.reportedComments ?? [],
		likedComments,
	};
}

/**
 * Of the comments the member likes (`liked`, ascending), those the guest's page has a Like button of:
 * the visible comments of the page and its Best comments, as the full render lists them. Read from
 * the stored page's places (once per stored page), else by HTMLRewriter from its bytes, which are
 * then the answer's (`buffered`).
 */
async function likedShown(guest: GuestAnswer, liked: number[]): Promise<{ likedComments: number[]; buffered: Response | null }> {
	if (liked.length === 0) return { likedComments: [], buffered: null };
	let shown = guest.stored && attributeValues(guest.stored.body, guest.stored.spots, PART_SELECTORS, COMMENT_LIKE, 'data-comment-id');
	let buffered: Response | null = null;
	if (!shown) {
		const original = guest.response();
		const body = await original.arrayBuffer();
		buffered = new Response(body, original);
		shown = await likeButtonsOf(body);
	}
	const ids = new Set(shown.map(Number));
	return { likedComments: liked.filter((id) => ids.has(id)), buffered };
}

/** The post's place, read with the member's state of it (or alone for a token with no session). */
const placeOf = (read: PartsValues | null) => read?.post?.place ?? read?.place ?? null;

/** Answers a member's request for `page` (memberPageOf): the guest's page rewritten, or the full render. */
export async function answerMember({ request, db, channel, page, guestAnswer, origin, now }: MemberAsk): Promise<Response> {
	// The session's batch and the guest's page at the same time: one round trip in sequence, as the full render.
	const [{ session, headers, read }, guest] = await Promise.all([
		requestSession<PartsValues>(db, channel, request, partsReads(db, channel, page), now),
		guestAnswer(),
	]);
	const facts = {
		place: placeOf(read),
		blocksAnyone: (read?.post?.blocksAnyone ?? read?.list?.blocksAnyone) === true,
		likesPastRead: read?.likedComments === null,
	};
	if (memberPageChoice(session, page, facts) === 'full' || !isGuestPage(guest)) {
		await guest.response().body?.cancel();
		return origin(request);
	}
	const { likedComments, buffered } = await likedShown(guest, read?.likedComments ?? []);
	const parts = memberParts(channel, session, partsOf(page, read, likedComments));
	// The parts spliced in at the places found when the guest's page was stored; else (none known, or
	// they do not fit) the page rewritten by HTMLRewriter on its way out.
	const spliced = guest.stored && splicePage(guest.stored.body, guest.stored.spots, PART_SELECTORS, parts);
	let sent: Response;
	if (spliced) {
		sent = new Response(spliced, { status: guest.status, headers: guest.headers });
		sent.headers.set('Content-Length', String(spliced.byteLength));
	} else {
		const response = buffered ?? guest.response();
		sent = memberRewriter(parts).transform(new Response(response.body, response));
		sent.headers.delete('Content-Length');
	}
	sent.headers.delete('X-Edge-Cache');
	for (const [name, value] of headers) {
		if (name === 'Set-Cookie') sent.headers.append(name, value);
		else sent.headers.set(name, value);
	}
	sent.headers.set('X-Member-Page', 'REWRITTEN');
	sent.headers.set('X-Member-Parts', spliced ? 'SPLICED' : 'REWRITER');
	return sent;
}
