/**
 * Email for replies and mentions (docs/notifications.md#email): off by default, and only to an
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
 *   turns email off for that member while that address is theirs.
 * - After each queue message, `emailDelivered` sends one email for each REPLY or MENTION row the
 *   batch just wrote to a member with a confirmed address: its sentence as the subject, the post's
 *   title, the comment's opening words, a link to it, and the unsubscribe link; in the community's
 *   language; at most EMAILS_PER_MESSAGE a message. A failure is logged and not retried (the row
 *   is written; the bell shows it).
 * - At most EMAILS_PER_HOUR of those a member in an hour that starts with the first (a count and
 *   the hour's start in the member's own row): the rest are held back, and once the hour is over
 *   the hourly cron sends one digest ("N more replies and mentions", a link to the notifications)
 *   and the count starts again. So one member's inbox gets at most EMAILS_PER_HOUR + 1 emails an
 *   hour of a community, however many senders; each sender can add at most
 *   SENDER_NOTIFICATIONS_PER_HOUR of them (deliver.ts).
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
import { base64url, fromBase64url, hmacKey } from '@/server/sign-in/session-token';
import { translator } from '@/i18n';
import type { Language } from '@/schemas/channel';
import { pluralForm } from '@/lib/plural';
import { EMAILS_PER_HOUR, NOTIFICATION_WINDOW_MS, type NotificationKind } from '@/lib/notification-kinds';
import { notificationPath, notificationSentence, type MentionContext } from '@/server/notifications/notification-text';
import { mentionInSql } from './notifications';
import { excerpt, storedText } from '@/server/platform/excerpt';
import { AppError, type ResultCodeName } from '@/server/platform/errors';
import { requireSessionSecret, sessionSecret } from '@/server/sign-in/session-secret';
import { memberIdSql, memberIdValue, type MemberRef } from '@/server/sign-in/member-ref';
import { mailerFromEnv, type Mailer, type MailMessage } from './mailer';

/** The kinds that are emailed. */
const EMAILED_KINDS = ['REPLY', 'MENTION'] as const satisfies readonly NotificationKind[];
/** Confirmation emails one member may have sent in 24 hours. */
export const CONFIRMATIONS_PER_DAY = 3;
/** How long a confirmation link is good for, and the window the confirmations are counted in. */
export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;
/** The most notification emails one queue message sends. */
const EMAILS_PER_MESSAGE = 50;
/** RFC 5321's longest path, less its angle brackets. */
export const ADDRESS_MAX = 254;
/** How much of a comment an email quotes (graphemes). */
const EXCERPT_LENGTH = 200;

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

// --- Tokens ----------------------------------------------------------------------------------

const encoder = new TextEncoder();
/** The first 16 bytes of the address's SHA-256, base64url (22 characters): names it in a link without showing it. */
async function addressHash(address: string): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(address)));
	return base64url(digest.slice(0, 16));
}

async function mac(secret: string, text: string): Promise<string> {
	return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(text))));
}

/** Whether `macText` is the HMAC of `text` (compared by WebCrypto, in time independent of where it differs). */
async function verifies(secret: string, macText: string, text: string): Promise<boolean> {
	const bytes = fromBase64url(macText);
	return bytes !== null && crypto.subtle.verify('HMAC', await hmacKey(secret), bytes, encoder.encode(text));
}

const confirmText = (memberId: number, expires: number, hash: string) => `email-confirm:${memberId}:${expires}:${hash}`;
const unsubscribeText = (memberId: number, hash: string) => `email-unsubscribe:${memberId}:${hash}`;

const CONFIRM_TOKEN = /^([1-9]\d{0,14})\.([1-9]\d{0,14})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const UNSUBSCRIBE_TOKEN = /^([1-9]\d{0,14})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

async function confirmToken(secret: string, memberId: number, address: string, expires: number): Promise<string> {
	const hash = await addressHash(address);
	return `${memberId}.${expires}.${hash}.${await mac(secret, confirmText(memberId, expires, hash))}`;
}

export async function unsubscribeToken(secret: string, memberId: number, address: string): Promise<string> {
	const hash = await addressHash(address);
	return `${memberId}.${hash}.${await mac(secret, unsubscribeText(memberId, hash))}`;
}

export type LinkCheck = { kind: 'valid'; memberId: number; hash: string } | { kind: 'expired' } | { kind: 'invalid' };

/** What a confirmation link's token is, by its signature and expiry alone (no D1): for the page's GET, and before the POST reads D1. */
export async function checkConfirmToken(token: string, now: number, secret: string | null = sessionSecret()): Promise<LinkCheck> {
	const match = CONFIRM_TOKEN.exec(token);
	if (!match || !secret) return { kind: 'invalid' };
	const [, member, expiresText, hash, macText] = match as unknown as [string, string, string, string, string];
	const memberId = Number(member);
	const expires = Number(expiresText);
	if (!(await verifies(secret, macText, confirmText(memberId, expires, hash)))) return { kind: 'invalid' };
	return expires <= now ? { kind: 'expired' } : { kind: 'valid', memberId, hash };
}

/** What an unsubscribe link's token is, by its signature alone (no D1). */
export async function checkUnsubscribeToken(token: string, secret: string | null = sessionSecret()): Promise<LinkCheck> {
	const match = UNSUBSCRIBE_TOKEN.exec(token);
	if (!match || !secret) return { kind: 'invalid' };
	const [, member, hash, macText] = match as unknown as [string, string, string, string];
	const memberId = Number(member);
	if (!(await verifies(secret, macText, unsubscribeText(memberId, hash)))) return { kind: 'invalid' };
	return { kind: 'valid', memberId, hash };
}

// --- A link's outcome ------------------------------------------------------------------------

/** The two pages of our links. */
export type LinkPage = 'confirm' | 'unsubscribe';
/** How long the page after a link's button says how it went (a reload within it says it again). */
export const OUTCOME_TTL_MS = 10 * 60 * 1000;
const OUTCOME = /^(done|expired|invalid)\.([1-9]\d{0,14})\.([A-Za-z0-9_-]{43})$/;
const outcomeText = (page: LinkPage, channelId: number, outcome: LinkOutcome, expires: number) =>
	`email-outcome:${page}:${channelId}:${outcome}:${expires}`;

/**
 * The `?result=` a link's POST sends the browser back to its page with: `{outcome}.{expiry}.{HMAC}`
 * under SESSION_SECRET, for that page of that community, good for OUTCOME_TTL_MS; null without a
 * secret. The page says "confirmed" or "unsubscribed" only when verifiedOutcome accepts it, so a link
 * another site wrote (`?result=done`) cannot make it say so.
 */
export async function signedOutcome(
	page: LinkPage,
	channelId: number,
	outcome: LinkOutcome,
	now: number,
	secret: string | null = sessionSecret(),
): Promise<string | null> {
	if (!secret) return null;
	const expires = now + OUTCOME_TTL_MS;
	return `${outcome}.${expires}.${await mac(secret, outcomeText(page, channelId, outcome, expires))}`;
}

/** The outcome a `?result=` value proves for the page, or null: missing, forged, altered, another page's or community's, expired. */
export async function verifiedOutcome(
	value: string | null,
	page: LinkPage,
	channelId: number,
	now: number,
	secret: string | null = sessionSecret(),
): Promise<LinkOutcome | null> {
	const match = OUTCOME.exec(value ?? '');
	if (!match || !secret) return null;
	const [, outcome, expiresText, macText] = match as unknown as [string, LinkOutcome, string, string];
	const expires = Number(expiresText);
	if (expires <= now || expires > now + OUTCOME_TTL_MS) return null;
	return (await verifies(secret, macText, outcomeText(page, channelId, outcome, expires))) ? outcome : null;
}

// --- Links -----------------------------------------------------------------------------------

/** The paths of the two links under a community. */
export const emailLinkPaths = (basePath: string) => ({ confirm: `${basePath}/email/confirm`, unsubscribe: `${basePath}/email/unsubscribe` });

function linkUrl(origin: string, path: string, token: string): string {
	const url = new URL(path, `${origin}/`);
	url.searchParams.set('token', token);
	return url.href;
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
export function emailSettingStatement(db: D1Database, who: MemberRef): D1PreparedStatement {
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
export async function emailSetting(db: D1Database, memberId: number): Promise<EmailSetting> {
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
	db: D1Database,
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

/** How a link ended: done, or why not. */
export type LinkOutcome = 'done' | 'expired' | 'invalid';

/**
 * Confirms the pending address a confirmation link names (the page's POST). Following the link of
 * an address already confirmed is done again; one of an address replaced since is invalid.
 */
export async function confirmNotificationEmail(db: D1Database, channelId: number, token: string, now: number): Promise<LinkOutcome> {
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
export async function turnOffEmail(db: D1Database, memberId: number): Promise<EmailSetting> {
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
export async function unsubscribeByToken(db: D1Database, channelId: number, token: string): Promise<LinkOutcome> {
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

interface EmailRow {
	id: number;
	kind: NotificationKind;
	member_id: number;
	address: string;
	post_id: number | null;
	comment_id: number | null;
	actor_id: number | null;
	actor: string | null;
	domain: string;
	slug: string;
	language: Language;
	channel_title: string;
	post_title: string | null;
	comment_content: string | null;
	mention_in: MentionContext;
}

/** A small HTML body: paragraphs of text and links, every value escaped. */
function htmlOf(parts: (string | { href: string; label?: string } | null)[], language: Language): string {
	const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
	const body = parts
		.filter((part) => part !== null)
		.map((part) =>
			typeof part === 'string'
				? `<p>${escape(part).replace(/\n/g, '<br>')}</p>`
				: `<p><a href="${escape(part.href)}">${escape(part.label ?? part.href)}</a></p>`,
		)
		.join('\n');
	return `<!doctype html><html lang="${language === 'zh' ? 'zh-Hant' : language}"><meta charset="utf-8"><body>\n${body}\n</body></html>`;
}

/** Who an email goes to, and the community it is from. */
interface Recipient {
	member_id: number;
	address: string;
	domain: string;
	slug: string;
	language: Language;
	channel_title: string;
}

/**
 * An email to `to` in its community's language: `lines` (null left out; '' a blank line of the
 * text), the link `open`, and the footer every notification email carries (why it came, the
 * unsubscribe link, RFC 8058's headers).
 */
async function composeEmail(
	to: Recipient,
	origin: string,
	secret: string,
	subject: string,
	lines: (string | null)[],
	open: { href: string; label: string },
): Promise<MailMessage> {
	const t = translator(to.language);
	const base = `/${to.domain}/${to.slug}`;
	const unsubscribe = linkUrl(origin, emailLinkPaths(base).unsubscribe, await unsubscribeToken(secret, to.member_id, to.address));
	const why = t('email.notification.why', { title: to.channel_title });
	const shown = lines.filter((line) => line !== null);
	const text = [...shown, '', open.label, open.href, '', '-- ', why, t('email.notification.unsubscribe'), unsubscribe].join('\n');
	const paragraphs = shown.filter((line) => line !== '');
	const html = htmlOf([...paragraphs, open, why, { href: unsubscribe, label: t('email.notification.unsubscribe') }], to.language);
	return {
		to: to.address,
		subject,
		text,
		html,
		headers: {
			'List-Unsubscribe': `<${unsubscribe}>`,
			'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
			'Auto-Submitted': 'auto-generated',
		},
		fromName: to.channel_title,
	};
}

/** One notification email. */
function notificationEmail(row: EmailRow, origin: string, secret: string): Promise<MailMessage> {
	const t = translator(row.language);
	const base = `/${row.domain}/${row.slug}`;
	const sentence = notificationSentence(
		{
			kind: row.kind,
			actor: row.actor_id === null ? undefined : row.actor,
			others: 0,
			target: row.comment_id !== null ? 'COMMENT' : row.post_id !== null ? 'POST' : null,
			endsAt: null,
			mentionIn: row.mention_in,
		},
		t,
		row.language,
	);
	const open = {
		href: new URL(notificationPath(base, row.post_id, row.comment_id) ?? `${base}/mypage/notifications`, `${origin}/`).href,
		label: t('email.notification.open'),
	};
	const quote = row.comment_content === null ? null : `“${excerpt(storedText(row.comment_content), EXCERPT_LENGTH)}”`;
	// The text has a blank line between the sentence and the post's title (the HTML has paragraphs).
	return composeEmail(row, origin, secret, sentence, [sentence, '', row.post_title, quote], open);
}

/** The UPDATE that counts `?3` more emails against member ?1's hour at ?2, and answers the hour's count. */
const COUNT_EMAILS = `UPDATE members SET
		notification_emails_count = CASE WHEN notification_emails_window > ?2 - ${NOTIFICATION_WINDOW_MS} OR notification_emails_count > ${EMAILS_PER_HOUR}
			THEN notification_emails_count + ?3 ELSE ?3 END,
		notification_emails_window = CASE WHEN notification_emails_window > ?2 - ${NOTIFICATION_WINDOW_MS} OR notification_emails_count > ${EMAILS_PER_HOUR}
			THEN notification_emails_window ELSE ?2 END
	WHERE id = ?1 RETURNING notification_emails_count AS count`;

/**
 * The rows of `rows` that may be emailed now: each member's are counted against their hour (one
 * statement a member, in one batch), and those past EMAILS_PER_HOUR wait for the digest. An hour
 * that ended with emails held back is not started again until the digest took them (the later ones
 * join it).
 */
async function withinBudget(db: D1Database, rows: readonly EmailRow[], now: number): Promise<EmailRow[]> {
	const asked = new Map<number, number>();
	for (const row of rows) asked.set(row.member_id, (asked.get(row.member_id) ?? 0) + 1);
	const members = [...asked];
	const counted = await db.batch(members.map(([memberId, count]) => db.prepare(COUNT_EMAILS).bind(memberId, now, count)));
	const room = new Map(
		members.map(([memberId, count], i) => {
			const total = (counted[i]?.results[0] as { count: number } | undefined)?.count ?? 0;
			return [memberId, Math.max(0, Math.min(count, EMAILS_PER_HOUR - (total - count)))];
		}),
	);
	return rows.filter((row) => {
		const left = room.get(row.member_id) ?? 0;
		room.set(row.member_id, left - 1);
		return left > 0;
	});
}

/** Sends `messages`, logging each that failed; answers how many went. */
async function sendAll(mailer: Mailer, messages: Promise<MailMessage>[], what: (i: number) => string): Promise<number> {
	const outcomes = await Promise.allSettled(messages.map(async (message) => mailer.send(await message)));
	outcomes.forEach((outcome, i) => {
		if (outcome.status === 'rejected') console.warn(`Email of ${what(i)} failed`, outcome.reason);
	});
	return outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
}

/**
 * Emails the REPLY and MENTION notifications of `keys` to `recipients` that the batch at `now`
 * wrote, to the members with a confirmed address, at most EMAILS_PER_HOUR a member an hour (the
 * rest go in one digest, sendEmailDigests). Returns how many emails were sent.
 */
export async function emailDelivered(
	db: D1Database,
	recipients: readonly number[],
	keys: readonly string[],
	now: number,
	setup: EmailSetup,
): Promise<number> {
	if (recipients.length === 0 || keys.length === 0) return 0;
	const { results } = await db
		.prepare(
			`SELECT n.id, n.kind, n.member_id, m.notification_email AS address, n.post_id, n.comment_id, n.actor_id, a.nickname AS actor,
				${mentionInSql('n', 'k', 'p')} AS mention_in,
				c.domain, c.slug, c.language, c.title AS channel_title, p.title AS post_title, k.content AS comment_content
			 FROM notifications n JOIN members m ON m.id = n.member_id JOIN channels c ON c.id = n.channel_id
			 LEFT JOIN members a ON a.id = n.actor_id LEFT JOIN posts p ON p.id = n.post_id LEFT JOIN comments k ON k.id = n.comment_id
			 WHERE n.member_id IN (SELECT value FROM json_each(?1)) AND n.dedupe_key IN (SELECT value FROM json_each(?2)) AND n.updated_at = ?3
				AND n.kind IN (SELECT value FROM json_each(?4)) AND m.notification_email IS NOT NULL
			 ORDER BY n.id LIMIT ${EMAILS_PER_MESSAGE}`,
		)
		.bind(JSON.stringify(recipients), JSON.stringify(keys), now, JSON.stringify(EMAILED_KINDS))
		.all<EmailRow>();
	if (results.length === 0) return 0;
	const secret = requireSessionSecret();
	const sending = await withinBudget(db, results, now);
	return sendAll(
		setup.mailer,
		sending.map((row) => notificationEmail(row, setup.origin, secret)),
		(i) => `notification ${sending[i]?.id}`,
	);
}

/** The members owed a digest at ?1 (their hour over, emails held back), the oldest hour first, at most ?2: by members_email_digest_due. */
const DIGESTS_DUE = `SELECT id FROM members WHERE notification_emails_count > ${EMAILS_PER_HOUR} AND notification_emails_window <= ?1 - ${NOTIFICATION_WINDOW_MS}
	ORDER BY notification_emails_window, id LIMIT ?2`;

/**
 * The hourly cron's part: one digest email to each member whose hour is over with emails held
 * back ("N more replies and mentions", a link to their notifications), and their count starts
 * again. At most `limit` members a run (the next run goes on). Returns how many digests were sent.
 */
export async function sendEmailDigests(db: D1Database, setup: EmailSetup, now: number, limit = 100): Promise<number> {
	// One batch: what the digests say, then the counts taken (the same members: one transaction).
	const [found, taken] = await db.batch([
		db
			.prepare(
				`SELECT m.id AS member_id, m.notification_email AS address, m.notification_emails_count - ${EMAILS_PER_HOUR} AS held,
					c.domain, c.slug, c.language, c.title AS channel_title
				 FROM members m JOIN channels c ON c.id = m.channel_id WHERE m.id IN (${DIGESTS_DUE})`,
			)
			.bind(now, limit),
		db
			.prepare(`UPDATE members SET notification_emails_count = 0, notification_emails_window = 0 WHERE id IN (${DIGESTS_DUE}) RETURNING id`)
			.bind(now, limit),
	]);
	const ours = new Set(((taken?.results ?? []) as { id: number }[]).map((row) => row.id));
	// A member who turned email off (or withdrew) since has no address: the count is reset, nothing is sent.
	const due = ((found?.results ?? []) as (Recipient & { address: string | null; held: number })[]).filter(
		(row): row is Recipient & { held: number } => ours.has(row.member_id) && row.address !== null,
	);
	if (due.length === 0) return 0;
	const secret = requireSessionSecret();
	return sendAll(
		setup.mailer,
		due.map((row) => {
			const t = translator(row.language);
			const subject = t(`email.digest.subject.${pluralForm(row.language, row.held)}`, { count: row.held, title: row.channel_title });
			const open = { href: new URL(`/${row.domain}/${row.slug}/mypage/notifications`, `${setup.origin}/`).href, label: t('email.digest.open') };
			return composeEmail(row, setup.origin, secret, subject, [t('email.digest.body', { title: row.channel_title })], open);
		}),
		(i) => `the digest of member ${due[i]?.member_id}`,
	);
}
