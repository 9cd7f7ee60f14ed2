/**
 * Signing in with a provider, and the sign-up that follows a first sign-in. An identity is global
 * and keyed by (provider, subject), never by email, so two providers never merge; a membership
 * (nickname, join date, bans, withdrawal) belongs to one channel. No member exists until the terms
 * are agreed and a nickname is chosen: then the membership, its nickname claim and its session
 * are created in one D1 batch.
 */
import { AppError } from '@/server/platform/errors';
import { newSession } from '@/server/sign-in/sessions';
import { hashToken, randomToken } from '@/server/platform/tokens';
import type { Provider } from '@/schemas/channel';
import { brokenUniqueRule, checkedNickname, nicknameConflict, nicknameForms } from './nickname';
import { newMemberSearchStatement } from '@/server/search-index/search-index';
import { newIdSql } from '@/server/databases/ids';

/** How long a sign-up may stay between the provider's return and the chosen nickname. */
const SIGNUP_TTL_MS = 30 * 60 * 1000;

export type SignInOutcome =
	| { kind: 'member'; memberId: number; sessionToken: string; maxAgeSeconds: number }
	| { kind: 'signup'; signupToken: string };

/**
 * The provider vouched for `identity`: a member of the channel gets a new session (minted with the
 * deployment's `secret`); an identity without a membership gets a sign-up in progress. The identity
 * is global: written in the directory (its id is the directory's), and copied, insert-or-ignore,
 * into the community's database beside what refers to it (docs/reference/databases.md); when the
 * community lives in the directory (or one Db is given, as for both), the copy is the same row and
 * changes nothing.
 */
export async function signInIdentity(
	databases: Db | { directory: Db; community: Db },
	channelId: number,
	identity: { provider: Provider; subject: string },
	redirectUrl: string,
	secret: string,
	now = Date.now(),
): Promise<SignInOutcome> {
	const { directory, community: db } = 'directory' in databases ? databases : { directory: databases, community: databases };
	const stored = await directory
		.prepare(
			'INSERT INTO identities (provider, subject, created_at) VALUES (?1, ?2, ?3) ON CONFLICT (provider, subject) DO UPDATE SET provider = excluded.provider RETURNING id, created_at',
		)
		.bind(identity.provider, identity.subject, now)
		.first<{ id: number; created_at: number }>();
	if (!stored) throw new Error('The identity was not stored');
	const [, found] = await db.batch<{ id: number }>([
		db
			.prepare('INSERT INTO identities (id, provider, subject, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING')
			.bind(stored.id, identity.provider, identity.subject, stored.created_at),
		db.prepare('SELECT id FROM members WHERE channel_id = ?1 AND identity_id = ?2').bind(channelId, stored.id),
	]);
	const member = found?.results[0];
	if (member) {
		const session = await newSession(db, channelId, member.id, secret, now);
		await db.batch([db.prepare('UPDATE members SET recent_provider = ?2 WHERE id = ?1').bind(member.id, identity.provider), ...session.statements]);
		return { kind: 'member', memberId: member.id, sessionToken: session.token, maxAgeSeconds: session.maxAgeSeconds };
	}
	const signupToken = randomToken();
	await db.batch([
		db.prepare('DELETE FROM signups WHERE expires_at <= ?1').bind(now),
		db
			.prepare(
				'INSERT INTO signups (token_hash, channel_id, identity_id, provider, redirect_url, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)',
			)
			.bind(await hashToken(signupToken), channelId, stored.id, identity.provider, redirectUrl, now, now + SIGNUP_TTL_MS),
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
export async function findSignup(db: Db, channelId: number, token: string | null, now = Date.now()): Promise<Signup | null> {
	if (!token) return null;
	const tokenHash = await hashToken(token);
	const row = await db
		.prepare(
			'SELECT identity_id, provider, redirect_url, terms_agreed_at, privacy_agreed_at FROM signups WHERE token_hash = ?1 AND channel_id = ?2 AND expires_at > ?3',
		)
		.bind(tokenHash, channelId, now)
		.first<{ identity_id: number; provider: Provider; redirect_url: string; terms_agreed_at: number | null; privacy_agreed_at: number | null }>();
	if (!row) return null;
	return {
		tokenHash,
		identityId: row.identity_id,
		provider: row.provider,
		redirectUrl: row.redirect_url,
		termsAgreed: row.terms_agreed_at !== null && row.privacy_agreed_at !== null,
	};
}

/** Records the agreement to the service terms and the personal-information collection. */
export async function agreeToTerms(db: Db, signup: Signup, now = Date.now()): Promise<void> {
	await db.prepare('UPDATE signups SET terms_agreed_at = ?2, privacy_agreed_at = ?2 WHERE token_hash = ?1').bind(signup.tokenHash, now).run();
}

/**
 * Finishes a sign-up: creates the membership with its nickname and agreements and signs it in.
 * Two sign-ups of one identity racing each other (two tabs) leave one membership with one active
 * nickname: the loser's batch breaks a uniqueness rule and changes nothing.
 * A claimed nickname breaks a uniqueness rule of the batch too, so the batch is all an accepted
 * sign-up takes, and a refused one reads the claims after it, to say NicknameTaken first as ever.
 * With Turnstile, `verifyChallenge` checks the person's token first (ChallengeFailed), after the
 * claims are read: a refused nickname must not spend the token (docs/reference/spam-defence.md).
 * @throws AppError TermsRequired, a nickname code, ChallengeFailed, NicknameTaken when another member won the name,
 * Conflict when the identity became a member meanwhile, SignupExpired when the sign-up is gone
 */
export async function completeSignup(
	db: Db,
	channelId: number,
	signup: Signup,
	input: string,
	secret: string,
	now = Date.now(),
	verifyChallenge: (() => Promise<void>) | null = null,
) {
	if (!signup.termsAgreed) throw new AppError('TermsRequired');
	const nickname = checkedNickname(input);
	const forms = nicknameForms(nickname);
	const refuseClaimed = async () => {
		const conflict = await nicknameConflict(db, channelId, forms, null);
		if (conflict) throw new AppError(conflict);
	};
	if (verifyChallenge) {
		await refuseClaimed();
		// Last before the batch, so that a refused nickname does not spend the token (docs/reference/spam-defence.md).
		await verifyChallenge();
	}
	// A passed check is recorded on the new session: its write screen does not ask again (docs/reference/spam-defence.md).
	const session = await newSession(db, channelId, { identityId: signup.identityId }, secret, now, verifyChallenge !== null);
	const results = await db
		.batch([
			db
				.prepare(
					`INSERT INTO members (id, channel_id, identity_id, nickname, role, provider, recent_provider, joined_at, terms_agreed_at, privacy_agreed_at)
					 SELECT ${newIdSql('members', '?1')}, ?1, identity_id, ?2, 'MEMBER', provider, provider, ?3, terms_agreed_at, privacy_agreed_at FROM signups WHERE token_hash = ?4
					 RETURNING id`,
				)
				.bind(channelId, nickname, now, signup.tokenHash),
			db
				.prepare(
					`INSERT INTO nickname_claims (channel_id, nickname_key, nickname_skeleton, nickname_bare_skeleton, nickname, member_id, claimed_at)
					 SELECT ?1, ?2, ?6, ?7, ?3, id, ?5 FROM members WHERE channel_id = ?1 AND identity_id = ?4`,
				)
				.bind(channelId, forms.key, nickname, signup.identityId, now, forms.skeleton, forms.bareSkeleton),
			newMemberSearchStatement(db, channelId, signup.identityId, nickname),
			...session.statements,
			db.prepare('DELETE FROM signups WHERE token_hash = ?1').bind(signup.tokenHash),
		])
		.catch(async (error: unknown) => {
			const rule = brokenUniqueRule(error);
			const expired = error instanceof Error && /NOT NULL constraint failed: sessions\.member_id/i.test(error.message);
			// The claims were not read before the batch: a claimed nickname is the first refusal.
			if (!verifyChallenge && (rule !== null || expired)) await refuseClaimed();
			if (rule === 'nickname') throw new AppError('NicknameTaken');
			if (rule === 'membership' || rule === 'active-claim')
				throw new AppError('Conflict', 'You are already a member of this community. Please log in again.');
			// The sign-up ran out between reading it and this batch: no member, so no session could be stored.
			if (expired) throw new AppError('SignupExpired');
			throw error;
		});
	const memberId = (results[0]?.results[0] as { id: number } | undefined)?.id;
	if (memberId === undefined) throw new AppError('SignupExpired');
	return { memberId, nickname, sessionToken: session.token, maxAgeSeconds: session.maxAgeSeconds, redirectUrl: signup.redirectUrl };
}
