/**
 * Email for replies and mentions (docs/reference/notifications.md#email): off by default, and only to an
 * address the member confirmed. No sign-in provider tells us an address (Apple, Google and X
 * sign-ins give a subject alone), so the member types one in My Page → Settings; a confirmation
 * link goes there first (double opt-in), and until it is followed nothing else is sent to it.
 *
 * - Setting an address stores it as pending (members.notification_email_pending, migration 0026)
 *   and sends one confirmation email. The address that was confirmed before keeps getting email
 *   until the new one is confirmed (or the member turns email off).
 * - The confirmation link (`/{domain}/{slug}/email/confirm?token=…`) is good for 24 hours, for that
 *   member and that address: the token is `{member}.{expiry}.{address hash}.{HMAC}` under
 *   SESSION_SECRET, so a forged or altered one is refused without asking D1, and a link to an
 *   address the member replaced since confirms nothing. Its page only shows a button; the POST
 *   confirms (mail scanners open links, and a GET must not change anything).
 * - Every notification email carries an unsubscribe link and RFC 8058's one-click headers
 *   (`List-Unsubscribe: <https://…/email/unsubscribe?token=…>`, `List-Unsubscribe-Post:
 *   List-Unsubscribe=One-Click`). That token, `{member}.{address hash}.{HMAC}`, does not expire: it
 *   turns email off for that member while that address is theirs. The tokens, the signed outcome
 *   and the links are ./email-links.ts.
 * - Notification emails and the hourly digest are ./email-sending.ts.
 *
 * No email goes out without SITE_ORIGIN, a confirmation included: every link in an email is built on
 * it, never on the Host a request named (emailOfferFromEnv).
 *
 * Abuse: a member could make the site mail a stranger. Each member has at most
 * CONFIRMATIONS_PER_DAY confirmation emails in 24 hours, counted in their own row (no rows grow),
 * and a confirmation email says to ignore it if it was not asked for; nothing else ever goes to an
 * unconfirmed address. The worst case is therefore one person's sign-ups: 20 fresh accounts (sign-up
 * is rate-limited per address and challenged by Turnstile) × 3 = 60 confirmation emails a day to
 * one victim, each naming the community and carrying no text of the sender's.
 *
 * Addresses accepted: a dot-atom local part (no quoted strings, no comments) and a domain of ASCII
 * labels (an internationalised domain in its xn-- form), at most 254 characters; the domain is
 * lower-cased, the local part kept as written.
 */
import { translator } from '@/i18n';
import type { Language } from '@/schemas/channel';
import { AppError, type ResultCodeName } from '@/server/platform/errors';
import { requireSessionSecret } from '@/server/sign-in/session-secret';
import { memberIdSql, memberIdValue, type MemberRef } from '@/server/sign-in/member-ref';
import {
	addressHash,
	checkConfirmToken,
	checkUnsubscribeToken,
	confirmToken,
	emailLinkPaths,
	htmlOf,
	linkUrl,
	type LinkOutcome,
} from './email-links';
import { mailerFromEnv, type Mailer } from './mailer';

/** Confirmation emails one member may have sent in 24 hours. */
export const CONFIRMATIONS_PER_DAY = 3;
/** How long a confirmation link is good for, and the window the confirmations are counted in. */
export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;
/** RFC 5321's longest path, less its angle brackets. */
export const ADDRESS_MAX = 254;

/** The catalogue codes of this service's refusals. */
const REFUSALS = {
	/** No mailer configured. */
	unavailable: 'EmailUnavailable',
	/** Not an address we send to. */
	address: 'EmailAddressInvalid',
	/** Past CONFIRMATIONS_PER_DAY. */
	limit: 'EmailConfirmationLimit',
} as const satisfies Record<string, ResultCodeName>;

// --- Addresses -------------------------------------------------------------------------------

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** `input` as the address we store (the domain lower-cased), or null when we do not send to it. */
export function normalizeEmailAddress(input: string): string | null {
	const value = input.trim();
	if (value.length === 0 || value.length > ADDRESS_MAX) return null;
	const at = value.lastIndexOf('@');
	if (at <= 0) return null;
	const local = value.slice(0, at);
	const domain = value.slice(at + 1).toLowerCase();
	if (local.length > 64 || !LOCAL_PART.test(local)) return null;
	const labels = domain.split('.');
	if (domain.length > 253 || labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return null;
	// A top-level domain is never all digits (that would be an IP address).
	if (/^\d+$/.test(labels.at(-1)!)) return null;
	return `${local}@${domain}`;
}

/** The origin absolute links in a queue-sent email use: SITE_ORIGIN, or null when it is not a usable origin. */
function configuredSiteOrigin(configured: unknown): string | null {
	if (typeof configured !== 'string' || configured.trim() === '') return null;
	const url = URL.parse(configured.trim());
	if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
	return url.origin;
}

/** What sending an email needs: a mailer and the site's origin, which every link in an email is built on. */
export interface EmailSetup {
	mailer: Mailer;
	origin: string;
}

/**
 * Whether the deployment emails members: `on` with its setup; `off` without a mailer (email is not
 * offered at all); `noSiteOrigin` with a mailer but without SITE_ORIGIN. Then nothing is sent, not
 * even a confirmation: its link would be built on whatever Host the request named, which anyone can
 * set, and the member is told in Settings why email is unavailable.
 */
export type EmailOffer = { kind: 'on'; setup: EmailSetup } | { kind: 'off' } | { kind: 'noSiteOrigin' };

let originMissingLogged = false;

/** The deployment's EmailOffer from the Worker's env (a missing SITE_ORIGIN is logged once). */
export function emailOfferFromEnv(env: object): EmailOffer {
	const mailer = mailerFromEnv(env);
	if (!mailer) return { kind: 'off' };
	const origin = configuredSiteOrigin((env as { SITE_ORIGIN?: unknown }).SITE_ORIGIN);
	if (!origin) {
		if (!originMissingLogged) console.warn('Email is configured but SITE_ORIGIN is not: no email is sent (their links need it)');
		originMissingLogged = true;
		return { kind: 'noSiteOrigin' };
	}
	return { kind: 'on', setup: { mailer, origin } };
}

/** The deployment's email setup, or null when it sends no email (EmailOffer). */
export function emailSetupFromEnv(env: object): EmailSetup | null {
	const offer = emailOfferFromEnv(env);
	return offer.kind === 'on' ? offer.setup : null;
}

// --- The member's setting --------------------------------------------------------------------

export interface EmailSetting {
	/** Where notification emails go (confirmed); null: off. */
	address: string | null;
	/** An address waiting for its confirmation. */
	pending: string | null;
}

/** The read of the member's email setting (emailSettingOf reads its result); with a session's token, in the session's round trip. */
export function emailSettingStatement(db: Db, who: MemberRef): D1PreparedStatement {
	return db
		.prepare(`SELECT notification_email AS address, notification_email_pending AS pending FROM members WHERE id = ${memberIdSql(who, '?1')}`)
		.bind(memberIdValue(who));
}

/** The setting emailSettingStatement read. */
export function emailSettingOf(result: D1Result | undefined): EmailSetting {
	const row = result?.results[0] as EmailSetting | undefined;
	return { address: row?.address ?? null, pending: row?.pending ?? null };
}

/** The member's email setting. */
export async function emailSetting(db: Db, memberId: number): Promise<EmailSetting> {
	return emailSettingOf(await emailSettingStatement(db, memberId).all());
}

/** The community the email is about, as the confirmation email names it. */
export interface EmailChannel {
	id: number;
	basePath: string;
	title: string;
	language: Language;
}

/**
 * Stores `input` as the member's pending address and sends it a confirmation email with a link on
 * the setup's origin (SITE_ORIGIN, never the request's Host). An address that is already the
 * confirmed one sends nothing.
 * @throws AppError (REFUSALS) unavailable (no setup: no mailer or no SITE_ORIGIN), address (not one we send to), limit (CONFIRMATIONS_PER_DAY reached)
 */
export async function setNotificationEmail(
	db: Db,
	channel: EmailChannel,
	memberId: number,
	input: string,
	setup: EmailSetup | null,
	now: number,
): Promise<EmailSetting> {
	if (!setup) throw new AppError(REFUSALS.unavailable, 'Email is not set up for this community.');
	const address = normalizeEmailAddress(input);
	if (!address) throw new AppError(REFUSALS.address, 'The request has an invalid parameter: address.');
	// One batch: the address already confirmed only drops a pending one; another is counted and
	// stored as pending in one statement (or nothing when the count is full); then the confirmed one.
	const [, counted, stored] = await db.batch([
		db
			.prepare(
				'UPDATE members SET notification_email_pending = NULL WHERE id = ?1 AND notification_email = ?2 AND notification_email_pending IS NOT NULL',
			)
			.bind(memberId, address),
		db
			.prepare(
				`UPDATE members SET notification_email_pending = ?3,
					notification_email_sends = CASE WHEN notification_email_window > ?4 - ?5 THEN notification_email_sends + 1 ELSE 1 END,
					notification_email_window = CASE WHEN notification_email_window > ?4 - ?5 THEN notification_email_window ELSE ?4 END
				 WHERE id = ?1 AND channel_id = ?2 AND withdrawn_at IS NULL AND notification_email IS NOT ?3
					AND (notification_email_window <= ?4 - ?5 OR notification_email_sends < ?6)
				 RETURNING id`,
			)
			.bind(memberId, channel.id, address, now, CONFIRMATION_TTL_MS, CONFIRMATIONS_PER_DAY),
		db.prepare('SELECT notification_email AS address FROM members WHERE id = ?1').bind(memberId),
	]);
	const current = (stored?.results[0] as { address: string | null } | undefined)?.address ?? null;
	if (current === address) return { address, pending: null };
	if (!counted?.results.length) {
		throw new AppError(REFUSALS.limit, `A member can ask for ${CONFIRMATIONS_PER_DAY} confirmation emails a day. Please try again tomorrow.`);
	}
	const secret = requireSessionSecret();
	const link = linkUrl(
		setup.origin,
		emailLinkPaths(channel.basePath).confirm,
		await confirmToken(secret, memberId, address, now + CONFIRMATION_TTL_MS),
	);
	const t = translator(channel.language);
	const text = [t('email.confirm.body', { title: channel.title }), '', link, '', t('email.confirm.ignore')].join('\n');
	await setup.mailer.send({
		to: address,
		subject: t('email.confirm.subject', { title: channel.title }),
		text,
		html: htmlOf([t('email.confirm.body', { title: channel.title }), { href: link }, t('email.confirm.ignore')], channel.language),
		headers: { 'Auto-Submitted': 'auto-generated' },
		fromName: channel.title,
	});
	return { address: current, pending: address };
}

/**
 * Confirms the pending address a confirmation link names (the page's POST). Following the link of
 * an address already confirmed is done again; one of an address replaced since is invalid.
 */
export async function confirmNotificationEmail(db: Db, channelId: number, token: string, now: number): Promise<LinkOutcome> {
	const check = await checkConfirmToken(token, now);
	if (check.kind !== 'valid') return check.kind;
	const row = await db
		.prepare(
			'SELECT notification_email AS address, notification_email_pending AS pending FROM members WHERE id = ?1 AND channel_id = ?2 AND withdrawn_at IS NULL',
		)
		.bind(check.memberId, channelId)
		.first<EmailSetting>();
	if (!row) return 'invalid';
	if (row.pending !== null && (await addressHash(row.pending)) === check.hash) {
		const moved = await db
			.prepare(
				`UPDATE members SET notification_email = notification_email_pending, notification_email_pending = NULL, notification_email_confirmed_at = ?3
				 WHERE id = ?1 AND notification_email_pending = ?2 RETURNING id`,
			)
			.bind(check.memberId, row.pending, now)
			.first<{ id: number }>();
		return moved ? 'done' : 'invalid';
	}
	return row.address !== null && (await addressHash(row.address)) === check.hash ? 'done' : 'invalid';
}

/** Turns email off for the member: no address, nothing pending. */
export async function turnOffEmail(db: Db, memberId: number): Promise<EmailSetting> {
	await db
		.prepare('UPDATE members SET notification_email = NULL, notification_email_pending = NULL, notification_email_confirmed_at = NULL WHERE id = ?1')
		.bind(memberId)
		.run();
	return { address: null, pending: null };
}

/**
 * Turns email off by an unsubscribe link (the page's POST, or a mail client's one-click POST). A
 * link of an address that is no longer the member's is done already: nothing goes there.
 */
export async function unsubscribeByToken(db: Db, channelId: number, token: string): Promise<LinkOutcome> {
	const check = await checkUnsubscribeToken(token);
	if (check.kind !== 'valid') return check.kind;
	const row = await db
		.prepare('SELECT notification_email AS address FROM members WHERE id = ?1 AND channel_id = ?2')
		.bind(check.memberId, channelId)
		.first<{ address: string | null }>();
	if (!row) return 'invalid';
	if (row.address !== null && (await addressHash(row.address)) === check.hash) {
		await db
			.prepare('UPDATE members SET notification_email = NULL, notification_email_confirmed_at = NULL WHERE id = ?1 AND notification_email = ?2')
			.bind(check.memberId, row.address)
			.run();
	}
	return 'done';
}

// --- After a queue message -------------------------------------------------------------------
