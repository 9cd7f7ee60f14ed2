/**
 * Sign-in sessions: a random token in the channel's session cookie, its SHA-256 in D1. A session
 * ends after SESSION_IDLE_MS without use or SESSION_MAX_MS after sign-in, whichever comes first;
 * logout and withdrawal delete it on the server (a ban does not: a banned member keeps reading, and is
 * told of the ban, docs/reference/moderation.md#a-banned-member). The token carries the second of those ends
 * (session-token.ts), so that a token past it is known to have ended without asking D1.
 */
import { hashToken } from '@/server/platform/tokens';
import { waitUntil } from 'cloudflare:workers';
import { uncounted } from '@/server/platform/database';
import type { ReadGroup } from '@/server/platform/reads';
import { mintSessionToken, SESSION_MAX_MS, sessionTokenState } from './session-token';
import type { Provider } from '@/schemas/channel';
import type { Role } from '@/lib/roles';

/** A session unused this long has ended. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export { SESSION_MAX_MS };
/** Use is recorded at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export interface SessionMember {
	userId: number;
	nickname: string;
	role: Role;
	provider: Provider;
	recentProvider: Provider;
	joinedAt: number;
	/**
	 * The session began with a sign-up that passed the human check (sessions.human_checked_at): the
	 * write screen does not ask again in this session (docs/reference/spam-defence.md).
	 */
	humanChecked?: boolean;
}

export interface BanInfo {
	kind: 'TEMPORARY' | 'PERMANENT';
	/** The end of a temporary ban (epoch ms); null for a permanent one. */
	endsAt: number | null;
	/** What the administrator typed (told to the member); '' when nothing. */
	reason: string;
}

/** Who is asking, as far as the channel's session cookie tells. */
export type SessionState =
	| { kind: 'guest' }
	| { kind: 'member'; member: SessionMember; tokenHash: string }
	| { kind: 'banned'; member: SessionMember; ban: BanInfo; tokenHash: string }
	/** The cookie names a session that has run out (-4011402). */
	| { kind: 'expired' }
	/** The cookie names no session: logged out, banned or withdrawn since (-4011415). */
	| { kind: 'revoked' };

interface SessionRow {
	member_id: number;
	last_seen_at: number;
	idle_expires_at: number;
	expires_at: number;
	nickname: string | null;
	role: Role;
	provider: Provider;
	recent_provider: Provider;
	joined_at: number;
	human_checked_at: number | null;
	withdrawn_at: number | null;
	ban_kind: 'TEMPORARY' | 'PERMANENT' | null;
	ban_ends_at: number | null;
	ban_reason: string | null;
}

/**
 * The ban in force for a member at `now` (?3): a permanent one first, else the latest-ending one.
 * Two index seeks on bans_active_by_member rather than one sort.
 */
const ACTIVE_BAN_SQL = `COALESCE(
	(SELECT id FROM bans WHERE member_id = m.id AND lifted_at IS NULL AND ends_at IS NULL LIMIT 1),
	(SELECT id FROM bans WHERE member_id = m.id AND lifted_at IS NULL AND ends_at > ?3 ORDER BY ends_at DESC LIMIT 1))`;

/**
 * What a session cookie's token needs: nothing (no cookie), an answer without D1 (a token this
 * deployment did not mint, or one whose end has passed), or its row.
 */
type SessionLookup = { kind: 'guest' } | { kind: 'revoked' } | { kind: 'expired' } | { kind: 'row'; tokenHash: string };

export async function sessionLookup(channelId: number, token: string | null, secret: string | null, now: number): Promise<SessionLookup> {
	if (!token) return { kind: 'guest' };
	const state = await sessionTokenState(secret, channelId, token, now);
	if (state === 'foreign') return { kind: 'revoked' };
	if (state === 'ended') return { kind: 'expired' };
	return { kind: 'row', tokenHash: await tokenHashOf(token) };
}

/** How many session tokens' hashes an isolate remembers; the oldest goes first. */
const TOKEN_HASH_ENTRIES = 1024;
const tokenHashes = new Map<string, string>();

/**
 * The hash of a session token this deployment minted, remembered: every page a member opens hashes
 * the same token. Only minted tokens get here (sessionTokenState), so made-up ones cannot fill it.
 */
async function tokenHashOf(token: string): Promise<string> {
	let hash = tokenHashes.get(token);
	if (hash === undefined) {
		hash = await hashToken(token);
		if (tokenHashes.size >= TOKEN_HASH_ENTRIES) tokenHashes.delete(tokenHashes.keys().next().value as string);
		tokenHashes.set(token, hash);
	}
	return hash;
}

/**
 * Columns a page reads in the session's own row (one statement for both, where two would each cost
 * their own: docs/decisions/performance.md): SQL of the columns, which may use the session's member
 * `s.member_id`, the token's hash ?1, the channel ?2 and the time ?3, and their own values from ?4 on.
 */
export interface SessionRowColumns {
	columns: string;
	params: readonly unknown[];
}

/** The read of a session's row with its member and ban (and a page's own columns, `extra`). */
export function sessionStatement(db: Db, channelId: number, tokenHash: string, now: number, extra?: SessionRowColumns): D1PreparedStatement {
	return db
		.prepare(
			`SELECT s.member_id, s.last_seen_at, s.idle_expires_at, s.expires_at, m.nickname, m.role, m.provider, m.recent_provider,
			        m.joined_at, s.human_checked_at, m.withdrawn_at, b.kind AS ban_kind, b.ends_at AS ban_ends_at, b.reason AS ban_reason${extra ? `, ${extra.columns}` : ''}
			 FROM sessions s JOIN members m ON m.id = s.member_id
			 LEFT JOIN bans b ON b.id = ${ACTIVE_BAN_SQL}
			 WHERE s.token_hash = ?1 AND s.channel_id = ?2`,
		)
		.bind(tokenHash, channelId, now, ...(extra?.params ?? []));
}

/**
 * SQL that holds when the session whose token hash is `tokenSql` (in the channel `channelSql`, at
 * `nowSql`) is one sessionOfResult answers as a member: its row, a member neither withdrawn nor
 * without a nickname, neither end passed, no ban in force (ACTIVE_BAN_SQL's two cases). A write
 * whose session is read in its own batch guards each statement with it
 * (src/server/platform/guarded-write.ts); tests/workers/one-trip-writes.test.ts holds the two to one answer.
 */
export function liveSessionSql(tokenSql: string, channelSql: string, nowSql: string): string {
	return `EXISTS (SELECT 1 FROM sessions s JOIN members m ON m.id = s.member_id
		WHERE s.token_hash = ${tokenSql} AND s.channel_id = ${channelSql} AND m.withdrawn_at IS NULL AND m.nickname IS NOT NULL
		AND ${nowSql} < s.idle_expires_at AND ${nowSql} < s.expires_at
		AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.member_id = m.id AND b.lifted_at IS NULL AND (b.ends_at IS NULL OR b.ends_at > ${nowSql})))`;
}

/**
 * Hands a session's own write (its use recorded, or its row deleted once expired) to what runs it:
 * a request's `waitUntil`, so that the answer never waits for it, or an await.
 */
export type SessionWrite = (write: () => Promise<unknown>) => Promise<void> | void;

/** Runs a session's write before going on (operator commands, tests). */
const awaited: SessionWrite = async (write) => {
	await write();
};

/** Runs a session's write after the request's answer: not one of the answer's round trips. */
export const afterAnswer: SessionWrite = (write) => waitUntil(uncounted(write));

/**
 * The session sessionStatement read; an expired one is deleted on sight, and use is recorded at
 * most hourly (TOUCH_INTERVAL_MS), both through `write`: a page or API read takes no round trip for them.
 */
export async function sessionOfResult(
	db: Db,
	result: D1Result | undefined,
	tokenHash: string,
	now: number,
	write: SessionWrite,
): Promise<SessionState> {
	const row = (result?.results[0] ?? null) as SessionRow | null;
	if (!row || row.withdrawn_at !== null || row.nickname === null) return { kind: 'revoked' };
	if (now >= row.idle_expires_at || now >= row.expires_at) {
		await write(() => db.prepare('DELETE FROM sessions WHERE token_hash = ?1').bind(tokenHash).run());
		return { kind: 'expired' };
	}
	if (now - row.last_seen_at >= TOUCH_INTERVAL_MS) {
		await write(() =>
			db
				.prepare('UPDATE sessions SET last_seen_at = ?2, idle_expires_at = min(expires_at, ?2 + ?3) WHERE token_hash = ?1')
				.bind(tokenHash, now, SESSION_IDLE_MS)
				.run(),
		);
	}
	const member: SessionMember = {
		userId: row.member_id,
		nickname: row.nickname,
		role: row.role,
		provider: row.provider,
		recentProvider: row.recent_provider,
		joinedAt: row.joined_at,
		...(row.human_checked_at !== null && { humanChecked: true }),
	};
	if (row.ban_kind) return { kind: 'banned', member, ban: { kind: row.ban_kind, endsAt: row.ban_ends_at, reason: row.ban_reason ?? '' }, tokenHash };
	return { kind: 'member', member, tokenHash };
}

/**
 * Reads a page makes beside the session (a group of named reads: src/server/platform/reads.ts),
 * given the hash of the session cookie's token when it has one this deployment minted (a read may
 * join `sessions` on it: the member's own like), else null. Such a read must not tell anything the
 * session's member may not see: the page decides once it knows the session. A group with
 * `inSessionRow` also reads those columns in the session's own row, and its `parse` then gets the
 * session's result first, before its statements' (the row is missing when the token has no session).
 */
export type AlongsideReads<T> = (tokenHash: string | null) => ReadGroup<T> & { inSessionRow?: SessionRowColumns };

/**
 * Resolves the session cookie's token for the channel, with the `alongside` reads in the same D1
 * batch (one round trip for both; none at all for no cookie and no reads); expired sessions are
 * deleted on sight. A token this deployment did not mint (`secret`) is revoked, and one past the
 * end it carries expired, without reading its row. `read` is the value of the reads (null without them).
 */
export async function resolveSessionWith<T>(
	db: Db,
	channelId: number,
	token: string | null,
	secret: string | null,
	now: number,
	alongside: AlongsideReads<T> | undefined,
	write: SessionWrite = awaited,
): Promise<{ session: SessionState; read: T | null }> {
	const lookup = await sessionLookup(channelId, token, secret, now);
	const tokenHash = lookup.kind === 'row' ? lookup.tokenHash : null;
	const reads = alongside?.(tokenHash);
	const inSessionRow = tokenHash === null ? undefined : reads?.inSessionRow;
	const own = tokenHash === null ? [] : [sessionStatement(db, channelId, tokenHash, now, inSessionRow)];
	const statements = [...own, ...(reads?.statements ?? [])];
	const results = statements.length === 0 ? [] : await db.batch(statements);
	const session = lookup.kind === 'row' ? await sessionOfResult(db, results[0], lookup.tokenHash, now, write) : { kind: lookup.kind };
	return { session, read: reads ? reads.parse(inSessionRow ? results : results.slice(own.length)) : null };
}

/** resolveSessionWith without reads of the page's own. */
export async function resolveSession(
	db: Db,
	channelId: number,
	token: string | null,
	secret: string | null,
	now = Date.now(),
): Promise<SessionState> {
	return (await resolveSessionWith(db, channelId, token, secret, now, undefined)).session;
}

/**
 * A new session for a member, given by id or, inside the batch that creates the membership, by
 * its identity: the token for the cookie and the statements that store it. `humanChecked`: the
 * sign-up that creates it passed the human check, recorded on the session's own row.
 */
export async function newSession(
	db: Db,
	channelId: number,
	member: number | { identityId: number },
	secret: string,
	now = Date.now(),
	humanChecked = false,
) {
	const token = await mintSessionToken(secret, channelId, now + SESSION_MAX_MS);
	const memberId = typeof member === 'number' ? '?2' : '(SELECT id FROM members WHERE channel_id = ?3 AND identity_id = ?2)';
	const memberValue = typeof member === 'number' ? member : member.identityId;
	const statements = [
		// Sign-in is a good moment to forget this member's sessions that have run out.
		db
			.prepare(`DELETE FROM sessions WHERE member_id = ${memberId} AND (expires_at <= ?4 OR idle_expires_at <= ?4)`)
			.bind(null, memberValue, channelId, now),
		db
			.prepare(
				`INSERT INTO sessions (token_hash, member_id, channel_id, created_at, last_seen_at, idle_expires_at, expires_at, human_checked_at)
				 VALUES (?1, ${memberId}, ?3, ?4, ?4, ?5, ?6, ?7)`,
			)
			.bind(await hashToken(token), memberValue, channelId, now, now + SESSION_IDLE_MS, now + SESSION_MAX_MS, humanChecked ? now : null),
	];
	return { token, statements, maxAgeSeconds: Math.floor(SESSION_MAX_MS / 1000) };
}

export function endSession(db: Db, tokenHash: string): D1PreparedStatement {
	return db.prepare('DELETE FROM sessions WHERE token_hash = ?1').bind(tokenHash);
}

/** Ends every session of a member (withdrawal). */
export function endMemberSessions(db: Db, memberId: number): D1PreparedStatement {
	return db.prepare('DELETE FROM sessions WHERE member_id = ?1').bind(memberId);
}
