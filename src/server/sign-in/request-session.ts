/**
 * The session a request carries for a channel, as pages and the API both read it: the answer to a
 * request with the channel's session cookie is private (the edge cache never stores it), and a
 * cookie whose session has ended is cleared. A page may give the reads it makes anyway
 * (`alongside`): they go to D1 in the same batch as the session's row, one round trip for both.
 */
import type { Channel } from '@/server/channels/channels';
import { clearAuthCookie, readAuthCookie } from './cookies';
import { sessionLookup, sessionOfResult, sessionStatement, type SessionState } from './sessions';
import { sessionSecret } from './session-secret';

export interface RequestSession {
	session: SessionState;
	/** Headers the answer must carry: Cache-Control and, for an ended session, the Set-Cookie that clears it. */
	headers: [name: 'Cache-Control' | 'Set-Cookie', value: string][];
	/** The results of the `alongside` reads, in their order. */
	alongside: D1Result[];
}

/**
 * Reads a page makes beside the session, given the hash of the session cookie's token when it has
 * one this deployment minted (a read may join `sessions` on it: the member's own like), else null.
 * Such a read must not tell anything the session's member may not see: the page decides once it
 * knows the session.
 */
export type AlongsideReads = (tokenHash: string | null) => D1PreparedStatement[];

export async function requestSession(db: D1Database, channel: Channel, request: Request, alongside?: AlongsideReads, now = Date.now()): Promise<RequestSession> {
	const token = readAuthCookie(request, 'session', channel.domain, channel.slug);
	const lookup = await sessionLookup(channel.id, token, sessionSecret());
	const reads = alongside?.(lookup.kind === 'row' ? lookup.tokenHash : null) ?? [];
	let session: SessionState;
	let results: D1Result[];
	if (lookup.kind === 'row') {
		const [own, ...rest] = await db.batch([sessionStatement(db, channel.id, lookup.tokenHash, now), ...reads]);
		session = await sessionOfResult(db, own, lookup.tokenHash, now);
		results = rest;
	} else {
		session = { kind: lookup.kind };
		results = reads.length === 0 ? [] : reads.length === 1 ? [await reads[0]!.all()] : await db.batch(reads);
	}
	const headers: RequestSession['headers'] = [];
	if (token) headers.push(['Cache-Control', 'private, no-store']);
	if (session.kind === 'expired' || session.kind === 'revoked') {
		headers.push(['Set-Cookie', clearAuthCookie(new URL(request.url), 'session', channel.domain, channel.slug)]);
	}
	return { session, headers, alongside: results };
}
