/**
 * A member's notifications as they read them (docs/reference/notifications.md#the-list): the unread count
 * (one row), the list newest first by keyset, opening one (read), "mark all read", and the cron's
 * pruning to the newest NOTIFICATIONS_KEPT.
 *
 * Visibility is checked again when the list is read, as the reader may read now: a notification
 * whose post or comment was deleted, hidden or moved to a private board since keeps its place but
 * shows neither title nor text, and links nowhere.
 */
import { AppError } from '@/server/platform/errors';
import { read, run, type Read } from '@/server/platform/reads';
import type { SessionMember } from '@/server/sign-in/sessions';
import { adminSql, adminValue, memberIdSql, memberIdValue, type MemberRef, type ViewerRef } from '@/server/sign-in/member-ref';
import {
	NOTIFICATION_SETTINGS,
	NOTIFICATIONS_KEPT,
	offBits,
	settingBit,
	settingsOf,
	type NotificationKind,
	type NotificationSetting,
} from '@/lib/notification-kinds';
import { storedText } from '@/server/platform/excerpt';
import type { MentionContext } from '@/server/notifications/notification-text';

/** How many a page of the list shows. */
const NOTIFICATIONS_PAGE_SIZE = 20;
/** How much of a comment a notification quotes (code points). */
const EXCERPT_LENGTH = 100;

export interface NotificationItem {
	notificationId: number;
	kind: NotificationKind;
	unread: boolean;
	/** When it happened (a like: the latest). */
	at: number;
	/** Who did it, when it is a member who is named (never a moderator); withdrawn: nickname null. */
	actor: { userId: number; nickname: string | null } | null;
	/** A like: how many others like the post besides `actor`. */
	others: number;
	/** The post, when the reader may read it now. */
	post: { postId: number; title: string } | null;
	/** The comment it is about (the post page opens at it), when the reader may read it now. */
	commentId: number | null;
	/** The comment's opening words, when the reader may read it now. */
	excerpt: string | null;
	/** A temporary ban's end. */
	endsAt: number | null;
	/** What it is about, whether or not the reader may still read it. */
	target: 'POST' | 'COMMENT' | null;
	/** A mention in a reply to the reader or in a comment on their post (notification-text.ts). */
	mentionIn: MentionContext;
	/**
	 * A hide or show of the reader's own post or comment: what it was (the post's title and the
	 * comment's opening words, shown to their author even while hidden, null once deleted), the
	 * reason the administrator typed (null when none), and whether the automatic hide did it and it
	 * still waits for a moderator.
	 */
	moderated: { title: string | null; excerpt: string | null; reason: string | null; automatic: boolean } | null;
}

export interface NotificationPage {
	items: NotificationItem[];
	/** The cursor of the next (older) page, or null at the end. */
	next: string | null;
}

interface Row {
	id: number;
	kind: NotificationKind;
	unread: number;
	updated_at: number;
	actor_id: number | null;
	actor_nickname: string | null;
	post_id: number | null;
	title: string | null;
	post_readable: number;
	like_count: number | null;
	comment_id: number | null;
	comment_content: string | null;
	comment_readable: number;
	ends_at: number | null;
	mention_in: MentionContext;
	reason: string | null;
	own_title: string | null;
	own_comment: string | null;
	auto_hidden: number | null;
}

/** A page's cursor: the last item's time and id. */
function cursorOf(item: { at: number; notificationId: number }): string {
	return `${item.at}.${item.notificationId}`;
}

/** The cursor of `?before=`, or null for the first page. @throws AppError InvalidParameter */
export function parseCursor(value: string | undefined): { at: number; id: number } | null {
	if (value === undefined || value === '') return null;
	const match = /^(\d{1,15})\.(\d{1,15})$/.exec(value);
	if (!match) throw new AppError('InvalidParameter');
	return { at: Number(match[1]), id: Number(match[2]) };
}

/** The member's unread count, as the bell shows it; with a session's token, in the session's round trip. */
export function unreadCountRead(db: Db, who: MemberRef): Read<number> {
	const statement = db.prepare(`SELECT unread_notifications AS unread FROM members WHERE id = ${memberIdSql(who, '?1')}`).bind(memberIdValue(who));
	return read(statement, (result) => Math.max(0, (result.results[0] as { unread: number } | undefined)?.unread ?? 0));
}

/** The member's unread count, as the bell shows it. */
export async function unreadCount(db: Db, memberId: number): Promise<number> {
	return run(db, unreadCountRead(db, memberId));
}

/**
 * SQL of what a comment that mentions the recipient also is to them (MentionContext): 'REPLY' when it
 * answers their comment, 'POST' when it is on their post, else NULL. `n` is the notification, `c`
 * its comment and `p` its post; the replied comment is read by primary key.
 */
export function mentionInSql(n: string, c: string, p: string): string {
	return `CASE WHEN ${n}.kind = 'MENTION' AND ${c}.id IS NOT NULL THEN CASE
		WHEN (SELECT t.member_id FROM comments t WHERE t.id = coalesce(${c}.reply_to_id, ${c}.parent_id)) = ${n}.member_id THEN 'REPLY'
		WHEN ${p}.member_id = ${n}.member_id THEN 'POST' END END`;
}

/** Excerpt of a comment: its first EXCERPT_LENGTH code points on one line. */
function excerptOf(content: string): string {
	const text = storedText(content).replace(/\s+/g, ' ').trim();
	const points = [...text];
	return points.length > EXCERPT_LENGTH ? `${points.slice(0, EXCERPT_LENGTH).join('')}…` : text;
}

/**
 * A page of the member's notifications, newest first, each as the member may read it now; with a
 * session's token, in the session's round trip.
 */
export function notificationsRead(
	db: Db,
	channelId: number,
	who: ViewerRef,
	cursor: { at: number; id: number } | null,
	limit = NOTIFICATIONS_PAGE_SIZE,
): Read<NotificationPage> {
	const admin = adminSql(who, '?4');
	const statement = db
		.prepare(
			`SELECT n.id, n.kind, n.updated_at, n.actor_id, n.post_id, n.comment_id, n.ends_at, n.reason,
				(n.read_at IS NULL AND n.updated_at > me.notifications_read_before) AS unread,
				a.nickname AS actor_nickname, p.title, p.like_count,
				(p.id IS NOT NULL AND p.deleted_at IS NULL AND (${admin} = 1 OR (p.hidden_by_admin = 0 AND b.is_public = 1 AND (p.is_private = 0 OR p.member_id = me.id)))) AS post_readable,
				c.content AS comment_content,
				(c.id IS NOT NULL AND c.deleted_at IS NULL AND (c.hidden_by_admin = 0 OR ${admin} = 1)) AS comment_readable,
				${mentionInSql('n', 'c', 'p')} AS mention_in,
				${MODERATED_COLUMNS}
			 FROM notifications n JOIN members me ON me.id = n.member_id
			 LEFT JOIN members a ON a.id = n.actor_id
			 LEFT JOIN posts p ON p.id = n.post_id AND p.channel_id = ?2
			 LEFT JOIN boards b ON b.id = p.board_id
			 LEFT JOIN comments c ON c.id = n.comment_id
			 WHERE n.member_id = ${memberIdSql(who, '?1')} AND (?5 IS NULL OR n.updated_at < ?5 OR (n.updated_at = ?5 AND n.id < ?6))
			 ORDER BY n.updated_at DESC, n.id DESC LIMIT ?3`,
		)
		.bind(memberIdValue(who), channelId, limit + 1, adminValue(who), cursor?.at ?? null, cursor?.id ?? 0);
	return read(statement, (result) => notificationPageOf(result, limit));
}

/**
 * What a hide or show notification says of the reader's own words (NotificationItem.moderated): their
 * post's title while it is not deleted (a comment's post: while the reader may read it), their comment's
 * text while not deleted, and whether the automatic hide holds it now.
 */
const MODERATED_COLUMNS = `CASE WHEN n.kind IN ('HIDDEN', 'SHOWN') AND p.deleted_at IS NULL AND p.member_id = me.id THEN p.title END AS own_title,
	CASE WHEN n.kind IN ('HIDDEN', 'SHOWN') AND c.deleted_at IS NULL AND c.member_id = me.id THEN c.content END AS own_comment,
	CASE WHEN n.kind = 'HIDDEN' THEN CASE WHEN c.id IS NOT NULL THEN c.auto_hidden ELSE p.auto_hidden END END AS auto_hidden`;

/** The page notificationsRead read (with the same `limit`). */
function notificationPageOf(result: D1Result, limit: number): NotificationPage {
	const results = result.results as Row[];
	const items = results.slice(0, limit).map((row): NotificationItem => {
		const postReadable = row.post_readable === 1;
		const commentReadable = postReadable && row.comment_readable === 1;
		return {
			notificationId: row.id,
			kind: row.kind,
			unread: row.unread === 1,
			at: row.updated_at,
			actor: row.actor_id === null ? null : { userId: row.actor_id, nickname: row.actor_nickname },
			others: row.kind === 'LIKE' && postReadable ? Math.max(0, (row.like_count ?? 1) - 1) : 0,
			post: postReadable && row.post_id !== null ? { postId: row.post_id, title: row.title ?? '' } : null,
			commentId: commentReadable ? row.comment_id : null,
			excerpt: commentReadable && row.comment_content !== null ? excerptOf(row.comment_content) : null,
			endsAt: row.ends_at,
			target: row.comment_id !== null ? 'COMMENT' : row.post_id !== null ? 'POST' : null,
			mentionIn: row.mention_in,
			moderated:
				row.kind === 'HIDDEN' || row.kind === 'SHOWN'
					? {
							title: row.own_title ?? (postReadable ? row.title : null),
							excerpt: row.own_comment === null ? null : excerptOf(row.own_comment),
							reason: row.reason === null || row.reason.trim() === '' ? null : row.reason,
							automatic: row.auto_hidden === 1,
						}
					: null,
		};
	});
	const last = items.at(-1);
	return { items, next: results.length > limit && last ? cursorOf(last) : null };
}

/** A page of the member's notifications, newest first, each as the member may read it now. */
export async function listNotifications(
	db: Db,
	channelId: number,
	member: SessionMember,
	cursor: { at: number; id: number } | null,
	limit = NOTIFICATIONS_PAGE_SIZE,
): Promise<NotificationPage> {
	return run(db, notificationsRead(db, channelId, member, cursor, limit));
}

/**
 * Marks one of the member's notifications read (opening it); the count drops when it was unread.
 * Another member's, or a missing one, is NotificationNotFound. Returns the unread count.
 */
export async function markRead(db: Db, memberId: number, notificationId: number, now: number): Promise<number> {
	const [found, , , count] = await db.batch([
		db.prepare('SELECT 1 AS found FROM notifications WHERE id = ?1 AND member_id = ?2').bind(notificationId, memberId),
		db
			.prepare(
				`UPDATE notifications SET read_at = ?3 WHERE id = ?1 AND member_id = ?2 AND read_at IS NULL
				 AND updated_at > (SELECT notifications_read_before FROM members WHERE id = ?2)`,
			)
			.bind(notificationId, memberId, now),
		// Directly after the UPDATE: changes() reads it.
		db.prepare('UPDATE members SET unread_notifications = max(0, unread_notifications - 1) WHERE id = ?1 AND changes() = 1').bind(memberId),
		db.prepare('SELECT unread_notifications AS unread FROM members WHERE id = ?1').bind(memberId),
	]);
	if (found?.results.length === 0) throw new AppError('NotificationNotFound');
	return Math.max(0, (count?.results[0] as { unread: number } | undefined)?.unread ?? 0);
}

/** Marks everything the member has read: one row, whatever their number. */
export async function markAllRead(db: Db, memberId: number, now: number): Promise<void> {
	await db
		.prepare('UPDATE members SET notifications_read_before = max(notifications_read_before, ?2), unread_notifications = 0 WHERE id = ?1')
		.bind(memberId, now)
		.run();
}

/**
 * Keeps the newest NOTIFICATIONS_KEPT of each member who has more (the cron; at most `members` a
 * run), and sets their counters from what is left. The members past the limit are found by a
 * partial index, without reading anyone else's row.
 */
export async function pruneNotifications(db: Db, members = 50): Promise<number> {
	const { results } = await db
		.prepare(`SELECT id FROM members WHERE notification_count > ${NOTIFICATIONS_KEPT} LIMIT ?1`)
		.bind(members)
		.all<{ id: number }>();
	if (results.length === 0) return 0;
	await db.batch(
		results.flatMap(({ id }) => [
			db
				.prepare(
					`DELETE FROM notifications WHERE member_id = ?1 AND id NOT IN
					 (SELECT id FROM notifications WHERE member_id = ?1 ORDER BY updated_at DESC, id DESC LIMIT ${NOTIFICATIONS_KEPT})`,
				)
				.bind(id),
			db
				.prepare(
					`UPDATE members SET notification_count = (SELECT count(*) FROM notifications WHERE member_id = ?1),
						unread_notifications = (SELECT count(*) FROM notifications n WHERE n.member_id = ?1 AND n.read_at IS NULL AND n.updated_at > members.notifications_read_before)
					 WHERE id = ?1`,
				)
				.bind(id),
		]),
	);
	return results.length;
}

/** What withdrawal removes of a member's notifications, watches and push subscriptions (bounded by the limits of each). */
export function withdrawalStatements(db: Db, memberId: number): D1PreparedStatement[] {
	return [
		db.prepare('DELETE FROM notifications WHERE member_id = ?1').bind(memberId),
		db.prepare('DELETE FROM watches WHERE member_id = ?1').bind(memberId),
		db.prepare('DELETE FROM push_subscriptions WHERE member_id = ?1').bind(memberId),
		db.prepare('UPDATE members SET unread_notifications = 0, notification_count = 0, notification_email = NULL WHERE id = ?1').bind(memberId),
	];
}

/** The member's notification settings, each kind on or off; with a session's token, in the session's round trip. */
export function notificationSettingsRead(db: Db, who: MemberRef): Read<Record<NotificationSetting, boolean>> {
	const statement = db.prepare(`SELECT notifications_off AS off FROM members WHERE id = ${memberIdSql(who, '?1')}`).bind(memberIdValue(who));
	return read(statement, (result) => settingsOf((result.results[0] as { off: number } | undefined)?.off ?? 0));
}

/** The member's notification settings: each kind on or off. */
export async function notificationSettings(db: Db, memberId: number): Promise<Record<NotificationSetting, boolean>> {
	return run(db, notificationSettingsRead(db, memberId));
}

/** Saves the settings sent (a setting left out keeps its value), in one statement; answers them all. */
export async function saveNotificationSettings(
	db: Db,
	memberId: number,
	settings: Partial<Record<NotificationSetting, boolean | undefined>>,
): Promise<Record<NotificationSetting, boolean>> {
	const on = NOTIFICATION_SETTINGS.filter((setting) => settings[setting] === true).reduce((bits, setting) => bits | settingBit(setting), 0);
	const off = offBits(settings);
	const row = await db
		.prepare('UPDATE members SET notifications_off = (notifications_off & ~?2) | ?3 WHERE id = ?1 RETURNING notifications_off AS off')
		.bind(memberId, on, off)
		.first<{ off: number }>();
	return settingsOf(row?.off ?? off);
}
