/**
 * Who is told of each event of ./deliver.ts: one read per message (what happened, who is concerned)
 * that answers its deliveries (./delivery-rows.ts writes them) and the message that goes on with
 * more watchers.
 */
import { parseMentions } from '@/lib/mentions';
import type { NotificationEvent } from './send';
import { BOARD_POSTS_NOTIFIED_PER_HOUR, MENTIONS_NOTIFIED, NOTIFICATION_WINDOW_MS, WATCHERS_PER_MESSAGE } from '@/lib/notification-kinds';
import { mentionedMembers } from './mentions';
import { REASON_MAX } from '@/server/moderation/log';
import { named, type Delivery } from './delivery-rows';

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
const watchersStatement = (db: Db, target: 'POST' | 'BOARD', targetSql: string, id: number, after: number) =>
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

async function planComment(db: Db, channelId: number, commentId: number, edited: boolean, after: number | null): Promise<Plan> {
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

async function planPost(db: Db, channelId: number, postId: number, edited: boolean, after: number | null): Promise<Plan> {
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

async function planLike(db: Db, channelId: number, postId: number, actorId: number): Promise<Plan> {
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
function removeCommentNotifications(db: Db, commentId: number, facts: { postId: number; members: readonly number[] }): D1PreparedStatement[] {
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

async function planModeration(db: Db, event: Extract<NotificationEvent, { type: 'moderation' }>): Promise<Plan> {
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

async function planBan(db: Db, channelId: number, banId: number, ended: boolean): Promise<Plan> {
	const row = await db
		.prepare("SELECT member_id, ends_at FROM bans WHERE id = ?1 AND channel_id = ?2 AND kind = 'TEMPORARY'")
		.bind(banId, channelId)
		.first<{ member_id: number; ends_at: number }>();
	if (!row) return NOTHING;
	return { deliveries: [banDelivery(banId, row.member_id, row.ends_at, ended)], next: null };
}

export function banDelivery(banId: number, memberId: number, endsAt: number, ended: boolean): Delivery {
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

export function plan(db: Db, event: NotificationEvent): Promise<Plan> {
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
