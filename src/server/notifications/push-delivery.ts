/**
 * Web Push for what a queue message just wrote (docs/notifications.md#web-push): each new or raised
 * notification goes to every browser its member subscribed, as `{ title, body, url, tag }` (the
 * community's name, the sentence of the notifications page, the post opened at its comment) for
 * public/notification-sw.js to show. A subscription the push service calls gone (404, 410) is
 * deleted; another failure is logged and not retried: the notification row is written, and the
 * bell shows it. At most PUSHES_PER_MESSAGE pushes a message.
 *
 * Subscribing (POST …/push/subscriptions) keeps at most SUBSCRIPTIONS_KEPT browsers per member;
 * one endpoint belongs to one member (a browser that signs in as another member moves to them).
 */
import { translator } from '@/i18n';
import type { Language } from '@/schemas/channel';
import type { NotificationKind } from '@/lib/notification-kinds';
import { notificationPath, notificationSentence } from '@/lib/notification-text';
import { AppError } from '@/server/platform/errors';
import { pushEndpoint, sendWebPush, type VapidKeys } from './push';

/** The most browsers one member keeps subscribed; a new one past it replaces the oldest. */
const SUBSCRIPTIONS_KEPT = 10;
/** The most pushes one queue message sends. */
const PUSHES_PER_MESSAGE = 200;

interface PushRow {
	id: number;
	kind: NotificationKind;
	post_id: number | null;
	comment_id: number | null;
	actor_id: number | null;
	actor: string | null;
	like_count: number | null;
	ends_at: number | null;
	domain: string;
	slug: string;
	language: Language;
	channel_title: string;
	subscription: number;
	endpoint: string;
	p256dh: string;
	auth: string;
}

/**
 * Pushes the notifications of `keys` to `recipients` that the batch at `now` wrote or raised.
 * Returns how many pushes were sent.
 */
export async function pushDelivered(
	db: D1Database,
	recipients: readonly number[],
	keys: readonly string[],
	now: number,
	vapid: VapidKeys,
): Promise<number> {
	if (recipients.length === 0 || keys.length === 0) return 0;
	const { results } = await db
		.prepare(
			`SELECT n.id, n.kind, n.post_id, n.comment_id, n.actor_id, a.nickname AS actor, p.like_count, n.ends_at,
				c.domain, c.slug, c.language, c.title AS channel_title, s.id AS subscription, s.endpoint, s.p256dh, s.auth
			 FROM notifications n JOIN push_subscriptions s ON s.member_id = n.member_id JOIN channels c ON c.id = n.channel_id
			 LEFT JOIN members a ON a.id = n.actor_id LEFT JOIN posts p ON p.id = n.post_id
			 WHERE n.member_id IN (SELECT value FROM json_each(?1)) AND n.dedupe_key IN (SELECT value FROM json_each(?2)) AND n.updated_at = ?3
			 LIMIT ${PUSHES_PER_MESSAGE}`,
		)
		.bind(JSON.stringify(recipients), JSON.stringify(keys), now)
		.all<PushRow>();
	const outcomes = await Promise.all(
		results.map(async (row) => {
			const base = `/${row.domain}/${row.slug}`;
			const body = notificationSentence(
				{
					kind: row.kind,
					actor: row.actor_id === null ? undefined : row.actor,
					others: row.kind === 'LIKE' ? Math.max(0, (row.like_count ?? 1) - 1) : 0,
					target: row.comment_id !== null ? 'COMMENT' : row.post_id !== null ? 'POST' : null,
					endsAt: row.ends_at,
				},
				translator(row.language),
				row.language,
			);
			const url = notificationPath(base, row.post_id, row.comment_id) ?? `${base}/mypage/notifications`;
			const outcome = await sendWebPush(row, { title: row.channel_title, body, url, tag: `notification-${row.id}` }, vapid);
			return { row, outcome };
		}),
	);
	const gone = outcomes.filter(({ outcome }) => outcome.kind === 'gone').map(({ row }) => row.subscription);
	if (gone.length > 0) {
		await db.prepare('DELETE FROM push_subscriptions WHERE id IN (SELECT value FROM json_each(?1))').bind(JSON.stringify(gone)).run();
	}
	for (const { row, outcome } of outcomes) {
		if (outcome.kind === 'failed') console.warn(`Push to subscription ${row.subscription} failed (${outcome.status})`);
	}
	return outcomes.filter(({ outcome }) => outcome.kind === 'sent').length;
}

/** Subscribes this browser for the member. @throws AppError PushUnavailable (no VAPID keys), InvalidParameter (an endpoint we do not send to) */
export async function subscribePush(
	db: D1Database,
	memberId: number,
	subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
	vapid: VapidKeys | null,
	now: number,
): Promise<void> {
	if (!vapid) throw new AppError('PushUnavailable');
	if (!pushEndpoint(subscription.endpoint)) throw new AppError('InvalidParameter', 'The request has an invalid parameter: endpoint.');
	await db.batch([
		db
			.prepare(
				`INSERT INTO push_subscriptions (member_id, endpoint, p256dh, auth, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
				 ON CONFLICT (endpoint) DO UPDATE SET member_id = excluded.member_id, p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at`,
			)
			.bind(memberId, subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth, now),
		// The oldest past SUBSCRIPTIONS_KEPT go.
		db
			.prepare(
				`DELETE FROM push_subscriptions WHERE member_id = ?1 AND id NOT IN
				 (SELECT id FROM push_subscriptions WHERE member_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ${SUBSCRIPTIONS_KEPT})`,
			)
			.bind(memberId),
	]);
}

/** Unsubscribes this browser (the member's own subscription only). */
export async function unsubscribePush(db: D1Database, memberId: number, endpoint: string): Promise<void> {
	await db.prepare('DELETE FROM push_subscriptions WHERE member_id = ?1 AND endpoint = ?2').bind(memberId, endpoint).run();
}
