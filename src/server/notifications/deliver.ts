/**
 * The notifications queue's consumer (docs/notifications.md#the-queue): turns one message of
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
 * - Bounded per recipient (docs/notifications.md#bounds; tests/workers/notification-bounds.test.ts):
 *   one sender's MENTION and REPLY notifications to one member, SENDER_NOTIFICATIONS_PER_HOUR an
 *   hour (past it, none); a like's row is raised again at most once per LIKE_RAISE_INTERVAL_MS
 *   (a new liker within it is named, nothing more); an author's posts in one board tell its
 *   watchers BOARD_POSTS_NOTIFIED_PER_HOUR times an hour (later ones, nothing). Pushes and emails
 *   have bounds of their own (push-delivery.ts, email.ts).
 */
import { parseMentions } from '@/lib/mentions';
import { MESSAGE_VERSION, notify, type NotificationEvent } from './send';
import {
	BOARD_POSTS_NOTIFIED_PER_HOUR,
	kindBit,
	LIKE_RAISE_INTERVAL_MS,
	MENTIONS_NOTIFIED,
	NOTIFICATION_WINDOW_MS,
	SENDER_NOTIFICATIONS_PER_HOUR,
	WATCHERS_PER_MESSAGE,
	type NotificationKind,
} from '@/lib/notification-kinds';
import { mentionedMembers } from './mentions';
import { pushDelivered } from './push-delivery';
import type { PushSetup } from './push';
import { emailDelivered, type EmailSetup } from './email';
import { activeBanSql } from '@/server/members/bans';
import { REASON_MAX } from '@/server/moderation/log';

/** One kind of notification to a set of members. */
interface Delivery {
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
function named(db: D1Database, sql: string, values: Record<string, unknown>): D1PreparedStatement {
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

/** The two statements of a delivery: the counters first (they see whether the row is new), then the rows. */
function deliveryStatements(db: D1Database, channelId: number, delivery: Delivery, now: number): D1PreparedStatement[] {
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
		 WHERE ${eligible} AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.member_id = r.id AND n.dedupe_key = :key AND ${alreadyCounted})`,
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
		`INSERT INTO notifications (channel_id, member_id, kind, dedupe_key, actor_id, post_id, comment_id, board_id, ends_at, reason, created_at, updated_at)
		 SELECT :channel, r.id, :kind, :key, :actor, :post, :comment, :board, :ends, :reason, :now, :now FROM members AS r WHERE ${eligible}
		 ON CONFLICT (member_id, dedupe_key) ${onConflict}`,
		values,
	);
	return [counters, rows];
}

/**
 * What one message asks of the consumer: its deliveries, the message that goes on with the watchers
 * after them, and statements that run before the deliveries in the same batch (a hidden comment's
 * notifications removed).
 */
interface Plan {
	deliveries: Delivery[];
	next: NotificationEvent | null;
	before?: D1PreparedStatement[];
}

const NOTHING: Plan = { deliveries: [], next: null };

interface CommentFacts {
	post_id: number;
	actor: number;
	mentions: string | null;
	board_id: number;
	post_author: number;
	reply_author: number | null;
	author_watch: number | null;
}

/** A page of a post's or board's watchers after member `after`; `targetSql` names the target by ?2. */
const watchersStatement = (db: D1Database, target: 'POST' | 'BOARD', targetSql: string, id: number, after: number) =>
	db
		.prepare(
			`SELECT member_id FROM watches WHERE target = ?1 AND target_id = ${targetSql} AND watching = 1 AND member_id > ?3 ORDER BY member_id LIMIT ${WATCHERS_PER_MESSAGE}`,
		)
		.bind(target, id, after);

/** The next page of watchers, and the message that goes on after it when the page was full. */
function watcherPage(
	result: D1Result | undefined,
	of: 'comment' | 'post',
	channelId: number,
	id: number,
): { ids: number[]; next: NotificationEvent | null } {
	const ids = ((result?.results ?? []) as { member_id: number }[]).map((row) => row.member_id);
	const full = ids.length === WATCHERS_PER_MESSAGE;
	return { ids, next: full ? { type: 'watchers', channelId, of, id, after: ids.at(-1)! } : null };
}

async function planComment(db: D1Database, channelId: number, commentId: number, edited: boolean, after: number | null): Promise<Plan> {
	const [facts, watchers] = await db.batch([
		db
			.prepare(
				`SELECT c.post_id, c.member_id AS actor, c.mentions, p.board_id, p.member_id AS post_author,
					(SELECT t.member_id FROM comments t WHERE t.id = coalesce(c.reply_to_id, c.parent_id)) AS reply_author,
					(SELECT w.watching FROM watches w WHERE w.member_id = p.member_id AND w.target = 'POST' AND w.target_id = p.id) AS author_watch
				 FROM comments c JOIN posts p ON p.id = c.post_id
				 WHERE c.id = ?1 AND c.channel_id = ?2 AND c.deleted_at IS NULL AND c.hidden_by_admin = 0`,
			)
			.bind(commentId, channelId),
		watchersStatement(db, 'POST', '(SELECT post_id FROM comments WHERE id = ?2)', commentId, after ?? 0),
	]);
	const row = facts?.results[0] as CommentFacts | undefined;
	if (!row) return NOTHING;
	const base = { actorId: row.actor, postId: row.post_id, commentId, boardId: row.board_id, readable: true };
	const page = watcherPage(watchers, 'comment', channelId, commentId);
	const toWatchers: Delivery = { ...base, kind: 'WATCHED_POST', key: `watch:c${commentId}`, recipients: page.ids, onlyIfUntold: true };
	if (after !== null) return { deliveries: [toWatchers], next: page.next };
	const mentioned: Delivery = {
		...base,
		kind: 'MENTION',
		key: `mention:c${commentId}`,
		recipients: mentionedMembers(parseMentions(row.mentions), MENTIONS_NOTIFIED),
	};
	if (edited) return { deliveries: [mentioned], next: null };
	// One notification per comment per recipient: the mention comes first and, when it was written,
	// is the reply's or the comment's notification too (the list says "mentioned you in a reply", "…in
	// a comment on your post"); one the per-sender cap held back leaves them to tell.
	const deliveries = [mentioned];
	if (row.reply_author !== null) {
		deliveries.push({ ...base, kind: 'REPLY', key: `reply:${commentId}`, recipients: [row.reply_author], onlyIfUntold: true });
	}
	// The author's own post is watched unless they stopped watching it; a reply to them already told them.
	if (row.author_watch !== 0 && row.reply_author !== row.post_author) {
		deliveries.push({ ...base, kind: 'COMMENT', key: `comment:${commentId}`, recipients: [row.post_author], onlyIfUntold: true });
	}
	deliveries.push(toWatchers);
	return { deliveries, next: page.next };
}

async function planPost(db: D1Database, channelId: number, postId: number, edited: boolean, after: number | null): Promise<Plan> {
	const [facts, watchers] = await db.batch([
		// `earlier`: the author's posts in this board in the hour before this one (deleted ones too), by
		// posts_by_board_author, at most BOARD_POSTS_NOTIFIED_PER_HOUR of them. It depends on the posts
		// alone, so each page of watchers (and a message delivered again) decides alike.
		db
			.prepare(
				`SELECT p.member_id AS actor, p.board_id, p.mentions,
					(SELECT count(*) FROM (SELECT 1 FROM posts q WHERE q.board_id = p.board_id AND q.member_id = p.member_id
						AND q.created_at > p.created_at - ${NOTIFICATION_WINDOW_MS} AND q.id < p.id LIMIT ${BOARD_POSTS_NOTIFIED_PER_HOUR})) AS earlier
				 FROM posts p WHERE p.id = ?1 AND p.channel_id = ?2 AND p.deleted_at IS NULL`,
			)
			.bind(postId, channelId),
		watchersStatement(db, 'BOARD', '(SELECT board_id FROM posts WHERE id = ?2)', postId, after ?? 0),
	]);
	const row = facts?.results[0] as { actor: number; board_id: number; mentions: string | null; earlier: number } | undefined;
	if (!row) return NOTHING;
	const base = { actorId: row.actor, postId, commentId: null, boardId: row.board_id, readable: true };
	// Past the author's BOARD_POSTS_NOTIFIED_PER_HOUR in this board, the watchers are told nothing (the board lists it).
	const page = row.earlier < BOARD_POSTS_NOTIFIED_PER_HOUR ? watcherPage(watchers, 'post', channelId, postId) : { ids: [], next: null };
	const toWatchers: Delivery = { ...base, kind: 'WATCHED_BOARD', key: `watch:p${postId}`, recipients: page.ids, onlyIfUntold: true };
	if (after !== null) return { deliveries: [toWatchers], next: page.next };
	const mentioned: Delivery = {
		...base,
		kind: 'MENTION',
		key: `mention:p${postId}`,
		recipients: mentionedMembers(parseMentions(row.mentions), MENTIONS_NOTIFIED),
	};
	if (edited) return { deliveries: [mentioned], next: null };
	return { deliveries: [mentioned, toWatchers], next: page.next };
}

async function planLike(db: D1Database, channelId: number, postId: number, actorId: number): Promise<Plan> {
	const row = await db
		.prepare(
			`SELECT p.member_id AS author, p.board_id FROM posts p
			 WHERE p.id = ?1 AND p.channel_id = ?2 AND EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.member_id = ?3)`,
		)
		.bind(postId, channelId, actorId)
		.first<{ author: number; board_id: number }>();
	// Taken back before the message arrived: nothing to tell.
	if (!row) return NOTHING;
	return {
		deliveries: [
			{
				kind: 'LIKE',
				key: `like:${postId}`,
				recipients: [row.author],
				actorId,
				postId,
				commentId: null,
				boardId: row.board_id,
				readable: true,
				aggregate: true,
			},
		],
		next: null,
	};
}

/** The dedupe keys a comment's notifications to other members carry (COMMENT, REPLY, MENTION, WATCHED_POST). */
function commentKeys(commentId: number): string[] {
	return [`comment:${commentId}`, `reply:${commentId}`, `mention:c${commentId}`, `watch:c${commentId}`];
}

/**
 * A hidden comment's notifications to other members ("commented on your post", a reply, a mention,
 * a watcher's) leave their lists and unread counts: the counters first (they read the rows), then
 * the rows. The members who can hold one are the post's author, the replied-to author, the members
 * the comment mentions and the post's watchers; each is sought by the UNIQUE (member, key) index,
 * so the statements write only that one comment's rows (and each recipient's members row).
 */
function removeCommentNotifications(db: D1Database, commentId: number, facts: { postId: number; members: readonly number[] }): D1PreparedStatement[] {
	const values = { keys: JSON.stringify(commentKeys(commentId)), members: JSON.stringify(facts.members), post: facts.postId };
	const held = `SELECT value FROM json_each(:members) UNION SELECT member_id FROM watches WHERE target = 'POST' AND target_id = :post AND watching = 1`;
	const mine = `FROM notifications n WHERE n.member_id = members.id AND n.dedupe_key IN (SELECT value FROM json_each(:keys))`;
	return [
		named(
			db,
			`UPDATE members SET
				unread_notifications = max(0, unread_notifications - (SELECT count(*) ${mine} AND n.read_at IS NULL AND n.updated_at > members.notifications_read_before)),
				notification_count = max(0, notification_count - (SELECT count(*) ${mine}))
			 WHERE id IN (${held}) AND EXISTS (SELECT 1 ${mine})`,
			values,
		),
		named(db, `DELETE FROM notifications WHERE member_id IN (${held}) AND dedupe_key IN (SELECT value FROM json_each(:keys))`, values),
	];
}

interface ModeratedRow {
	author: number;
	post_id: number;
	comment_id: number | null;
	post_author: number;
	reply_author: number | null;
	mentions: string | null;
}

async function planModeration(db: D1Database, event: Extract<NotificationEvent, { type: 'moderation' }>): Promise<Plan> {
	const row =
		event.target === 'POST'
			? await db
					.prepare(
						`SELECT member_id AS author, id AS post_id, NULL AS comment_id, member_id AS post_author, NULL AS reply_author, NULL AS mentions
						 FROM posts WHERE id = ?1 AND channel_id = ?2 AND deleted_at IS NULL`,
					)
					.bind(event.id, event.channelId)
					.first<ModeratedRow>()
			: await db
					.prepare(
						`SELECT c.member_id AS author, c.post_id, c.id AS comment_id, p.member_id AS post_author, c.mentions,
							(SELECT t.member_id FROM comments t WHERE t.id = coalesce(c.reply_to_id, c.parent_id)) AS reply_author
						 FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = ?1 AND c.channel_id = ?2 AND c.deleted_at IS NULL`,
					)
					.bind(event.id, event.channelId)
					.first<ModeratedRow>();
	if (!row) return NOTHING;
	// A hidden comment (spam, most often) no longer tells anyone it was written; showing it again does not tell them anew.
	const before =
		event.hidden && row.comment_id !== null
			? removeCommentNotifications(db, row.comment_id, {
					postId: row.post_id,
					members: [
						row.post_author,
						...(row.reply_author === null ? [] : [row.reply_author]),
						...mentionedMembers(parseMentions(row.mentions), MENTIONS_NOTIFIED),
					],
				})
			: [];
	if (row.author === event.moderatorId) return { deliveries: [], next: null, before };
	const kind = event.hidden ? 'HIDDEN' : 'SHOWN';
	return {
		deliveries: [
			{
				kind,
				key: `${kind.toLowerCase()}:${event.target === 'POST' ? 'p' : 'c'}${event.id}:${event.at}`,
				recipients: [row.author],
				// A moderator is never named.
				actorId: null,
				postId: row.post_id,
				commentId: row.comment_id,
				boardId: null,
				reason: event.hidden && event.reason ? event.reason.slice(0, REASON_MAX) : null,
				readable: false,
			},
		],
		next: null,
		before,
	};
}

async function planBan(db: D1Database, channelId: number, banId: number, ended: boolean): Promise<Plan> {
	const row = await db
		.prepare("SELECT member_id, ends_at FROM bans WHERE id = ?1 AND channel_id = ?2 AND kind = 'TEMPORARY'")
		.bind(banId, channelId)
		.first<{ member_id: number; ends_at: number }>();
	if (!row) return NOTHING;
	return { deliveries: [banDelivery(banId, row.member_id, row.ends_at, ended)], next: null };
}

function banDelivery(banId: number, memberId: number, endsAt: number, ended: boolean): Delivery {
	return {
		kind: ended ? 'BAN_END' : 'BAN',
		key: `${ended ? 'ban-end' : 'ban'}:${banId}`,
		recipients: [memberId],
		actorId: null,
		postId: null,
		commentId: null,
		boardId: null,
		endsAt,
		readable: false,
		toBanned: true,
	};
}

function plan(db: D1Database, event: NotificationEvent): Promise<Plan> {
	switch (event.type) {
		case 'comment':
			return planComment(db, event.channelId, event.commentId, event.edited === true, null);
		case 'post':
			return planPost(db, event.channelId, event.postId, event.edited === true, null);
		case 'watchers':
			return event.of === 'comment'
				? planComment(db, event.channelId, event.id, false, event.after)
				: planPost(db, event.channelId, event.id, false, event.after);
		case 'like':
			return planLike(db, event.channelId, event.postId, event.actorId);
		case 'moderation':
			return planModeration(db, event);
		case 'ban':
			return planBan(db, event.channelId, event.banId, event.ended);
	}
}

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
	db: D1Database,
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
export async function deliverEndedBans(db: D1Database, now: number, since: number, limit = 100): Promise<number> {
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
