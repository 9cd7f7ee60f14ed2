/**
 * The session a request carries for a channel, as pages and the API both read it: the answer to a
 * request with the channel's session cookie is private (the edge cache never stores it), and a
 * cookie whose session has ended is cleared. A page may give the reads it makes anyway
 * (`alongside`): they go to D1 in the same batch as the session's row, one round trip for both.
 */
import type { Channel } from '@/server/channels/channels';
import { clearAuthCookie, readAuthCookie } from './cookies';
import { afterAnswer, resolveSessionWith, sessionLookup, sessionOfResult, type AlongsideReads, type SessionState } from './sessions';
import { sessionSecret } from './session-secret';

export interface RequestSession<T> {
	session: SessionState;
	/** Headers the answer must carry: Cache-Control and, for an ended session, the Set-Cookie that clears it. */
	headers: [name: 'Cache-Control' | 'Set-Cookie', value: string][];
	/** The value of the `alongside` reads (null without them). */
	read: T | null;
}

export async function requestSession<T = never>(
	db: Db,
	channel: Channel,
	request: Request,
	alongside?: AlongsideReads<T>,
	now = Date.now(),
): Promise<RequestSession<T>> {
	const token = readAuthCookie(request, 'session', channel.domain, channel.slug);
	// The session's own writes (its hourly use, an expired row's removal) go on after the answer.
	const { session, read } = await resolveSessionWith(db, channel.id, token, sessionSecret(), now, alongside, afterAnswer);
	const headers: RequestSession<T>['headers'] = [];
	if (token) headers.push(['Cache-Control', 'private, no-store']);
	if (session.kind === 'expired' || session.kind === 'revoked') {
		headers.push(['Set-Cookie', clearAuthCookie(new URL(request.url), 'session', channel.domain, channel.slug)]);
	}
	return { session, headers, read };
}

/**
 * What the channel's session cookie tells before D1 is asked, for a write that reads the session's
 * row in its own batch (src/server/platform/guarded-write.ts): the session itself when no row is
 * needed (no cookie, a token this deployment did not mint, one past its end), else the hash its
 * row is found by. `headers` as requestSession's.
 */
export async function sessionBeforeRow(
	channel: Channel,
	request: Request,
	now: number,
): Promise<
	| { session: SessionState; tokenHash: null; headers: RequestSession<never>['headers'] }
	| { session: null; tokenHash: string; headers: RequestSession<never>['headers'] }
> {
	const token = readAuthCookie(request, 'session', channel.domain, channel.slug);
	const lookup = await sessionLookup(channel.id, token, sessionSecret(), now);
	const headers: RequestSession<never>['headers'] = token ? [['Cache-Control', 'private, no-store']] : [];
	if (lookup.kind === 'row') return { session: null, tokenHash: lookup.tokenHash, headers };
	if (lookup.kind !== 'guest') headers.push(['Set-Cookie', clearAuthCookie(new URL(request.url), 'session', channel.domain, channel.slug)]);
	return { session: { kind: lookup.kind }, tokenHash: null, headers };
}

/**
 * The session whose row (sessions.ts sessionStatement) a write read in its own batch, as
 * requestSession answers it: its hourly use and an expired row's removal go on after the answer,
 * and an ended session's cookie is cleared (`headers`, Cache-Control aside: sessionBeforeRow gave it).
 */
export async function sessionOfRow(
	db: Db,
	channel: Channel,
	request: Request,
	tokenHash: string,
	row: D1Result | undefined,
	now: number,
): Promise<{ session: SessionState; headers: RequestSession<never>['headers'] }> {
	const session = await sessionOfResult(db, row, tokenHash, now, afterAnswer);
	const ended = session.kind === 'expired' || session.kind === 'revoked';
	return { session, headers: ended ? [['Set-Cookie', clearAuthCookie(new URL(request.url), 'session', channel.domain, channel.slug)]] : [] };
}
