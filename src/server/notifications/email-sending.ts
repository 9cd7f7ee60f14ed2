/**
 * Notification emails, to the confirmed address of ./email.ts (docs/reference/notifications.md#email):
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
 */
import { translator } from '@/i18n';
import type { Language } from '@/schemas/channel';
import { pluralForm } from '@/lib/plural';
import { EMAILS_PER_HOUR, NOTIFICATION_WINDOW_MS, type NotificationKind } from '@/lib/notification-kinds';
import { notificationPath, notificationSentence, type MentionContext } from '@/server/notifications/notification-text';
import { mentionInSql } from './notifications';
import { excerpt, storedText } from '@/server/platform/excerpt';
import { requireSessionSecret } from '@/server/sign-in/session-secret';
import { emailLinkPaths, htmlOf, linkUrl, unsubscribeToken } from './email-links';
import type { EmailSetup } from './email';
import type { Mailer, MailMessage } from './mailer';

/** The kinds that are emailed. */
const EMAILED_KINDS = ['REPLY', 'MENTION'] as const satisfies readonly NotificationKind[];
/** The most notification emails one queue message sends. */
const EMAILS_PER_MESSAGE = 50;
/** How much of a comment an email quotes (graphemes). */
const EXCERPT_LENGTH = 200;

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
async function withinBudget(db: Db, rows: readonly EmailRow[], now: number): Promise<EmailRow[]> {
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
	db: Db,
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
export async function sendEmailDigests(db: Db, setup: EmailSetup, now: number, limit = 100): Promise<number> {
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
