/**
 * Web Push for what a queue message just wrote (docs/reference/notifications.md#web-push): each new or raised
 * notification goes to every browser its member subscribed, as `{ title, body, url, tag }` (the
 * community's name, the sentence of the notifications page, the post opened at its comment) for
 * public/notification-sw.js to show. A subscription the push service calls gone (404, 410) is
 * deleted; another failure is logged and not retried: the notification row is written, and the
 * bell shows it. At most PUSHES_PER_MESSAGE pushes a message, and one a member per
 * PUSH_INTERVAL_MS: what comes in between is on the bell alone (a burst of replies is one push).
 *
 * Subscribing (POST …/push/subscriptions) takes only a push service's endpoint (push-services.ts)
 * and keeps at most SUBSCRIPTIONS_KEPT browsers per member; one endpoint belongs to one member, and
 * moves to another only with its `auth` secret (the same browser, signed in as someone else).
 */
import { translator } from '@/i18n';
import type { Language } from '@/schemas/channel';
import type { NotificationKind } from '@/lib/notification-kinds';
import { notificationPath, notificationSentence, type MentionContext } from '@/server/notifications/notification-text';
import { mentionInSql } from './notifications';
import { AppError } from '@/server/platform/errors';
import { PUSH_INTERVAL_MS } from '@/lib/notification-kinds';
import { sendWebPush, type PushOutcome, type PushSetup } from './push';
import { pushEndpoint } from './push-services';
import { newIdSql } from '@/server/databases/ids';

/** The most browsers one member keeps subscribed; a new one past it replaces the oldest. */
const SUBSCRIPTIONS_KEPT = 10;
/** The most pushes one queue message sends. */
const PUSHES_PER_MESSAGE = 200;

interface PushRow {
	id: number;
	member_id: number;
	kind: NotificationKind;
	post_id: number | null;
	comment_id: number | null;
	actor_id: number | null;
	actor: string | null;
	like_count: number | null;
	ends_at: number | null;
	mention_in: MentionContext;
	domain: string;
	slug: string;
	language: Language;
	channel_title: string;
	subscription: number;
	endpoint: string;
	p256dh: string;
	auth: string;
}

/** The notifications of `keys` to `recipients` that the batch at `now` (?3) wrote or raised. */
const WRITTEN = 'n.member_id IN (SELECT value FROM json_each(?1)) AND n.dedupe_key IN (SELECT value FROM json_each(?2)) AND n.updated_at = ?3';

/**
 * Pushes the notifications of `keys` to `recipients` that the batch at `now` wrote or raised: one
 * notification per member (the first), and only to a member not pushed to in the last
 * PUSH_INTERVAL_MS; the others are on the bell alone. Returns how many pushes were sent.
 */
export async function pushDelivered(db: Db, recipients: readonly number[], keys: readonly string[], now: number, push: PushSetup): Promise<number> {
	if (recipients.length === 0 || keys.length === 0) return 0;
	const bind = [JSON.stringify(recipients), JSON.stringify(keys), now] as const;
	// One round trip: the members whose turn it is are claimed (their time set to now), then their rows are read.
	const [claimed, found] = await db.batch([
		db
			.prepare(
				`UPDATE members SET notification_pushed_at = ?3 WHERE notification_pushed_at <= ?3 - ${PUSH_INTERVAL_MS} AND id IN
				 (SELECT n.member_id FROM notifications n WHERE ${WRITTEN} AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.member_id = n.member_id))
				 RETURNING id`,
			)
			.bind(...bind),
		db
			.prepare(
				`SELECT n.id, n.member_id, n.kind, n.post_id, n.comment_id, n.actor_id, a.nickname AS actor, p.like_count, n.ends_at,
					${mentionInSql('n', 'k', 'p')} AS mention_in,
					c.domain, c.slug, c.language, c.title AS channel_title, s.id AS subscription, s.endpoint, s.p256dh, s.auth
				 FROM notifications n JOIN members m ON m.id = n.member_id AND m.notification_pushed_at = ?3
				 JOIN push_subscriptions s ON s.member_id = n.member_id JOIN channels c ON c.id = n.channel_id
				 LEFT JOIN members a ON a.id = n.actor_id LEFT JOIN posts p ON p.id = n.post_id LEFT JOIN comments k ON k.id = n.comment_id
				 WHERE ${WRITTEN} ORDER BY n.id LIMIT ${PUSHES_PER_MESSAGE}`,
			)
			.bind(...bind),
	]);
	const ours = new Set(((claimed?.results ?? []) as { id: number }[]).map((row) => row.id));
	const first = new Map<number, number>();
	for (const row of (found?.results ?? []) as PushRow[]) if (ours.has(row.member_id) && !first.has(row.member_id)) first.set(row.member_id, row.id);
	const rows = ((found?.results ?? []) as PushRow[]).filter((row) => first.get(row.member_id) === row.id);
	const outcomes = await Promise.all(
		rows.map(async (row) => {
			// Stored before the list of push services, or the local setting turned off since: never sent to again.
			if (!pushEndpoint(row.endpoint, push.allowLoopback)) return { row, outcome: { kind: 'gone' } as PushOutcome };
			const base = `/${row.domain}/${row.slug}`;
			const body = notificationSentence(
				{
					kind: row.kind,
					actor: row.actor_id === null ? undefined : row.actor,
					others: row.kind === 'LIKE' ? Math.max(0, (row.like_count ?? 1) - 1) : 0,
					target: row.comment_id !== null ? 'COMMENT' : row.post_id !== null ? 'POST' : null,
					endsAt: row.ends_at,
					mentionIn: row.mention_in,
				},
				translator(row.language),
				row.language,
			);
			const url = notificationPath(base, row.post_id, row.comment_id) ?? `${base}/mypage/notifications`;
			const payload = { title: row.channel_title, body, url, tag: `notification-${row.id}` };
			return { row, outcome: await sendWebPush(row, payload, push.vapid, { allowLoopback: push.allowLoopback }) };
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

/**
 * Subscribes this browser for the member. An endpoint another member subscribed moves to this one
 * only with the same `auth` secret (the same browser, signed in as someone else): knowing an
 * endpoint alone takes nothing.
 * @throws AppError PushUnavailable (no VAPID keys), PushEndpointRefused (not a push service we send to),
 *   PushSubscriptionTaken (another member's endpoint, without its secret)
 */
export async function subscribePush(
	db: Db,
	memberId: number,
	subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
	push: PushSetup | null,
	now: number,
): Promise<void> {
	if (!push) throw new AppError('PushUnavailable');
	if (!pushEndpoint(subscription.endpoint, push.allowLoopback)) throw new AppError('PushEndpointRefused');
	const [kept] = await db.batch([
		db
			.prepare(
				`INSERT INTO push_subscriptions (id, member_id, endpoint, p256dh, auth, created_at)
				 VALUES (${newIdSql('push_subscriptions', '(SELECT channel_id FROM members WHERE id = ?1)')}, ?1, ?2, ?3, ?4, ?5)
				 ON CONFLICT (endpoint) DO UPDATE SET member_id = excluded.member_id, p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at
				 WHERE push_subscriptions.member_id = excluded.member_id OR push_subscriptions.auth = excluded.auth
				 RETURNING id`,
			)
			.bind(memberId, subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth, now),
		// The oldest past SUBSCRIPTIONS_KEPT go (nothing when the row above was refused: the count did not grow).
		db
			.prepare(
				`DELETE FROM push_subscriptions WHERE member_id = ?1 AND id NOT IN
				 (SELECT id FROM push_subscriptions WHERE member_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ${SUBSCRIPTIONS_KEPT})`,
			)
			.bind(memberId),
	]);
	if (!kept?.results.length) throw new AppError('PushSubscriptionTaken');
}

/** Unsubscribes this browser (the member's own subscription only). */
export async function unsubscribePush(db: Db, memberId: number, endpoint: string): Promise<void> {
	await db.prepare('DELETE FROM push_subscriptions WHERE member_id = ?1 AND endpoint = ?2').bind(memberId, endpoint).run();
}
