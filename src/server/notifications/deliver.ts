/**
 * The notifications queue's consumer (docs/reference/notifications.md#the-queue): turns one message of
 * send.ts into notification rows. Per message, one read batch (what happened, who is concerned)
 * and one write batch (the rows), so a message is all or nothing.
 *
 * - Who is told: the post's author of a comment (COMMENT), the author of the comment a reply
 *   answers (REPLY; the post's author then gets the REPLY alone), the members the text mentions
 *   (MENTION, the first MENTIONS_NOTIFIED), the post's watchers (WATCHED_POST) and the board's
 *   (WATCHED_BOARD), a liked post's author (LIKE), a hidden or shown post's or comment's author
 *   (HIDDEN, SHOWN), a banned member (BAN, BAN_END). Never the one who did it, never a withdrawn
 *   member, never a banned one (but of their ban), never one who turned the kind off, and never one
 *   who may not read the post (a private board, a private post, a hidden one): the rule is SQL over
 *   the recipient's row inside the write batch, so it holds at the moment of writing.
 * - One notification per comment per recipient: a watcher, a replied-to author or the post's author
 *   told of the comment already for another reason (a mention, a reply) is not told again (the
 *   mention's text then says it is in a reply or on their post); a post's author watches it by
 *   default, and their COMMENT is that watch (unwatching stops it).
 * - Idempotent: each row's `dedupe_key` names the event, and the unread counter moves only when
 *   the row is new (or, for a like, when a new liker raises a read row again). A message delivered
 *   twice writes nothing the second time.
 * - Bounded: a message writes at most (1 + 1 + MENTIONS_NOTIFIED) recipients, or WATCHERS_PER_MESSAGE
 *   watchers, each one notification row and one members row (the counters); more watchers go on in
 *   a `watchers` message of their own (tests/workers/notifications.test.ts measures it).
 * - Bounded per recipient (docs/reference/notifications.md#bounds; tests/workers/notification-bounds.test.ts):
 *   one sender's MENTION and REPLY notifications to one member, SENDER_NOTIFICATIONS_PER_HOUR an
 *   hour (past it, none); a like's row is raised again at most once per LIKE_RAISE_INTERVAL_MS
 *   (a new liker within it is named, nothing more); an author's posts in one board tell its
 *   watchers BOARD_POSTS_NOTIFIED_PER_HOUR times an hour (later ones, nothing). Pushes and emails
 *   have bounds of their own (push-delivery.ts, email.ts).
 */
import { MESSAGE_VERSION, notify, type NotificationEvent } from './send';
import { pushDelivered } from './push-delivery';
import { publishNotifications } from '@/server/live/rooms';
import type { PushSetup } from './push';
import type { EmailSetup } from './email';
import { emailDelivered } from './email-sending';
import { deliveryStatements } from './delivery-rows';
import { banDelivery, plan } from './delivery-plans';

const EVENT_TYPES = new Set<string>(['comment', 'post', 'watchers', 'like', 'moderation', 'ban']);

/** The message's event, or null for a body this consumer does not know (logged and dropped: a retry would not help). */
export function eventOf(body: unknown): NotificationEvent | null {
	if (typeof body !== 'object' || body === null) return null;
	const { v, type, channelId } = body as { v?: unknown; type?: unknown; channelId?: unknown };
	if (v !== MESSAGE_VERSION || typeof type !== 'string' || !EVENT_TYPES.has(type) || !Number.isSafeInteger(channelId)) return null;
	return body as NotificationEvent;
}

/** What one message wrote: the notification and counter rows D1 counted, and whether more watchers follow. */
export interface Delivered {
	rowsWritten: number;
	continued: boolean;
	/** Web Push messages sent (push-delivery.ts). */
	pushed: number;
	/** Emails sent (email.ts). */
	emailed: number;
}

/**
 * Delivers one message: its reads, then its rows in one batch. A message that goes on with more
 * watchers is sent after the batch committed; delivered twice, the second sends it again and the
 * next page's rows are written once all the same.
 */
export async function deliver(
	db: Db,
	event: NotificationEvent,
	now: number,
	push: PushSetup | null = null,
	email: EmailSetup | null = null,
): Promise<Delivered> {
	const { deliveries, next, before = [] } = await plan(db, event);
	const statements = [...before, ...deliveries.flatMap((delivery) => deliveryStatements(db, event.channelId, delivery, now))];
	let rowsWritten = 0;
	let pushed = 0;
	let emailed = 0;
	if (statements.length > 0) {
		const results = await db.batch(statements);
		rowsWritten = results.reduce((sum, result) => sum + (result.meta.rows_written ?? 0), 0);
		// The bells of those whose unread count rose ask for it at once (src/server/live/rooms.ts), not at their next minute's poll.
		const counted = results.flatMap((result) => (result.results as { counted_member?: number }[]).flatMap((row) => row.counted_member ?? []));
		if (counted.length > 0) await publishNotifications(event.channelId, [...new Set(counted)]);
		// What the batch wrote goes to the members' browsers (Web Push, when the deployment has VAPID
		// keys) and, for replies and mentions, to the addresses they confirmed (email, when it has a mailer).
		if ((push || email) && rowsWritten > 0) {
			const recipients = [...new Set(deliveries.flatMap((delivery) => delivery.recipients))];
			const keys = [...new Set(deliveries.map((delivery) => delivery.key))];
			[pushed, emailed] = await Promise.all([
				push ? pushDelivered(db, recipients, keys, now, push) : 0,
				email ? emailDelivered(db, recipients, keys, now, email) : 0,
			]);
		}
	}
	if (next) notify(next);
	return { rowsWritten, continued: next !== null, pushed, emailed };
}

/** The notifications of temporary bans that ended (at most `limit` a run): the cron's part. */
export async function deliverEndedBans(db: Db, now: number, since: number, limit = 100): Promise<number> {
	const { results } = await db
		.prepare(
			`SELECT id, channel_id, member_id, ends_at FROM bans WHERE kind = 'TEMPORARY' AND lifted_at IS NULL AND ends_at > ?1 AND ends_at <= ?2
			 AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.member_id = bans.member_id AND n.dedupe_key = 'ban-end:' || bans.id) LIMIT ?3`,
		)
		.bind(since, now, limit)
		.all<{ id: number; channel_id: number; member_id: number; ends_at: number }>();
	const statements = results.flatMap((ban) => deliveryStatements(db, ban.channel_id, banDelivery(ban.id, ban.member_id, ban.ends_at, true), now));
	if (statements.length > 0) await db.batch(statements);
	return results.length;
}
