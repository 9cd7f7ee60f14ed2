/**
 * Where each request's D1 session starts, and the bookmark a writer's next request starts from
 * (docs/reference/consistency.md). D1 answers a session's first query from the nearest replica
 * (`first-unconstrained`) or from the primary (`first-primary`), or from any copy at least as new
 * as a bookmark; every later query of the session sees what the earlier ones saw. After a request
 * that wrote, the session's bookmark goes back to the browser in a short-lived cookie (and, for an
 * API call, in the BOOKMARK_HEADER of its answer), so that the member's next pages and reads start
 * from it and never miss their own write on a replica that lags.
 *
 * `sessionStart` is the one policy: the database's module (database.ts) opens every request's
 * session with what it answers.
 */
import { parse, serialize } from 'hono/utils/cookie';
import { isSecureContext } from '@/server/sign-in/cookies';
import { requestUrl } from '@/server/platform/request-url';

/** The answer header of an API call that wrote: the bookmark its session ended at. */
export const BOOKMARK_HEADER = 'X-D1-Bookmark';

/**
 * How long the bookmark cookie lives (seconds). A replica catches up within seconds; five minutes
 * covers a slow one with room, and then the cookie goes, so that a member's reads return to the
 * nearest replica without a bookmark they no longer need.
 */
export const BOOKMARK_COOKIE_SECONDS = 5 * 60;

/**
 * A D1 bookmark: three 8-digit and one 32-digit hexadecimal parts (they sort oldest to newest),
 * after the name of the binding it belongs to and a tilde when that is not the directory's (DB):
 * a bookmark is one database's (docs/reference/databases.md).
 */
const BOOKMARK = /^(?:(DB_[1-9][0-9]{0,3})~)?([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})$/;
const BOOKMARK_LENGTH = 59;
/** The directory's binding, whose bookmark goes without a name. */
const DIRECTORY = 'DB';

/** What a request does to the database, for the start of its session. */
export type RequestKind = 'read' | 'write' | 'moderation';

/** The paths that write although asked with GET: the providers' return (/{domain}/{slug}/oauth). */
const WRITING_GET = /^\/[^/]+\/[^/]+\/oauth\/?$/;
/** The admin area's pages and the admin API: moderators decide on what is, never on a replica's past. */
const MODERATION = /^(?:\/admin\/v1\/|\/[^/]+\/[^/]+\/admin(?:\/|$))/;

/** Whether `request` writes (a moderator's action included), is a moderator's read, or another read. */
export function requestKind(request: Request): RequestKind {
	const path = requestUrl(request).pathname;
	if ((request.method !== 'GET' && request.method !== 'HEAD') || WRITING_GET.test(path)) return 'write';
	return MODERATION.test(path) ? 'moderation' : 'read';
}

/**
 * Writes whose writer never reads them back: the post page's view beacon (every reader's, guests'
 * too; its count is approximate and written after the answer). Their answers carry no bookmark, so
 * reading a post sets no cookie.
 */
const UNREAD_WRITES = /^\/(?:public\/)?v1\/[^/]+\/[^/]+\/posts\/[^/]+\/views\/?$/;

/** Whether the answer to `request` hands the session's bookmark back: a write the writer may read back next. */
export function handsOutBookmark(request: Request): boolean {
	return requestKind(request) === 'write' && !UNREAD_WRITES.test(requestUrl(request).pathname);
}

/** The bookmark cookie's name: `__Host-` wherever the browser is in a secure context (as the sign-in cookies'). */
function cookieName(url: URL): string {
	return `${isSecureContext(url) ? '__Host-' : ''}d1-bookmark`;
}

/** The bookmark the request's cookie carries (with its binding's name, but for DB's), or null when it has none, or one that is not a bookmark. */
export function bookmarkOf(request: Request): D1SessionBookmark | null {
	const header = request.headers.get('cookie');
	if (!header) return null;
	const name = cookieName(requestUrl(request));
	const value = parse(header, name)[name];
	return value !== undefined && value.length <= BOOKMARK_LENGTH + 9 && BOOKMARK.test(value) ? value : null;
}

/** The bookmark of the request's cookie when it is the database bound as `binding`'s, or null. */
function bookmarkFor(request: Request, binding: string): D1SessionBookmark | null {
	const [, name = DIRECTORY, bookmark] = BOOKMARK.exec(bookmarkOf(request) ?? '') ?? [];
	return bookmark !== undefined && name === binding ? bookmark : null;
}

/** The answer's headers after a write: the cookie and BOOKMARK_HEADER, both with `bookmark` of the database bound as `binding`. */
export function bookmarkHeaders(url: URL, bookmark: D1SessionBookmark, binding = DIRECTORY): [string, string][] {
	const value = binding === DIRECTORY ? bookmark : `${binding}~${bookmark}`;
	return [
		['Set-Cookie', bookmarkCookie(url, value)],
		[BOOKMARK_HEADER, value],
	];
}

/**
 * Where the request's session on the database bound as `binding` starts: a write or a moderator's
 * read on the primary; any other read from the bookmark of the reader's last write when they carry
 * one of that database, otherwise from the nearest replica.
 */
export function sessionStart(request: Request, binding = DIRECTORY): D1SessionConstraint | D1SessionBookmark {
	if (requestKind(request) !== 'read') return 'first-primary';
	return bookmarkFor(request, binding) ?? 'first-unconstrained';
}

/**
 * Where a write's read of the channel's row starts (the row every isolate keeps a copy of: channels.ts
 * `resolveChannel`), apart from the write's own session, which starts on the primary: from a replica
 * that has the newer of the writer's bookmark and the newest write this isolate served on the binding
 * (`newestWrite`), or the nearest one when there is neither. A write then waits one primary round
 * trip, its batch, not two, when the isolate's copy was dropped by its previous write or has aged.
 * The row may be older than the primary's: whether the community is moving is checked again by the
 * write's own statements (src/server/databases/write-guard.ts), and the row is never older than what
 * this isolate or this writer wrote, so the pages it keys next show those writes. Reads keep the row
 * in their own session (the page's reads and the row it is keyed by from one copy), and so do
 * moderators' (the primary). Null: the request's own session.
 */
export function channelLookupStart(
	request: Request,
	binding: string,
	newestWrite: D1SessionBookmark | null,
): D1SessionConstraint | D1SessionBookmark | null {
	if (requestKind(request) !== 'write') return null;
	return newerBookmark(newestWrite, bookmarkFor(request, binding)) ?? 'first-unconstrained';
}

/** The newer of two bookmarks of one database (they sort oldest to newest), or the one there is. */
export function newerBookmark(a: D1SessionBookmark | null, b: D1SessionBookmark | null): D1SessionBookmark | null {
	if (a === null || b === null) return a ?? b;
	return a > b ? a : b;
}

/**
 * The Set-Cookie value that hands `bookmark` to the next request of this browser: HttpOnly,
 * SameSite=Lax, Path=/, Secure in a secure context, BOOKMARK_COOKIE_SECONDS long.
 */
function bookmarkCookie(url: URL, bookmark: D1SessionBookmark): string {
	const secure = isSecureContext(url);
	return serialize(cookieName(url), bookmark, { path: '/', httpOnly: true, secure, sameSite: 'Lax', maxAge: BOOKMARK_COOKIE_SECONDS });
}
