/**
 * A member's parts spliced into the stored guest's page (functions/shell/splice.ts) at the places
 * found when it was stored (functions/shell/page-spots.ts) give the same bytes as HTMLRewriter putting
 * the same parts (functions/shell/member-rewriters.ts) into the page as it streams: for pages with
 * every kind of part, several readers, Korean text, and elements nested in what a part replaces.
 * Through the edge cache, a member's page is spliced, and a page whose places are not known is
 * rewritten by HTMLRewriter alike.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { resolveChannel, type Channel } from '@/server/channels/channels';
import type { SessionState } from '@/server/sign-in/sessions';
import { COMMENT_LIKE, likeButtonsOf, memberParts, memberRewriter, PART_SELECTORS, type PageParts } from '@functions/shell/member-rewriters';
import { decodeSpots, encodeSpots, locateSpots } from '@functions/shell/page-spots';
import { attributeValues, splicePage, type MemberPart } from '@functions/shell/splice';
import { withEdgeCache } from '@functions/shell/edge-cache';
import { signIn } from './harness';

const encoder = new TextEncoder();

/** A guest's page with the marks of every part (MainLayout, Header, Sidebar, BoardView, the post's header, PostActions, CommentList). */
function guestPage(text: string, comments: { id: number; state: string }[]) {
	const items = comments
		.map(
			({ id, state }) =>
				`<li class="comment" data-comment-id="${id}"  data-state='${state}'><p>${text} ${id}</p><button class="like" data-action="like" data-comment-id="${id}" aria-pressed="false">♥ ${id}</button><a href="/login" data-login-required>${text}</a></li>`,
		)
		.join('\n');
	return `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>${text}</title><script type="application/ld+json">{"name":"${text}"}</script><style>[data-guest-like]{color:red}</style></head>
<body class="page"><header><div class="top-bar-search"><input type="search" placeholder="${text}"></div><a class="account-icon" href="/login" data-account-icon><svg></svg></a></header>
<aside><section class="card welcome" data-guest-welcome><p>${text}</p><a href="/login" data-login-required>${text}</a></section></aside>
<main><div class="board-actions" data-board-actions><a class="button" href="/write" data-write data-login-required>${text}</a></div>
<article class="post" data-post-id="7"><div class="post-header-top"><p class="post-crumbs">${text}</p></div><div class="body">${text}</div>
<div class="post-action-bar" data-post-action-bar><a class="post-action like" data-count="3" href="/login" data-login-required data-login-redirect="/p" data-guest-like><span>좋아요</span><span data-like-count>3</span></a>
<button data-post-action="share">${text}</button><a class="post-action report" href="/login" data-login-required data-guest-report>${text}</a></div>
<section data-comments data-post-id="7"><div data-comments-root><ol>${items}</ol><textarea id="comment-box-new" placeholder="${text}" readonly data-action="write"></textarea></div></section>
</article><dialog data-action-alert></dialog></main>
<dialog data-route-error-dialog data-session="guest"></dialog><dialog data-login-required-dialog><p>${text}</p><a data-login-required>${text}</a></dialog></body></html>`;
}

const member = (userId: number, nickname: string): SessionState => ({
	kind: 'member',
	member: { userId, nickname, role: 'MEMBER', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 },
	tokenHash: 'x',
});

const postParts = (authorId: number, state: Partial<Extract<PageParts, { kind: 'post' }>> = {}): PageParts => ({
	kind: 'post',
	postId: 7,
	boardId: 12,
	authorId,
	authorNickname: '작성자',
	liked: false,
	reported: false,
	watching: false,
	saved: false,
	reportedComments: [],
	likedComments: [],
	...state,
});

/** Each page's own parts: a post's remember what they met on the page (whether it offers the revisions dialog). */
type Parts = () => MemberPart[];

async function rewritten(page: string, parts: Parts) {
	return memberRewriter(parts()).transform(new Response(page)).text();
}

async function spliced(page: string, parts: Parts) {
	const body = encoder.encode(page).buffer as ArrayBuffer;
	const spots = await locateSpots(body, PART_SELECTORS);
	expect(spots).not.toBeNull();
	// As the Cache API keeps them, read back.
	const kept = decodeSpots(encodeSpots(spots!, PART_SELECTORS), PART_SELECTORS, body.byteLength);
	expect(kept).toEqual(spots);
	const bytes = splicePage(body, kept!, PART_SELECTORS, parts());
	expect(bytes).not.toBeNull();
	return new TextDecoder().decode(bytes!);
}

describe('the splice gives the bytes HTMLRewriter gives', () => {
	let channel: Channel;
	const comments = [
		{ id: 31, state: 'VISIBLE' },
		{ id: 32, state: 'VISIBLE' },
		{ id: 33, state: 'HIDDEN' },
		{ id: 34, state: 'VISIBLE' },
	];
	const readers: [string, SessionState, PageParts][] = [
		['a member on All Posts', member(1002, '별빛"<&>'), { kind: 'list', boardId: null }],
		['a member on a board they watch', member(1002, '별빛'), { kind: 'board', boardId: 12, watching: true }],
		['a member on a board they do not watch', member(1003, 'Orion'), { kind: 'board', boardId: 12, watching: false }],
		['a member on a post', member(1002, '별빛'), postParts(1007)],
		[
			'a member who likes, saved, watches and reported',
			member(1002, '별빛'),
			postParts(1007, { liked: true, saved: true, watching: true, reported: true, reportedComments: [32, 33], likedComments: [31, 34] }),
		],
		['the post’s author', member(1007, '작성자'), postParts(1007)],
		['a member on the post of a withdrawn author', member(1002, '별빛'), postParts(1007, { authorNickname: null })],
		['an ended session on a post', { kind: 'revoked' }, postParts(1007)],
		['an ended session on a board', { kind: 'expired' }, { kind: 'board', boardId: 12, watching: false }],
	];

	for (const [name, session, parts] of readers) {
		it(`for ${name}, on pages in Korean and in English`, async () => {
			channel ??= (await resolveChannel(env.DB, 'starfall', 'kr'))!;
			for (const text of ['스타폴 공략 게시판 — 한국어 🌟', 'Starfall']) {
				const page = guestPage(text, comments);
				const list = () => memberParts(channel, session, parts);
				const made = await spliced(page, list);
				expect(made).toBe(await rewritten(page, list));
				expect(made).not.toBe(page);
			}
		});
	}

	it('puts the revisions dialog after the post only where the guest’s page offers none, as the rewrite does', async () => {
		channel ??= (await resolveChannel(env.DB, 'starfall', 'kr'))!;
		const page = guestPage('수정됨', comments).replace('<section data-comments ', '<section data-comments data-revisions-offered ');
		const list = () => memberParts(channel, member(1002, '별빛'), postParts(1007));
		const made = await spliced(page, list);
		expect(made).toBe(await rewritten(page, list));
		expect(made).not.toContain('data-revisions-dialog');
		expect(await spliced(guestPage('수정됨', comments), list)).toContain('</article><dialog class="dialog-panel revisions-dialog"');
	});

	it('gives each answer its own bytes, though every splice is assembled in the same array', async () => {
		channel ??= (await resolveChannel(env.DB, 'starfall', 'kr'))!;
		const answerOf = async (text: string, nickname: string) => {
			const body = encoder.encode(guestPage(text, comments)).buffer as ArrayBuffer;
			const spots = (await locateSpots(body, PART_SELECTORS))!;
			return new Response(splicePage(body, spots, PART_SELECTORS, memberParts(channel, member(1002, nickname), postParts(1007))));
		};
		const first = await answerOf('스타폴 공략 게시판', '별빛');
		const second = await answerOf('Starfall', 'Orion');
		const [firstText, secondText] = [await first.text(), await second.text()];
		expect(firstText).toBe(
			await spliced(guestPage('스타폴 공략 게시판', comments), () => memberParts(channel, member(1002, '별빛'), postParts(1007))),
		);
		expect(firstText).not.toContain('Orion');
		expect(secondText).toContain('Orion');
	});

	it('writes two parts whose lone surrogates meet each as its own text: U+FFFD each, the bytes after them in place', async () => {
		// One part's text ends with half a pair and the next one's starts with the other half: encoded
		// together they would be one character of four bytes, apart each is U+FFFD (three). HTMLRewriter
		// refuses such text, so the splice is compared with it on the same parts with U+FFFD written in.
		const list = (high: string, low: string) => (): MemberPart[] => [
			{ selector: 'div.top-bar-search', element: (search) => void search.append(`a${high}`, { html: true }) },
			{ selector: 'a[data-account-icon]', element: (icon) => void icon.before(`${low}b`, { html: true }) },
			{ selector: 'textarea#comment-box-new', element: (box) => void box.after('별', { html: true }) },
		];
		const page = guestPage('스타폴', comments);
		const made = await spliced(page, list('\uD83C', '\uDF1F'));
		expect(made).toBe(await rewritten(page, list('\uFFFD', '\uFFFD')));
		expect(made).toContain('a\uFFFD</div>\uFFFDb<a class="account-icon"');
	});

	it('reads the comments’ Like buttons from the stored places as HTMLRewriter reads them from the page', async () => {
		for (const text of ['스타폴 공략 게시판 — 한국어 🌟', 'Starfall']) {
			const body = encoder.encode(guestPage(text, comments)).buffer as ArrayBuffer;
			const spots = (await locateSpots(body, PART_SELECTORS))!;
			const read = attributeValues(body, spots, PART_SELECTORS, COMMENT_LIKE, 'data-comment-id');
			expect(read).toEqual(['31', '32', '33', '34']);
			expect(read).toEqual(await likeButtonsOf(body));
			// Asked again of the same stored page: the same answer, kept.
			expect(attributeValues(body, spots, PART_SELECTORS, COMMENT_LIKE, 'data-comment-id')).toBe(read);
			// Places that are not this page's are not read.
			const other = encoder.encode(`${guestPage(text, comments)} `).buffer as ArrayBuffer;
			expect(attributeValues(other, spots, PART_SELECTORS, COMMENT_LIKE, 'data-comment-id')).toBeNull();
		}
	});

	it('finds no places in a page that holds the marker’s character, nor fits places to other bytes', async () => {
		const body = encoder.encode(guestPage('\uFDD0', [])).buffer as ArrayBuffer;
		expect(await locateSpots(body, PART_SELECTORS)).toBeNull();
		const page = encoder.encode(guestPage('Starfall', [])).buffer as ArrayBuffer;
		const spots = (await locateSpots(page, PART_SELECTORS))!;
		const list = memberParts((await resolveChannel(env.DB, 'starfall', 'global'))!, member(1002, 'Orion'), postParts(1007));
		// Another page of the same length: the places do not land on its tags.
		const other = encoder.encode(`${guestPage('Starfall', []).replace('<!doctype html>', '<!doctype htm>')} `).buffer;
		expect(other.byteLength).toBe(page.byteLength);
		expect(splicePage(other as ArrayBuffer, spots, PART_SELECTORS, list)).toBeNull();
		// Places kept by another list of selectors (another build's), or for another length, are not read.
		expect(decodeSpots(encodeSpots(spots, PART_SELECTORS), [...PART_SELECTORS, 'p'], page.byteLength)).toBeNull();
		expect(decodeSpots(encodeSpots(spots, PART_SELECTORS), PART_SELECTORS, page.byteLength + 1)).toBeNull();
		expect(decodeSpots(null, PART_SELECTORS, page.byteLength)).toBeNull();
	});
});

describe('through the edge cache', () => {
	async function ask(url: string, page: string, cookie: string) {
		const ctx = createExecutionContext();
		const origin = async () => new Response(page, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
		const response = await withEdgeCache(new Request(url, { headers: { cookie } }), env.DB, ctx, origin);
		const text = await response.text();
		await waitOnExecutionContext(ctx);
		return { text, headers: response.headers };
	}

	it('splices a member’s parts into the stored page, and rewrites a page whose places are not known alike', async () => {
		const cookie = await signIn(1003);
		const first = await ask('http://localhost/starfall/global/boards/14', guestPage('Starfall', []), cookie);
		expect([first.headers.get('X-Member-Page'), first.headers.get('X-Member-Parts')]).toEqual(['REWRITTEN', 'SPLICED']);
		expect(first.headers.get('Content-Length')).toBe(String(encoder.encode(first.text).byteLength));
		expect(first.headers.get('X-Edge-Member-Spots')).toBeNull();
		expect(first.text).toContain('data-member-card');
		// A page with the marker's character in its text (a member may write it) has no places: HTMLRewriter puts the parts in.
		const marked = guestPage('Starfall \uFDD0', []);
		const second = await ask('http://localhost/starfall/global/boards/16', marked, cookie);
		expect([second.headers.get('X-Member-Page'), second.headers.get('X-Member-Parts')]).toEqual(['REWRITTEN', 'REWRITER']);
		const { nickname } = (await env.DB.prepare('SELECT nickname FROM members WHERE id = 1003').first<{ nickname: string }>())!;
		const channel = (await resolveChannel(env.DB, 'starfall', 'global'))!;
		const parts = () => memberParts(channel, member(1003, nickname), { kind: 'board', boardId: 16, watching: false });
		expect(second.text).toBe(await rewritten(marked, parts));
		expect(second.text).toBe(await spliced(guestPage('Starfall', []), parts).then((text) => text.replaceAll('Starfall', 'Starfall \uFDD0')));
	});
});
