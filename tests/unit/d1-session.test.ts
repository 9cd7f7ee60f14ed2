/**
 * Where each kind of request starts its D1 session (src/server/platform/d1-session.ts,
 * docs/reference/consistency.md): reads from the nearest replica, or from the reader's bookmark;
 * writes and the admin area's reads on the primary.
 */
import { describe, expect, it } from 'vitest';
import { bookmarkOf, handsOutBookmark, requestKind, sessionStart } from '@/server/platform/d1-session';

const SITE = 'https://board.example';
const BOOKMARK = '0000002a-00000123-00004c6d-8e61117bf38d7adb71b934ebbf891683';

const ask = (path: string, method = 'GET', cookie?: string) =>
	new Request(`${SITE}${path}`, { method, ...(cookie === undefined ? {} : { headers: { cookie } }) });

describe('the D1 session a request starts', () => {
	it.each([
		['a guest or member reads a page', ask('/starfall/global/boards/12'), 'read', 'first-unconstrained'],
		['a public API read', ask('/public/v1/starfall/global/posts/5'), 'read', 'first-unconstrained'],
		['a member API read', ask('/v1/starfall/global/drafts'), 'read', 'first-unconstrained'],
		['an API write', ask('/v1/starfall/global/posts', 'POST'), 'write', 'first-primary'],
		['an API edit', ask('/v1/starfall/global/me/nickname', 'PUT'), 'write', 'first-primary'],
		['an API delete', ask('/v1/starfall/global/posts/5/like', 'DELETE'), 'write', 'first-primary'],
		['an API comment edit', ask('/v1/starfall/global/posts/5/comments/9', 'PATCH'), 'write', 'first-primary'],
		["the providers' return (GET)", ask('/starfall/global/oauth?code=x&state=y'), 'write', 'first-primary'],
		["Apple's return (form POST)", ask('/starfall/global/oauth', 'POST'), 'write', 'first-primary'],
		['an email link', ask('/starfall/global/email/confirm', 'POST'), 'write', 'first-primary'],
		["the admin area's pages", ask('/starfall/global/admin/reports'), 'moderation', 'first-primary'],
		['the admin area', ask('/starfall/global/admin'), 'moderation', 'first-primary'],
		['an admin API read', ask('/admin/v1/starfall/global/reports'), 'moderation', 'first-primary'],
		['an admin API action', ask('/admin/v1/starfall/global/posts/5/hide', 'POST'), 'write', 'first-primary'],
		['a post titled admin', ask('/starfall/global/posts/5?q=admin'), 'read', 'first-unconstrained'],
	] as const)('%s', (_name, request, kind, start) => {
		expect(requestKind(request)).toBe(kind);
		expect(sessionStart(request)).toBe(start);
	});

	it("starts a read from the reader's bookmark, and a write or a moderator's read on the primary still", () => {
		const cookie = `__Host-d1-bookmark=${BOOKMARK}`;
		expect(sessionStart(ask('/starfall/global/posts/5', 'GET', cookie))).toBe(BOOKMARK);
		expect(sessionStart(ask('/public/v1/starfall/global/posts/5', 'GET', `other=1; ${cookie}`))).toBe(BOOKMARK);
		expect(sessionStart(ask('/v1/starfall/global/posts', 'POST', cookie))).toBe('first-primary');
		expect(sessionStart(ask('/starfall/global/admin', 'GET', cookie))).toBe('first-primary');
	});

	it("starts a read from the bookmark of the database it was written in, and other databases' sessions from a replica", () => {
		const cookie = `__Host-d1-bookmark=DB_2~${BOOKMARK}`;
		expect(sessionStart(ask('/starfall/tw/posts/5', 'GET', cookie), 'DB_2')).toBe(BOOKMARK);
		expect(sessionStart(ask('/starfall/tw/posts/5', 'GET', cookie), 'DB')).toBe('first-unconstrained');
		expect(sessionStart(ask('/starfall/tw/posts/5', 'GET', `__Host-d1-bookmark=${BOOKMARK}`), 'DB_1')).toBe('first-unconstrained');
		expect(bookmarkOf(ask('/starfall/tw', 'GET', `__Host-d1-bookmark=DB_0~${BOOKMARK}`))).toBeNull();
		expect(bookmarkOf(ask('/starfall/tw', 'GET', `__Host-d1-bookmark=DB~${BOOKMARK}`))).toBeNull();
	});

	it('ignores a cookie that is not a bookmark, and one without the prefix where the site sets it', () => {
		for (const value of ['', 'garbage', BOOKMARK.toUpperCase(), `${BOOKMARK}0`, BOOKMARK.slice(1), 'f'.repeat(59), 'a'.repeat(100_000)]) {
			expect(bookmarkOf(ask('/starfall/global', 'GET', `__Host-d1-bookmark=${value}`)), value.slice(0, 80)).toBeNull();
		}
		// A cookie planted without `__Host-` (by a sibling subdomain, or over http) is never read on https.
		expect(bookmarkOf(ask('/starfall/global', 'GET', `d1-bookmark=${BOOKMARK}`))).toBeNull();
		expect(bookmarkOf(new Request('http://board.example/starfall/global', { headers: { cookie: `d1-bookmark=${BOOKMARK}` } }))).toBe(BOOKMARK);
	});

	it("hands the bookmark back after a write the writer may read next, not after a post page's view beacon", () => {
		expect(handsOutBookmark(ask('/v1/starfall/global/posts', 'POST'))).toBe(true);
		expect(handsOutBookmark(ask('/v1/starfall/global/posts/5/like', 'PUT'))).toBe(true);
		expect(handsOutBookmark(ask('/starfall/global/oauth?code=x&state=y'))).toBe(true);
		expect(handsOutBookmark(ask('/public/v1/starfall/global/posts/5/views', 'POST'))).toBe(false);
		expect(handsOutBookmark(ask('/v1/starfall/global/posts/5/views', 'POST'))).toBe(false);
		expect(handsOutBookmark(ask('/starfall/global/posts/5'))).toBe(false);
	});
});
