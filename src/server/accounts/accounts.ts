/**
 * Accounts: provider identities, memberships, sign-up, nickname changes and withdrawal. An
 * identity is global and keyed by (provider, subject), never by email, so two providers never merge;
 * a membership (nickname, join date, bans, withdrawal) belongs to one channel.
 */
import { AppError } from '@/server/platform/errors';
import { bumpContentVersion } from '@/server/channels/channels';
import { endMemberSessions, newSession, type SessionMember } from '@/server/sign-in/sessions';
import { hashToken, randomToken } from '@/server/platform/tokens';
import { nicknameKey } from '@/lib/nickname-key';
import { nicknameProblem, type NicknameProblem } from '@/schemas/nickname';
import type { Provider } from '@/schemas/channel';

/** How long a sign-up may stay between the provider's return and the chosen nickname. */
export const SIGNUP_TTL_MS = 30 * 60 * 1000;

const PROBLEM_CODES = {
	required: 'NicknameRequired',
	length: 'NicknameLength',
	characters: 'NicknameCharacters',
	unusable: 'NicknameUnusable',
} as const satisfies Record<NicknameProblem, string>;

/** The nickname as stored (NFC); throws the result code of the rule of SPEC §5 it breaks. */
export function checkedNickname(input: string): string {
	const nickname = input.normalize('NFC');
	const problem = nicknameProblem(nickname);
	if (problem) throw new AppError(PROBLEM_CODES[problem]);
	return nickname;
}

export type SignInOutcome = { kind: 'member'; memberId: number; sessionToken: string; maxAgeSeconds: number } | { kind: 'signup'; signupToken: string };

/**
 * The provider vouched for (provider, subject): a member of the channel gets a new session; an
 * identity without a membership gets a sign-up in progress (terms, then nickname).
 */
export async function signInIdentity(db: D1Database, channelId: number, provider: Provider, subject: string, redirectUrl: string, now = Date.now()): Promise<SignInOutcome> {
	const identity = await db
		.prepare('INSERT INTO identities (provider, subject, created_at) VALUES (?1, ?2, ?3) ON CONFLICT (provider, subject) DO UPDATE SET provider = excluded.provider RETURNING id')
		.bind(provider, subject, now)
		.first<{ id: number }>();
	if (!identity) throw new Error('The identity was not stored');
	const member = await db
		.prepare('SELECT id FROM members WHERE channel_id = ?1 AND identity_id = ?2')
		.bind(channelId, identity.id)
		.first<{ id: number }>();
	if (member) {
		const session = await newSession(db, channelId, member.id, now);
		await db.batch([db.prepare('UPDATE members SET recent_provider = ?2 WHERE id = ?1').bind(member.id, provider), ...session.statements]);
		return { kind: 'member', memberId: member.id, sessionToken: session.token, maxAgeSeconds: session.maxAgeSeconds };
	}
	const signupToken = randomToken();
	await db.batch([
		db.prepare('DELETE FROM signups WHERE expires_at <= ?1').bind(now),
		db
			.prepare('INSERT INTO signups (token_hash, channel_id, identity_id, provider, redirect_url, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)')
			.bind(await hashToken(signupToken), channelId, identity.id, provider, redirectUrl, now, now + SIGNUP_TTL_MS),
	]);
	return { kind: 'signup', signupToken };
}

export interface Signup {
	tokenHash: string;
	identityId: number;
	provider: Provider;
	redirectUrl: string;
	termsAgreed: boolean;
}

/** The sign-up in progress named by the cookie's token, or null when there is none (or it ran out). */
export async function findSignup(db: D1Database, channelId: number, token: string | null, now = Date.now()): Promise<Signup | null> {
	if (!token) return null;
	const tokenHash = await hashToken(token);
	const row = await db
		.prepare('SELECT identity_id, provider, redirect_url, terms_agreed_at, privacy_agreed_at FROM signups WHERE token_hash = ?1 AND channel_id = ?2 AND expires_at > ?3')
		.bind(tokenHash, channelId, now)
		.first<{ identity_id: number; provider: Provider; redirect_url: string; terms_agreed_at: number | null; privacy_agreed_at: number | null }>();
	if (!row) return null;
	return { tokenHash, identityId: row.identity_id, provider: row.provider, redirectUrl: row.redirect_url, termsAgreed: row.terms_agreed_at !== null && row.privacy_agreed_at !== null };
}

/** Records the agreement to the service terms and the personal-information collection. */
export async function agreeToTerms(db: D1Database, signup: Signup, now = Date.now()): Promise<void> {
	await db.prepare('UPDATE signups SET terms_agreed_at = ?2, privacy_agreed_at = ?2 WHERE token_hash = ?1').bind(signup.tokenHash, now).run();
}

/** Why a nickname cannot be claimed by `memberId` (null for a new member), or null when it can. */
async function nicknameConflict(db: D1Database, channelId: number, key: string, memberId: number | null): Promise<'NicknameUnchanged' | 'NicknameTaken' | 'NicknameUnusable' | null> {
	const claim = await db
		.prepare('SELECT member_id, released_at FROM nickname_claims WHERE channel_id = ?1 AND nickname_key = ?2')
		.bind(channelId, key)
		.first<{ member_id: number; released_at: number | null }>();
	if (!claim) return null;
	if (claim.member_id !== memberId) return 'NicknameTaken';
	// One's own current nickname, or one retired by an earlier change: never again.
	return claim.released_at === null ? 'NicknameUnchanged' : 'NicknameUnusable';
}

function isUniqueViolation(error: unknown): boolean {
	return error instanceof Error && /UNIQUE constraint failed/i.test(error.message);
}

/**
 * Finishes a sign-up: creates the membership with its nickname and agreements and signs it in.
 * @throws AppError TermsRequired, a nickname code, or NicknameTaken when another sign-up won the race
 */
export async function completeSignup(db: D1Database, channelId: number, signup: Signup, input: string, now = Date.now()) {
	if (!signup.termsAgreed) throw new AppError('TermsRequired');
	const nickname = checkedNickname(input);
	const key = nicknameKey(nickname);
	const conflict = await nicknameConflict(db, channelId, key, null);
	if (conflict) throw new AppError(conflict);
	const session = await newSession(db, channelId, { identityId: signup.identityId }, now);
	try {
		await db.batch([
			db
				.prepare(
					`INSERT INTO members (channel_id, identity_id, nickname, role, provider, recent_provider, joined_at, terms_agreed_at, privacy_agreed_at)
					 SELECT ?1, identity_id, ?2, 'MEMBER', provider, provider, ?3, terms_agreed_at, privacy_agreed_at FROM signups WHERE token_hash = ?4`,
				)
				.bind(channelId, nickname, now, signup.tokenHash),
			db
				.prepare('INSERT INTO nickname_claims (channel_id, nickname_key, nickname, member_id, claimed_at) SELECT ?1, ?2, ?3, id, ?5 FROM members WHERE channel_id = ?1 AND identity_id = ?4')
				.bind(channelId, key, nickname, signup.identityId, now),
			...session.statements,
			db.prepare('DELETE FROM signups WHERE token_hash = ?1').bind(signup.tokenHash),
		]);
	} catch (error) {
		// Another request claimed the nickname, or this identity's membership, first.
		if (isUniqueViolation(error)) throw new AppError('NicknameTaken');
		throw error;
	}
	const member = await db.prepare('SELECT id FROM members WHERE channel_id = ?1 AND identity_id = ?2').bind(channelId, signup.identityId).first<{ id: number }>();
	if (!member) throw new Error('The new membership was not stored');
	return { memberId: member.id, nickname, sessionToken: session.token, maxAgeSeconds: session.maxAgeSeconds, redirectUrl: signup.redirectUrl };
}

/**
 * Changes a member's nickname; the previous one stays claimed by them for good. Names appear on
 * cached pages, so the channel's content version moves with it.
 */
export async function changeNickname(db: D1Database, channelId: number, member: SessionMember, input: string, now = Date.now()): Promise<string> {
	const nickname = checkedNickname(input);
	const key = nicknameKey(nickname);
	if (key === nicknameKey(member.nickname)) throw new AppError('NicknameUnchanged');
	const conflict = await nicknameConflict(db, channelId, key, member.userId);
	if (conflict) throw new AppError(conflict);
	try {
		await db.batch([
			db.prepare('UPDATE nickname_claims SET released_at = ?3 WHERE channel_id = ?1 AND member_id = ?2 AND released_at IS NULL').bind(channelId, member.userId, now),
			db.prepare('INSERT INTO nickname_claims (channel_id, nickname_key, nickname, member_id, claimed_at) VALUES (?1, ?2, ?3, ?4, ?5)').bind(channelId, key, nickname, member.userId, now),
			db.prepare('UPDATE members SET nickname = ?3 WHERE id = ?1 AND channel_id = ?2').bind(member.userId, channelId, nickname),
			bumpContentVersion(db, channelId),
		]);
	} catch (error) {
		if (isUniqueViolation(error)) throw new AppError('NicknameTaken');
		throw error;
	}
	return nickname;
}

/**
 * Withdraws a member for good: the identity is unlinked from the channel (a later sign-in starts
 * a new membership), the nickname is retired, sessions and drafts are deleted; posts and comments
 * stay and show the withdrawn-member label.
 */
export async function withdrawMember(db: D1Database, channelId: number, memberId: number, now = Date.now()): Promise<void> {
	await db.batch([
		db.prepare('UPDATE members SET identity_id = NULL, nickname = NULL, withdrawn_at = ?3 WHERE id = ?1 AND channel_id = ?2').bind(memberId, channelId, now),
		db.prepare('UPDATE nickname_claims SET released_at = ?3 WHERE channel_id = ?1 AND member_id = ?2 AND released_at IS NULL').bind(channelId, memberId, now),
		db.prepare('DELETE FROM drafts WHERE member_id = ?1').bind(memberId),
		endMemberSessions(db, memberId),
		bumpContentVersion(db, channelId),
	]);
}
