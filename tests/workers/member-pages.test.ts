/**
 * The one rule of a member's page made from the guest's (functions/shell/member-pages.ts), a case
 * each, and the rewrite through the edge cache with real sessions on the local D1: the Worker
 * behind it is a stand-in page with the marks the guest's page carries, which counts what it is asked.
 * The whole pages, rewritten against rendered in full, are compared by tests/e2e/member-pages.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { withEdgeCache } from '@functions/shell/edge-cache';
import { api } from '@functions/api/app';
import { cacheableRoute } from '@functions/shell/cache-routes';
import { memberPageChoice, memberPageOf } from '@functions/shell/member-pages';
import { resolveChannel } from '@/server/channels/channels';
import { loadLayout } from '@/server/channels/layout';
import type { SessionMember, SessionState } from '@/server/sign-in/sessions';
import { mintSessionToken } from '@/server/sign-in/session-token';
import { countRoundTrips, database } from '@/server/platform/database';
import { accountAvatarHtml } from '@/server/channels/member-parts';
import { LIKED_COMMENTS_READ } from '@/server/likes/comment-likes';
import { call, freshPost, likeComments, memberApi, moveAllList, recordingDb, signIn, TEST_SECRET } from './harness';

const PAGES = 'http://localhost/starfall/global';

async function layoutOfGlobal() {
	const channel = await resolveChannel(env.DB, 'starfall', 'global');
	return loadLayout(env.DB, channel!);
}

/** The rule's first half for `url` (asked as it is canonical unless `canonical` says otherwise). */
async function pageOf(url: string, canonical = url, providers?: []) {
	const layout = await layoutOfGlobal();
	return memberPageOf(cacheableRoute(new URL(url))!, url, canonical, providers ? { ...layout, providers } : layout);
}

const LIST = { kind: 'list', boardId: 12 } as const;
const POST = { kind: 'post', postId: 1 } as const;
const place = (authorId: number) => ({ boardId: 12, authorId, authorNickname: 'Someone' });

const member = (role: 'MEMBER' | 'ADMIN'): SessionMember => ({
	userId: 1002,
	nickname: 'Someone',
	role,
	provider: 'GOOGLE',
	recentProvider: 'GOOGLE',
	joinedAt: 0,
});

describe('the rule: which member pages are made from the guest’s', () => {
	it('rewrites All Posts and a board a guest may read', async () => {
		expect(await pageOf(`${PAGES}/boards`)).toEqual({ kind: 'list', boardId: null });
		expect(await pageOf(`${PAGES}/boards/12`)).toEqual({ kind: 'list', boardId: 12 });
	});

	it('asks a post page of the guest’s page, whatever the post (what a guest may not read the guest’s answer tells)', async () => {
		expect(await pageOf(`${PAGES}/posts/1`)).toEqual({ kind: 'post', postId: 1 });
		expect(await pageOf(`${PAGES}/posts/1?commentId=3`)).toEqual({ kind: 'post', postId: 1 });
	});

	it('renders in full a notice-only board, where an administrator is offered Write and no one else is', async () => {
		expect(await pageOf(`${PAGES}/boards/11`)).toBeNull();
	});

	it('renders every other route in full (search, a profile, home, a board’s post address)', async () => {
		for (const path of ['/search?q=a', '/users/1002', '', '/boards/12/posts/1', '/posts']) expect(await pageOf(`${PAGES}${path}`), path).toBeNull();
	});

	it('renders in full a URL that is not its canonical one: the page’s links follow the URL asked', async () => {
		expect(await pageOf(`${PAGES}/boards?page=1`, `${PAGES}/boards`)).toBeNull();
		expect(await pageOf(`${PAGES}/posts/1?page=1`, `${PAGES}/posts/1`)).toBeNull();
	});

	it('renders in full where the community has no sign-in providers (no Write for a guest, one for a member)', async () => {
		expect(await pageOf(`${PAGES}/boards/12`, `${PAGES}/boards/12`, [])).toBeNull();
		expect(await pageOf(`${PAGES}/posts/1`, `${PAGES}/posts/1`, [])).toBeNull();
	});

	it('renders in full a private board (an administrator reads its list) and a board that does not exist', async () => {
		expect(await pageOf(`${PAGES}/boards/17`)).toBeNull();
		expect(await pageOf(`${PAGES}/boards/999`)).toBeNull();
	});

	it('renders in full for a banned member; rewrites a list for a member and an administrator', () => {
		const banned: SessionState = { kind: 'banned', member: member('MEMBER'), ban: { kind: 'PERMANENT', endsAt: null, reason: '' }, tokenHash: 'x' };
		expect(memberPageChoice(banned, LIST)).toBe('full');
		expect(memberPageChoice(banned, POST, { place: place(7) })).toBe('full');
		expect(memberPageChoice({ kind: 'member', member: member('ADMIN'), tokenHash: 'x' }, LIST)).toBe('rewrite');
		expect(memberPageChoice({ kind: 'member', member: member('MEMBER'), tokenHash: 'x' }, LIST)).toBe('rewrite');
	});

	it('on a post page, renders in full for an administrator (moderation, hidden comments); rewrites for the post’s author (Edit and Delete are parts)', () => {
		expect(memberPageChoice({ kind: 'member', member: member('ADMIN'), tokenHash: 'x' }, POST, { place: place(7) })).toBe('full');
		expect(memberPageChoice({ kind: 'member', member: member('ADMIN'), tokenHash: 'x' }, POST, { place: place(1002) })).toBe('full');
		expect(memberPageChoice({ kind: 'member', member: member('MEMBER'), tokenHash: 'x' }, POST, { place: place(1002) })).toBe('rewrite');
		expect(memberPageChoice({ kind: 'member', member: member('MEMBER'), tokenHash: 'x' }, POST, { place: place(7) })).toBe('rewrite');
		// No such post: the guest's answer is no page either.
		expect(memberPageChoice({ kind: 'member', member: member('MEMBER'), tokenHash: 'x' }, POST, { place: null })).toBe('full');
	});

	it('rewrites for a session that has ended: the guest’s page with the session’s state', () => {
		for (const page of [LIST, POST]) {
			expect(memberPageChoice({ kind: 'expired' }, page)).toBe('rewrite');
			expect(memberPageChoice({ kind: 'revoked' }, page)).toBe('rewrite');
		}
	});

	it('renders in full for a member who blocked anyone (their blocked members’ posts and comments collapsed)', () => {
		for (const role of ['MEMBER', 'ADMIN'] as const) {
			expect(memberPageChoice({ kind: 'member', member: member(role), tokenHash: 'x' }, LIST, { blocksAnyone: true })).toBe('full');
			expect(memberPageChoice({ kind: 'member', member: member(role), tokenHash: 'x' }, POST, { place: place(7), blocksAnyone: true })).toBe('full');
		}
	});

	it('on a post page, renders in full for a member who likes more of its comments than the session’s batch reads (their likes come with the page’s comments)', () => {
		const reader: SessionState = { kind: 'member', member: member('MEMBER'), tokenHash: 'x' };
		expect(memberPageChoice(reader, POST, { place: place(7), likesPastRead: true })).toBe('full');
		expect(memberPageChoice(reader, POST, { place: place(7), likesPastRead: false })).toBe('rewrite');
	});
});

/** The marks of a guest's page that the rewrite looks for (MainLayout, Header, Sidebar, BoardView). */
const GUEST_PAGE = `<!doctype html><html><body><div class="top-bar-search"></div><a class="account-icon" href="/login" data-account-icon></a>
<section class="card welcome" data-guest-welcome>Welcome</section><div class="board-actions" data-board-actions><a data-write data-login-required>Write</a></div>
<dialog data-route-error-dialog data-session="guest"></dialog><dialog data-login-required-dialog></dialog></body></html>`;

function guestPage() {
	const asked: Request[] = [];
	return {
		asked,
		answer: (request: Request) => {
			asked.push(request);
			return new Response(GUEST_PAGE, { headers: { 'Content-Type': 'text/html' } });
		},
	};
}

async function ask(url: string, origin: { answer: (request: Request) => Response }, cookie?: string, db: Db = env.DB) {
	const ctx = createExecutionContext();
	const response = await withEdgeCache(new Request(url, cookie ? { headers: { cookie } } : {}), db, ctx, async (request) => origin.answer(request));
	const text = await response.text();
	await waitOnExecutionContext(ctx);
	return { text, headers: response.headers };
}

describe('a member’s page made from the guest’s, through the edge cache', () => {
	it('puts the member’s parts into the guest’s page, never stores them, and gives nothing of one member to another or a guest', async () => {
		const url = `${PAGES}/boards/14`;
		const origin = guestPage();
		const first = await ask(url, origin, await signIn(1003));
		expect(first.headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(first.headers.get('Cache-Control')).toBe('private, no-store');
		expect(first.headers.get('X-Edge-Cache')).toBeNull();
		expect(first.text).toContain('data-member-card');
		expect(first.text).toContain('data-user-id="1003"');
		expect(first.text).toContain('data-board-watch');
		// The account link shows the member's avatar by its stable URL (a member part, docs/reference/avatars.md).
		expect(first.text).toContain(`data-account-icon>${accountAvatarHtml('/starfall/global', 1003)}</a>`);
		expect(first.text).not.toContain('data-guest-welcome');
		expect(first.text).not.toContain('data-login-required');
		// The guest's page was asked once, without the member's cookie, and stored as a guest's.
		expect(origin.asked).toHaveLength(1);
		expect(origin.asked[0]?.headers.get('cookie')).toBeNull();
		const guest = await ask(url, origin);
		expect(guest.headers.get('X-Edge-Cache')).toBe('HIT');
		expect(guest.text).toBe(GUEST_PAGE);
		const other = await ask(url, origin, await signIn(1004));
		expect(other.text).toContain('data-user-id="1004"');
		expect(other.text).not.toContain('data-user-id="1003"');
		expect(origin.asked).toHaveLength(1);
	});

	it('answers a banned member with the full render, their cookie passed on', async () => {
		const origin = guestPage();
		const cookie = await signIn(1005);
		await env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, 1005, 'PERMANENT', NULL, ?1)")
			.bind(Date.now())
			.run();
		const answer = await ask(`${PAGES}/boards/15`, origin, cookie);
		expect(answer.headers.get('X-Member-Page')).toBeNull();
		expect(origin.asked.at(-1)?.headers.get('cookie')).toBe(cookie);
	});

	it('answers a member who blocked anyone with the full render, read in the session’s batch; one who blocked no one keeps the rewrite', async () => {
		const origin = guestPage();
		const blocker = await signIn(1006);
		const other = await signIn(1008);
		await env.DB.prepare('INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) VALUES (1006, 1007, 1, 0)').run();
		const full = await ask(`${PAGES}/boards/15`, origin, blocker);
		expect(full.headers.get('X-Member-Page')).toBeNull();
		expect(origin.asked.at(-1)?.headers.get('cookie')).toBe(blocker);
		const rewritten = await ask(`${PAGES}/boards/15`, origin, other);
		expect(rewritten.headers.get('X-Member-Page')).toBe('REWRITTEN');
		await env.DB.prepare('DELETE FROM member_blocks WHERE blocker_id = 1006').run();
	});

	it('answers a cookie whose session no longer exists with the guest’s page, saying so and clearing the cookie', async () => {
		const origin = guestPage();
		const cookie = `__Host-session_starfall_global=${await mintSessionToken(TEST_SECRET, 1)}`;
		const answer = await ask(`${PAGES}/boards/16`, origin, cookie);
		expect(answer.headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(answer.text).toContain('data-session="revoked"');
		expect(answer.text).not.toContain('data-member-card');
		expect(answer.headers.get('Set-Cookie')).toContain('Max-Age=0');
	});
});

/** The marks of a guest's post page that the rewrite looks for (the post's header, PostActions, CommentList, MainLayout's structured data). */
function guestPostPage(commentIds: number[], likeButtons = false) {
	const like = (id: number) =>
		likeButtons ? `<button class="comment-like" type="button" data-action="like" data-comment-id="${id}" aria-pressed="false">♥</button>` : '';
	const items = commentIds.map((id) => `<li class="comment" data-comment-id="${id}" data-state="VISIBLE">${like(id)}</li>`).join('');
	return `<!doctype html><html><head><script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script></head><body>
<div class="top-bar-search"></div><a class="account-icon" href="/login" data-account-icon></a><section class="card welcome" data-guest-welcome>Welcome</section>
<div class="post-header-top"><p class="post-crumbs">Board</p></div>
<div class="post-action-bar" data-post-action-bar><a class="post-action like" data-count="3" href="/login" data-login-required data-login-redirect="/p" data-guest-like><span>Like</span><span data-like-count>3</span></a>
<button data-post-action="share">Share</button><a class="post-action report" href="/login" data-login-required data-guest-report>Report</a></div>
<section data-comments data-post-id="1"><div data-comments-root><ol>${items}</ol><textarea id="comment-box-new" placeholder="Log in" readonly data-action="write"></textarea></div></section>
<dialog data-route-error-dialog data-session="guest"></dialog><dialog data-login-required-dialog></dialog></body></html>`;
}

/** An origin that answers the guest's post page without a cookie, and a full render (marked) with one. */
function postOrigin(page: string) {
	const asked: Request[] = [];
	return {
		asked,
		answer: (request: Request) => {
			asked.push(request);
			return new Response(request.headers.get('cookie') ? 'FULL RENDER' : page, { headers: { 'Content-Type': 'text/html' } });
		},
	};
}

describe('a member’s post page made from the guest’s, through the edge cache', () => {
	const post = async (postId: number) =>
		(await env.DB.prepare('SELECT member_id AS authorId FROM posts WHERE id = ?1').bind(postId).first<{ authorId: number }>())!.authorId;
	const commentsOf = async (postId: number) =>
		(
			await env.DB.prepare('SELECT id FROM comments WHERE post_id = ?1 AND deleted_at IS NULL AND hidden_by_admin = 0 ORDER BY id LIMIT 2')
				.bind(postId)
				.all<{ id: number }>()
		).results.map((row) => row.id);
	const reader = async (postId: number) =>
		(await env.DB.prepare(
			"SELECT id FROM members WHERE channel_id = 1 AND role = 'MEMBER' AND withdrawn_at IS NULL AND id <> ?1 AND NOT EXISTS (SELECT 1 FROM bans WHERE member_id = members.id AND lifted_at IS NULL) ORDER BY id LIMIT 1",
		)
			.bind(await post(postId))
			.first<{ id: number }>())!.id;

	it('puts in the member’s Like, Watch, Report, reported comments and open comment box, from the session’s one batch', async () => {
		const [reported, other] = await commentsOf(1);
		const memberId = await reader(1);
		await env.DB.batch([
			env.DB.prepare('INSERT OR IGNORE INTO post_likes (post_id, member_id, channel_id, created_at) VALUES (1, ?1, 1, 0)').bind(memberId),
			env.DB.prepare(
				"INSERT OR IGNORE INTO reports (channel_id, target_type, target_id, reporter_id, reason_code, created_at) VALUES (1, 'COMMENT', ?2, ?1, 'SPAM', 0)",
			).bind(memberId, reported),
		]);
		const origin = postOrigin(guestPostPage([reported!, other!]));
		const url = `${PAGES}/posts/1`;
		const recording = recordingDb();
		const answer = await ask(url, origin, await signIn(memberId), recording.db);
		expect(answer.headers.get('X-Member-Page')).toBe('REWRITTEN');
		// The session and the parts' reads (tests/e2e/round-trips.spec.ts holds them to one round trip).
		for (const table of ['sessions', 'post_likes', 'reports r', 'watches', 'FROM posts p JOIN members']) {
			expect(
				recording.statements.some((statement) => statement.sql.includes(table)),
				table,
			).toBe(true);
		}
		expect(origin.asked.every((request) => request.headers.get('cookie') === null)).toBe(true);
		const html = answer.text;
		expect(html).not.toContain('application/ld+json');
		expect(html).toMatch(/<button class="post-action like" data-count="3"[^>]*aria-pressed="true"[^>]*data-post-action="like"[^>]*>/);
		expect(html).not.toContain('data-guest-like');
		expect(html).toContain('data-post-action="watch"');
		expect(html).toContain('data-post-action="report"');
		// Block of the post's author after Report, as PostActions has it (member-parts.ts blockButtonHtml).
		expect(html).toMatch(
			/data-post-action="report"[^]*<\/button><button class="post-action block" type="button" aria-haspopup="dialog" data-post-action="block"/,
		);
		expect(html).toContain(
			`<section data-comments data-post-id="1" data-user-id="${memberId}" data-blocking="{&quot;authors&quot;:[],&quot;collapsed&quot;:&quot;Comment from a member you blocked — show&quot;,&quot;menu&quot;:&quot;Block {{nickname}}&quot;,&quot;menuUnblock&quot;:&quot;Unblock {{nickname}}&quot;}" data-revisions-offered=""><script type="application/json" data-member-comments>{"reportedComments":[${reported}]}</script>`,
		);
		expect(html).toContain(`data-comment-id="${reported}" data-state="VISIBLE" data-reported="">`);
		expect(html).toContain(`data-comment-id="${other}" data-state="VISIBLE">`);
		expect(html).toContain(
			'<textarea id="comment-box-new" placeholder="Share your thoughts" data-action="write"></textarea><span class="visually-hidden" role="status"></span>',
		);
		// A guest after them gets the stored guest's page as it was.
		const guest = await ask(url, origin);
		expect(guest.headers.get('X-Edge-Cache')).toBe('HIT');
		expect(guest.text).toBe(guestPostPage([reported!, other!]));
	});

	it('lists the comments the member likes that the page has a Like button of; renders in full for one who likes more than the batch reads', async () => {
		const postId = await freshPost();
		const made: number[] = [];
		for (let i = 0; i <= LIKED_COMMENTS_READ; i++) {
			const row = await env.DB.prepare(
				"INSERT INTO comments (channel_id, post_id, member_id, content, created_at) VALUES (1, ?1, 1002, 'liked', ?2) RETURNING id",
			)
				.bind(postId, 1_000_000 + i)
				.first<{ id: number }>();
			made.push(row!.id);
		}
		const memberId = await reader(postId);
		const like = (ids: number[]) => likeComments(memberId, postId, ids);
		// The page shows the first two comments; they like the second and one the page does not show.
		const [first, second] = made as [number, number];
		await like([second, made[5]!]);
		const origin = postOrigin(guestPostPage([first, second], true));
		const url = `${PAGES}/posts/${postId}`;
		const cookie = await signIn(memberId);
		const answer = await ask(url, origin, cookie);
		expect(answer.headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(answer.text).toContain(
			`<script type="application/json" data-member-comments>{"reportedComments":[],"likedComments":[${second}]}</script>`,
		);
		expect(answer.text).toContain(`data-comment-id="${second}" aria-pressed="true">`);
		expect(answer.text).toContain(`data-comment-id="${first}" aria-pressed="false">`);
		// Past the bound: the full render, with their cookie.
		await like(made.filter((id) => id !== second && id !== made[5]));
		const full = await ask(url, origin, cookie);
		expect(full.headers.get('X-Member-Page')).toBeNull();
		expect(full.text).toBe('FULL RENDER');
		expect(origin.asked.at(-1)?.headers.get('cookie')).toBe(cookie);
	});

	it('reads the session and the parts in one statement on a post page, as on a board page and on All Posts', async () => {
		const memberId = await reader(1);
		const cookie = await signIn(memberId);
		const statementsOf = async (url: string, origin: { answer: (request: Request) => Response }) => {
			const recording = recordingDb();
			const answer = await ask(url, origin, cookie, recording.db);
			expect(answer.headers.get('X-Member-Page')).toBe('REWRITTEN');
			// The session's batch: every statement of it reads by the session (the channel's and layout's rows aside).
			return recording.statements.filter((statement) => statement.sql.includes('sessions')).length;
		};
		// The session's row with the member's state of the post, its place and the post's comments they like.
		expect(await statementsOf(`${PAGES}/posts/1`, postOrigin(guestPostPage([])))).toBe(1);
		// The session's row with whether they blocked anyone and their Watch of the board.
		expect(await statementsOf(`${PAGES}/boards/14`, guestPage())).toBe(1);
		expect(await statementsOf(`${PAGES}/boards`, guestPage())).toBe(1);
	});

	it('renders in full for an administrator: decided by the session’s batch', async () => {
		const origin = postOrigin(guestPostPage([]));
		const cookie = await signIn(1001);
		const answer = await ask(`${PAGES}/posts/2`, origin, cookie);
		expect(answer.text).toBe('FULL RENDER');
		expect(answer.headers.get('X-Member-Page')).toBeNull();
		expect(origin.asked.at(-1)?.headers.get('cookie')).toBe(cookie);
	});

	it('makes the author’s own post page from the guest’s, with their Edit and Delete, in one round trip (the session’s batch)', async () => {
		const origin = postOrigin(guestPostPage([]));
		const url = `${PAGES}/posts/2`;
		const cookie = await signIn(await post(2));
		await ask(url, origin); // the guest's page stored, as after any guest's read
		const { answer, trips } = await countRoundTrips(async (counting) => ({
			answer: await ask(url, origin, cookie, database(env.DB)),
			trips: counting,
		}));
		expect(answer.headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(answer.text).not.toContain('FULL RENDER');
		expect(origin.asked.every((request) => request.headers.get('cookie') === null)).toBe(true);
		// The session and the parts' reads, one batch: no full render's round trip after it.
		expect({ count: trips.count, depth: trips.depth }).toEqual({ count: 1, depth: 1 });
		// By the title, after the crumbs: Edit, Delete and its confirm (member-parts.ts postManageHtml, as the full render has them).
		expect(answer.text).toContain(
			'<div class="post-header-top"><p class="post-crumbs">Board</p><div class="post-actions" role="group" aria-label="Manage this post" data-post-actions><a class="button secondary" href="/starfall/global/posts/2/edit">Edit</a><button class="button secondary" type="button" aria-haspopup="dialog" data-delete-post>Delete</button><dialog',
		);
		// Their own post: no Report and no Block of themselves.
		expect(answer.text).not.toContain('data-post-action="report"');
		expect(answer.text).not.toContain('data-post-action="block"');
		// Another member's page of the same post has no Edit or Delete.
		const theirs = await ask(url, origin, await signIn(await reader(2)));
		expect(theirs.headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(theirs.text).not.toContain('data-post-actions');
		expect(theirs.text).not.toContain('data-delete-post');
	});

	it('after a new post moved the channel’s lists, still answers a post’s page in one round trip, and a guest’s hit in none', async () => {
		const origin = postOrigin(guestPostPage([]));
		const url = `${PAGES}/posts/2`;
		const cookie = await signIn(await reader(2));
		await ask(url, origin);
		await ask(url, origin, cookie);
		await moveAllList();
		const trips = async (cookie?: string) =>
			countRoundTrips(async (counting) => {
				await ask(url, origin, cookie, database(env.DB));
				return { count: counting.count, depth: counting.depth };
			});
		// The guest's page is its path: its canonical URL needs no layout.
		expect(await trips()).toEqual({ count: 0, depth: 0 });
		// The member's page is chosen by the providers, which a new post does not move: the session's batch alone.
		expect(await trips(cookie)).toEqual({ count: 1, depth: 1 });
	});

	it('after a new post moved the channel’s lists, still answers a board’s page and All Posts in one round trip: the session’s batch', async () => {
		const origin = guestPage();
		const cookie = await signIn(await reader(1));
		for (const url of [`${PAGES}/boards/14`, `${PAGES}/boards`]) {
			await ask(url, origin);
			await ask(url, origin, cookie);
		}
		await moveAllList();
		for (const url of [`${PAGES}/boards/14`, `${PAGES}/boards`]) {
			const { answer, trips } = await countRoundTrips(async (counting) => ({
				answer: await ask(url, origin, cookie, database(env.DB)),
				trips: counting,
			}));
			expect(answer.headers.get('X-Member-Page'), url).toBe('REWRITTEN');
			// Which boards a guest may read does not move with a new post: the layout remembered before it decides.
			expect({ url, count: trips.count, depth: trips.depth }).toEqual({ url, count: 1, depth: 1 });
		}
	});

	it('renders in full a post a guest may not read, its author’s too, stored as a guest’s 404, without reading the session first', async () => {
		const origin = {
			answer: (request: Request) =>
				new Response(request.headers.get('cookie') ? 'FULL RENDER' : 'gone', { status: 404, headers: { 'Content-Type': 'text/html' } }),
		};
		const url = `${PAGES}/posts/3`;
		expect((await ask(url, origin)).headers.get('X-Edge-Cache')).toBe('MISS');
		// A member, and the post's author (their own hidden or private post: its notice, its Edit and Delete).
		for (const memberId of [await reader(3), await post(3)]) {
			const recording = recordingDb();
			const answer = await ask(url, origin, await signIn(memberId), recording.db);
			expect(answer.text).toBe('FULL RENDER');
			// The stand-in's full render reads nothing: the member's request read no session before it.
			expect(recording.statements.filter((statement) => /FROM sessions/.test(statement.sql))).toEqual([]);
		}
	});
});

describe('a member who has just written reads their write', () => {
	it('gets their page made from a guest’s page rendered now, not the stored one, while their bookmark cookie lasts', async () => {
		const url = `${PAGES}/posts/4`;
		const origin = postOrigin(guestPostPage([]));
		await ask(url, origin);
		expect(origin.asked).toHaveLength(1);
		const cookie = await signIn(1006);
		// No write: the stored guest's page.
		expect((await ask(url, origin, cookie)).headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(origin.asked).toHaveLength(1);
		// After a write (the bookmark cookie it set, localhost being a secure context): a guest's page made now, without their cookies.
		const bookmark = `__Host-d1-bookmark=0000000a-00000001-00004f8a-${'0'.repeat(32)}`;
		const after = await ask(url, origin, `${cookie}; ${bookmark}`);
		expect(after.headers.get('X-Member-Page')).toBe('REWRITTEN');
		expect(origin.asked).toHaveLength(2);
		expect(origin.asked[1]?.headers.get('cookie')).toBeNull();
	});
});

/**
 * A guest's post page as the Worker would render it now, from the real D1 (the post's visible
 * comments; a 404 once a guest may not read it); the full render (a member's cookie) is marked.
 */
function livePostOrigin(postId: number) {
	const html = { 'Content-Type': 'text/html' };
	return {
		answer: async (request: Request) => {
			if (request.headers.get('cookie')) return new Response('FULL RENDER', { headers: html });
			const post = await env.DB.prepare('SELECT hidden_by_admin FROM posts WHERE id = ?1').bind(postId).first<number>('hidden_by_admin');
			if (post !== 0) return new Response('gone', { status: 404, headers: html });
			const { results } = await env.DB.prepare(
				'SELECT id FROM comments WHERE post_id = ?1 AND deleted_at IS NULL AND hidden_by_admin = 0 ORDER BY id',
			)
				.bind(postId)
				.all<{ id: number }>();
			return new Response(guestPostPage(results.map((row) => row.id)), { headers: html });
		},
	};
}

/** Asks through the edge cache at `now` (the isolate trusts its channel row for a second of it). */
async function askAt(url: string, origin: { answer: (request: Request) => Promise<Response> }, now: number, cookie?: string) {
	const ctx = createExecutionContext();
	const response = await withEdgeCache(
		new Request(url, cookie ? { headers: { cookie } } : {}),
		env.DB,
		ctx,
		(request) => origin.answer(request),
		now,
	);
	const text = await response.text();
	await waitOnExecutionContext(ctx);
	return { text, member: response.headers.get('X-Member-Page') };
}

describe('after a write, the next guest and the next member see it at their first load', () => {
	// Each case at its own moment, an hour and more ahead of the wall clock: nothing an earlier case stored is fresh.
	let clock = Date.now() + 3_600_000;
	const ADMIN_API = 'http://localhost/admin/v1/starfall/global';
	const mark = (id: number) => `data-comment-id="${id}"`;
	const commentOn = async (postId: number, memberId: number) => {
		const answer = await call(`${memberApi()}/posts/${postId}/comments`, {
			method: 'POST',
			cookie: await signIn(memberId),
			body: { content: `said ${crypto.randomUUID()}` },
		});
		expect(answer.code).toBe(0);
		return (answer.body['content'] as { comment: { commentId: number } }).comment.commentId;
	};
	const report = async (targetType: 'POST' | 'COMMENT', targetId: number) => {
		await env.DB.prepare('UPDATE channels SET auto_hide_reports = 1 WHERE id = 1').run();
		try {
			// Through the API itself, not `call`: the report that hides at the threshold takes more round trips than a write's budget.
			const answer = await api.request(`${memberApi()}/reports`, {
				method: 'POST',
				headers: { origin: 'http://localhost', cookie: await signIn(1030), 'content-type': 'application/json' },
				body: JSON.stringify({ targetType, targetId, reason: 'SPAM', detail: '' }),
			});
			expect(answer.status).toBe(200);
		} finally {
			await env.DB.prepare('UPDATE channels SET auto_hide_reports = NULL WHERE id = 1').run();
		}
	};
	const adminHide = async (what: 'posts' | 'comments', id: number) =>
		expect((await call(`${ADMIN_API}/${what}/${id}/hide`, { method: 'POST', cookie: await signIn(1001), body: { reason: '' } })).code).toBe(0);

	/** What the next guest and member read: `shown` in the page, `gone` not (a hidden post: the guest's 404, the member's full render). */
	type Seen = { shown?: string; gone?: string; postGone?: true };
	const writes: [string, (postId: number, commentId: number) => Promise<Seen>][] = [
		['a comment', async (postId) => ({ shown: mark(await commentOn(postId, 1006)) })],
		['a report that hides a comment at the threshold', async (_, commentId) => (await report('COMMENT', commentId), { gone: mark(commentId) })],
		['a report that hides the post at the threshold', async (postId) => (await report('POST', postId), { postGone: true })],
		['an administrator’s hide of a comment', async (_, commentId) => (await adminHide('comments', commentId), { gone: mark(commentId) })],
		['an administrator’s hide of the post', async (postId) => (await adminHide('posts', postId), { postGone: true })],
	];

	it.each(writes)('%s, after a member’s page was made from the stored guest’s', async (_, write) => {
		const postId = await freshPost(1007);
		const commentId = await commentOn(postId, 1009);
		const url = `${PAGES}/posts/${postId}`;
		const origin = livePostOrigin(postId);
		const t = (clock += 600_000);
		// A member reads the post: their page is the guest's, made and stored.
		const before = await askAt(url, origin, t, await signIn(1006));
		expect([before.member, before.text.includes(mark(commentId))]).toEqual(['REWRITTEN', true]);
		const seen = await write(postId, commentId);
		// At the same moment (within the second the isolate trusts its channel row), the next readers.
		const guest = await askAt(url, origin, t);
		const other = await askAt(url, origin, t, await signIn(1008));
		if (seen.postGone) {
			expect(guest.text).toBe('gone');
			expect([other.member, other.text]).toEqual([null, 'FULL RENDER']);
			return;
		}
		expect(other.member).toBe('REWRITTEN');
		for (const page of [guest.text, other.text]) {
			if (seen.shown) expect(page).toContain(seen.shown);
			if (seen.gone) expect(page).not.toContain(seen.gone);
		}
	});
});
