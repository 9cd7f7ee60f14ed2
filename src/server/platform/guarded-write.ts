/**
 * Guarded writes: a write in one D1 round trip, its session's check included. The batch (one
 * transaction) holds the session's row, the reads the write's refusals are decided from, each
 * write statement guarded in SQL by the same conditions (`INSERT … SELECT … WHERE <allowed>`,
 * `UPDATE … WHERE … AND <allowed>`), and the reads its answer is made of. When a condition does
 * not hold nothing is written, and the batch's own reads say which refusal it is, checked in the
 * order the write's rules give; the caller throws it only after checking that nothing was written
 * (`refuse`), so a guard and its read cannot disagree silently.
 *
 * The writer is either a member known before the write (a service called with its member: the
 * operator's commands, the tests) or a session whose row the batch reads (`SessionWriter`: the
 * API's routes that read no session before their batch, functions/api/middleware/session.ts),
 * named in SQL by its token's hash (src/server/sign-in/member-ref.ts).
 * docs/decisions/performance.md#round-trips says which writes are made so.
 */
import { isAdmin } from '@/lib/roles';
import { adminSql, memberIdSql } from '@/server/sign-in/member-ref';
import { liveSessionSql, sessionStatement, type SessionMember } from '@/server/sign-in/sessions';
import type { AppError } from './errors';

/** The writer of a guarded write whose session's row the write's own batch reads. */
export interface SessionWriter {
	tokenHash: string;
	/** The session's member from its row as the batch read it. @throws AppError the session's refusal (expired, revoked, banned) */
	settle(row: D1Result | undefined): Promise<SessionMember>;
}

/** Who writes: a member known before the write, or a session read in the write's batch. */
export type Writer = SessionMember | SessionWriter;

export function isSessionWriter(writer: Writer): writer is SessionWriter {
	return 'settle' in writer;
}

/** The numbered parameters of one statement's SQL, each value bound once: `p(value)` is its `?N`. */
export interface Params {
	(value: unknown): `?${number}`;
	readonly values: unknown[];
}

function params(): Params {
	const values: unknown[] = [];
	const p = ((value: unknown) => {
		const at = values.indexOf(value);
		return `?${(at === -1 ? values.push(value) : at + 1).toString()}`;
	}) as Params;
	return Object.assign(p, { values });
}

/** A statement whose SQL `build` writes with its own parameters. */
export function prepared(db: Db, build: (p: Params) => string): D1PreparedStatement {
	const p = params();
	const sql = build(p);
	return db.prepare(sql).bind(...p.values);
}

/**
 * SQL of the writer in a statement: its member's id, 1 for an administrator (else 0), and (asked
 * only where used: every value bound must be used) whether its session is live.
 */
export function writerSql(writer: Writer, p: Params): { member: string; admin: string; live: (channelId: number, now: number) => string } {
	if (!isSessionWriter(writer)) return { member: p(writer.userId), admin: isAdmin(writer) ? '1' : '0', live: () => '1' };
	const token = p(writer.tokenHash);
	return {
		member: memberIdSql(writer, token),
		admin: adminSql(writer, token),
		live: (channelId, now) => liveSessionSql(token, p(channelId), p(now)),
	};
}

/** SQL of a column of the writer's member row (`m.`…): the value itself for a member known before. */
export function writerColumnSql(writer: Writer, column: 'role' | 'joined_at', p: Params): string {
	if (!isSessionWriter(writer)) return p(column === 'role' ? writer.role : writer.joinedAt);
	return `(SELECT m.${column} FROM sessions s JOIN members m ON m.id = s.member_id WHERE s.token_hash = ${p(writer.tokenHash)})`;
}

/**
 * Sends `statements` in one batch, after the writer's session's row when it is a SessionWriter,
 * and answers the writer's member (settled from that row first: its refusal comes before any
 * other) and the statements' results, in their order.
 */
export async function guardedWrite(
	db: Db,
	channelId: number,
	writer: Writer,
	now: number,
	statements: D1PreparedStatement[],
): Promise<{ member: SessionMember; results: D1Result[] }> {
	if (!isSessionWriter(writer)) return { member: writer, results: await db.batch(statements) };
	const [row, ...results] = await db.batch([sessionStatement(db, channelId, writer.tokenHash, now), ...statements]);
	return { member: await writer.settle(row), results };
}

/**
 * The refusal `error`, thrown once the batch's results show that nothing was written: a refusal
 * decided from the reads while a guarded statement wrote would be a guard that disagrees with its
 * read, and fails loudly instead.
 */
export function refuse(results: readonly D1Result[], error: AppError): never {
	if (results.some((result) => (result.meta.rows_written ?? 0) > 0))
		throw new Error(`A guarded write wrote although its reads refused it (${error.codeName})`);
	throw error;
}
