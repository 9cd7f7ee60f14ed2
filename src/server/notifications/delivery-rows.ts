/**
 * How one delivery of ./deliver.ts becomes rows: the SQL that says who among its recipients may be
 * told (at the moment of writing, inside the write batch), and its two statements, the counters
 * and the notification rows. The bounds per recipient (docs/reference/notifications.md#bounds) are here.
 */
import {
	kindBit,
	LIKE_RAISE_INTERVAL_MS,
	NOTIFICATION_WINDOW_MS,
	SENDER_NOTIFICATIONS_PER_HOUR,
	type NotificationKind,
} from '@/lib/notification-kinds';
import { activeBanSql } from '@/server/members/bans';
import { blockedSql } from '@/server/members/blocks';
import { newIdSql } from '@/server/databases/ids';

/** One kind of notification to a set of members. */
export interface Delivery {
	kind: NotificationKind;
	key: string;
	recipients: readonly number[];
	actorId: number | null;
	postId: number | null;
	commentId: number | null;
	boardId: number | null;
	endsAt?: number | null;
	/** A hide: the reason the administrator typed (REASON_MAX characters at most), null when none. */
	reason?: string | null;
	/** The recipient must be able to read the post (and the comment, when there is one). */
	readable: boolean;
	/** A like: one row per post that a new liker raises again. */
	aggregate?: boolean;
	/** The ban's own notifications reach the banned member. */
	toBanned?: boolean;
	/** A recipient is not told of the same post or comment twice (an earlier delivery of the batch told them). */
	onlyIfUntold?: boolean;
}

/** `sql` with `:name` placeholders bound from `values` (each name once, in order of first use). */
export function named(db: Db, sql: string, values: Record<string, unknown>): D1PreparedStatement {
	const order: string[] = [];
	const text = sql.replace(/:([a-z][a-zA-Z]*)/g, (_, name: string) => {
		if (!(name in values)) throw new Error(`No value for :${name}`);
		let index = order.indexOf(name);
		if (index < 0) index = order.push(name) - 1;
		return `?${index + 1}`;
	});
	return db.prepare(text).bind(...order.map((name) => values[name] ?? null));
}

/** SQL over the recipient `r` (a members row): may be told of this delivery. */
function eligibleSql(delivery: Delivery): string {
	const conditions = [
		'r.id IN (SELECT value FROM json_each(:recipients))',
		'r.channel_id = :channel',
		'r.withdrawn_at IS NULL',
		'(r.notifications_off & :bit) = 0',
		'r.id IS NOT :actor',
	];
	if (!delivery.toBanned) conditions.push(`NOT ${activeBanSql('r.id', ':now')}`);
	// A member the recipient blocked tells them nothing (docs/reference/blocking.md); a moderation notice names no actor and always arrives.
	if (delivery.actorId !== null) conditions.push(`NOT ${blockedSql('r.id', ':actor')}`);
	if (delivery.kind === 'MENTION' || delivery.kind === 'REPLY') {
		// SENDER_NOTIFICATIONS_PER_HOUR from this sender to this recipient: the partial index of
		// migration 0027 holds these two kinds alone (its condition is repeated word for word), so
		// this reads at most the cap's entries.
		conditions.push(`(SELECT count(*) FROM (SELECT 1 FROM notifications s WHERE s.member_id = r.id AND s.actor_id = :actor AND s.kind IN ('MENTION', 'REPLY')
			AND s.created_at > :now - ${NOTIFICATION_WINDOW_MS} LIMIT ${SENDER_NOTIFICATIONS_PER_HOUR})) < ${SENDER_NOTIFICATIONS_PER_HOUR}`);
	}
	if (delivery.readable) {
		conditions.push(`EXISTS (SELECT 1 FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = :post AND p.channel_id = :channel
			AND p.deleted_at IS NULL AND (r.role = 'ADMIN' OR (p.hidden_by_admin = 0 AND b.is_public = 1 AND (p.is_private = 0 OR p.member_id = r.id))))`);
		if (delivery.commentId !== null) {
			conditions.push(
				"EXISTS (SELECT 1 FROM comments c WHERE c.id = :comment AND c.deleted_at IS NULL AND (c.hidden_by_admin = 0 OR r.role = 'ADMIN'))",
			);
		}
	}
	if (delivery.onlyIfUntold) {
		conditions.push(
			'NOT EXISTS (SELECT 1 FROM notifications o WHERE o.member_id = r.id AND o.post_id IS :post AND o.comment_id IS :comment AND o.kind <> :kind)',
		);
	}
	return conditions.join(' AND ');
}

/**
 * The two statements of a delivery: the counters first (they see whether the row is new; they return the
 * members whose unread count rose, as `counted_member`, for their bells: src/server/live/rooms.ts), then the rows.
 */
export function deliveryStatements(db: Db, channelId: number, delivery: Delivery, now: number): D1PreparedStatement[] {
	if (delivery.recipients.length === 0) return [];
	const values = {
		recipients: JSON.stringify(delivery.recipients),
		channel: channelId,
		bit: kindBit(delivery.kind),
		actor: delivery.actorId,
		now,
		post: delivery.postId,
		comment: delivery.commentId,
		kind: delivery.kind,
		key: delivery.key,
		board: delivery.boardId,
		ends: delivery.endsAt ?? null,
		reason: delivery.reason ?? null,
	};
	const eligible = eligibleSql(delivery);
	// A like's row counts as unread again when a new liker raises it; a repeated liker (or message)
	// does not, nor anyone within LIKE_RAISE_INTERVAL_MS of the last raise (likes flipped on and off).
	const quiet = `n.updated_at > :now - ${LIKE_RAISE_INTERVAL_MS}`;
	const alreadyCounted = delivery.aggregate
		? `((n.read_at IS NULL AND n.updated_at > r.notifications_read_before) OR n.actor_id IS :actor OR ${quiet})`
		: '1';
	const counters = named(
		db,
		`UPDATE members AS r SET unread_notifications = unread_notifications + 1,
			notification_count = notification_count + NOT EXISTS (SELECT 1 FROM notifications n WHERE n.member_id = r.id AND n.dedupe_key = :key)
		 WHERE ${eligible} AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.member_id = r.id AND n.dedupe_key = :key AND ${alreadyCounted})
		 RETURNING id AS counted_member`,
		values,
	);
	// A new liker is named at once; the row is raised (its time, unread, a push) only past the quiet interval.
	const raise = `notifications.updated_at <= excluded.updated_at - ${LIKE_RAISE_INTERVAL_MS}`;
	const onConflict = delivery.aggregate
		? `DO UPDATE SET actor_id = excluded.actor_id, updated_at = CASE WHEN ${raise} THEN excluded.updated_at ELSE notifications.updated_at END,
			read_at = CASE WHEN ${raise} THEN NULL ELSE notifications.read_at END WHERE notifications.actor_id IS NOT excluded.actor_id`
		: 'DO NOTHING';
	const rows = named(
		db,
		`INSERT INTO notifications (id, channel_id, member_id, kind, dedupe_key, actor_id, post_id, comment_id, board_id, ends_at, reason, created_at, updated_at)
		 SELECT ${newIdSql('notifications', ':channel')} + row_number() OVER () - 1, :channel, r.id, :kind, :key, :actor, :post, :comment, :board, :ends, :reason, :now, :now FROM members AS r WHERE ${eligible}
		 ON CONFLICT (member_id, dedupe_key) ${onConflict}`,
		values,
	);
	return [counters, rows];
}
