/**
 * Notifications (docs/reference/notifications.md): what a comment, a post, a like, a hide and a ban
 * tell whom, through the queue's consumer; duplicates, failures and bad messages; the privacy rule
 * when written and when read; the bounds of the rows a message writes; the member's API (list,
 * count, read, settings, watches, suggestions).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { env } from 'cloudflare:workers';
import {
	call,
	deliverNotifications,
	memberApi,
	plainMembers,
	recordingDb,
	sessionOf,
	signIn,
	takeSentNotifications,
	type Answer,
	type DemoMember,
} from './harness';
import { createComment, editComment } from '@/server/comments/writing';
import { createPost } from '@/server/posts/writing';
import { likePost, unlikePost } from '@/server/likes/likes';
import { autoHide, hideComment, hidePost } from '@/server/moderation/hide';
import { banMember, unbanMember } from '@/server/members/bans';
import { withdrawMember } from '@/server/accounts/withdrawal';
import { deliver, deliverEndedBans } from '@/server/notifications/deliver';
import { listNotifications, pruneNotifications, type NotificationItem } from '@/server/notifications/notifications';
import { notificationSentence } from '@/server/notifications/notification-text';
import { translator } from '@/i18n';
import { LanguageSchema } from '@/schemas/channel';
import {
	LIKE_RAISE_INTERVAL_MS,
	MENTIONS_NOTIFIED,
	NOTIFICATIONS_KEPT,
	PUSH_INTERVAL_MS,
	SENDER_NOTIFICATIONS_PER_HOUR,
	WATCHERS_PER_MESSAGE,
	WATCHES_KEPT,
} from '@/lib/notification-kinds';
import { retryDelaySeconds } from '@/server/notifications/consumer';
import type { SessionMember } from '@/server/sign-in/sessions';

const CHANNEL = 1;
const BOARD = 12;
const ADMIN = 1001;
const API = memberApi();

type Demo = DemoMember;
let members: Demo[];
let privateBoard: number;

beforeAll(async () => {
	members = await plainMembers(CHANNEL, 40);
	privateBoard = (await env.DB.prepare('SELECT id FROM boards WHERE channel_id = ?1 AND is_public = 0 ORDER BY id LIMIT 1')
		.bind(CHANNEL)
		.first<{ id: number }>())!.id;
	// Whatever the seed sent is not this file's.
	takeSentNotifications();
});

const session = (member: Demo | number, role: SessionMember['role'] = 'MEMBER'): SessionMember =>
	sessionOf(typeof member === 'number' ? { id: member, nickname: `member ${member}` } : member, role);

const body = (text: string) => ({ type: 'doc' as const, blocks: [{ type: 'paragraph' as const, children: [{ text }] }] });

async function post(author: Demo, text = 'A post', boardId = BOARD): Promise<number> {
	const { postId } = await createPost(
		env.DB,
		CHANNEL,
		session(author),
		{
			boardId,
			subjectId: null,
			title: `Post of ${author.nickname}`,
			content: body(text),
			isPrivate: false,
			isNotice: false,
			requestId: crypto.randomUUID(),
		},
		Date.now(),
	);
	return postId;
}

async function comment(author: Demo, postId: number, content: string, parentId?: number, role: SessionMember['role'] = 'MEMBER'): Promise<number> {
	const { comment: written } = await createComment(
		env.DB,
		CHANNEL,
		session(author, role),
		postId,
		{ content, ...(parentId ? { parentId } : {}) },
		Date.now(),
	);
	return written.commentId;
}

interface Stored {
	kind: string;
	post_id: number | null;
	comment_id: number | null;
	actor_id: number | null;
}

async function notificationsOf(member: Demo | number): Promise<Stored[]> {
	const id = typeof member === 'number' ? member : member.id;
	const { results } = await env.DB.prepare('SELECT kind, post_id, comment_id, actor_id FROM notifications WHERE member_id = ?1 ORDER BY id')
		.bind(id)
		.all<Stored>();
	return results;
}

async function unread(member: Demo): Promise<number> {
	return (await env.DB.prepare('SELECT unread_notifications AS n FROM members WHERE id = ?1').bind(member.id).first<{ n: number }>())!.n;
}

async function clear(...list: Demo[]): Promise<void> {
	await env.DB.batch(
		list.flatMap((member) => [
			env.DB.prepare('DELETE FROM notifications WHERE member_id = ?1').bind(member.id),
			env.DB.prepare('UPDATE members SET unread_notifications = 0, notification_count = 0, notifications_off = 0 WHERE id = ?1').bind(member.id),
		]),
	);
}

/** What the notifications list says of `item`, in each of the four languages. */
const sentences = (item: NotificationItem) =>
	Object.fromEntries(
		LanguageSchema.options.map((language) => [
			language,
			notificationSentence(
				{ kind: item.kind, actor: item.actor?.nickname, others: item.others, target: item.target, endsAt: item.endsAt, mentionIn: item.mentionIn },
				translator(language),
				language,
			),
		]),
	);

async function api(method: string, path: string, member: Demo | number, bodyValue?: unknown): Promise<Answer> {
	const cookie = await signIn(typeof member === 'number' ? member : member.id);
	return call(`${API}${path}`, { method, cookie, ...(bodyValue === undefined ? {} : { body: bodyValue }) });
}

describe('who is told of a comment', () => {
	it(`a comment on A's post that mentions A is one unread notification saying both; the commenter is not told; a second delivery writes nothing`, async () => {
		const [a, b] = members as [Demo, Demo];
		await clear(a, b);
		const postId = await post(a);
		takeSentNotifications();
		const commentId = await comment(b, postId, `Nice one @${a.nickname}! and @${b.nickname}`);
		const sent = takeSentNotifications();
		expect(sent).toEqual([{ v: 1, type: 'comment', channelId: CHANNEL, commentId }]);
		const recorded = recordingDb();
		const first = await deliver(recorded.db, sent[0] as never, Date.now());
		// One recipient: the notification row with its three index entries, and the members row.
		expect(first.rowsWritten).toBeLessThanOrEqual(5);
		expect(await notificationsOf(a)).toEqual([{ kind: 'MENTION', post_id: postId, comment_id: commentId, actor_id: b.id }]);
		expect(await unread(a)).toBe(1);
		expect(await notificationsOf(b)).toEqual([]);
		const [item] = (await listNotifications(env.DB, CHANNEL, session(a), null)).items;
		expect(item).toMatchObject({ kind: 'MENTION', unread: true, mentionIn: 'POST' });
		expect(sentences(item!)).toEqual({
			en: `${b.nickname} mentioned you in a comment on your post`,
			ja: `${b.nickname}さんがあなたの投稿へのコメントであなたをメンションしました`,
			ko: `${b.nickname}님이 내 글에 남긴 댓글에서 나를 멘션했습니다`,
			zh: `${b.nickname} 在您文章的留言中提及了您`,
		});
		// At least once: the same message again (through the queue's consumer).
		const again = await deliverNotifications(sent.map((message) => ({ body: message, id: 'the-message' })));
		expect(again.results[0]).toMatchObject({ explicitAcks: ['the-message'], retryMessages: [] });
		expect((await deliver(recordingDb().db, sent[0] as never, Date.now())).rowsWritten).toBe(0);
		expect(await notificationsOf(a)).toHaveLength(1);
		expect(await unread(a)).toBe(1);
	});

	it(`a reply that mentions the member it answers is one notification, "mentioned you in a reply"`, async () => {
		const [a, b, c] = members as [Demo, Demo, Demo];
		await clear(a, b, c);
		const postId = await post(a);
		const first = await comment(b, postId, 'First');
		const reply = await comment(c, postId, `@${b.nickname} agreed`, first);
		await deliverNotifications();
		expect((await notificationsOf(b)).map((n) => [n.kind, n.comment_id])).toEqual([['MENTION', reply]]);
		expect(await unread(b)).toBe(1);
		const [item] = (await listNotifications(env.DB, CHANNEL, session(b), null)).items;
		expect(sentences(item!)).toEqual({
			en: `${c.nickname} mentioned you in a reply`,
			ja: `${c.nickname}さんが返信であなたをメンションしました`,
			ko: `${c.nickname}님이 답글에서 나를 멘션했습니다`,
			zh: `${c.nickname} 在回覆中提及了您`,
		});
	});

	it(`past the sender's cap of mentions the post's author is still told of the comment, once, as a comment`, async () => {
		const [a, b] = members as [Demo, Demo];
		await clear(a, b);
		const postId = await post(a);
		// The sender's SENDER_NOTIFICATIONS_PER_HOUR mentions of A in the last hour, as rows.
		const now = Date.now();
		await env.DB.batch(
			Array.from({ length: SENDER_NOTIFICATIONS_PER_HOUR }, (_, i) =>
				env.DB.prepare(
					`INSERT INTO notifications (channel_id, member_id, kind, dedupe_key, actor_id, post_id, comment_id, board_id, created_at, updated_at)
					 VALUES (?1, ?2, 'MENTION', ?3, ?4, ?5, NULL, ?6, ?7, ?7)`,
				).bind(CHANNEL, a.id, `earlier:${i}`, b.id, postId, BOARD, now - 1000),
			),
		);
		const commentId = await comment(b, postId, `Again @${a.nickname}`);
		await deliverNotifications();
		expect((await notificationsOf(a)).filter((n) => n.comment_id === commentId).map((n) => n.kind)).toEqual(['COMMENT']);
	});

	it(`a reply tells the answered comment's author (REPLY) and the post's author (COMMENT); the post's author answered is told once`, async () => {
		const [a, b, c] = members as [Demo, Demo, Demo];
		await clear(a, b, c);
		const postId = await post(a);
		const first = await comment(b, postId, 'First');
		const reply = await comment(c, postId, 'Answer', first);
		const authorReply = await comment(c, postId, 'To the author', await comment(a, postId, 'The author speaks'));
		await deliverNotifications();
		expect((await notificationsOf(b)).map((n) => [n.kind, n.comment_id])).toEqual([['REPLY', reply]]);
		expect((await notificationsOf(a)).map((n) => [n.kind, n.comment_id])).toEqual([
			['COMMENT', first],
			['COMMENT', reply],
			['REPLY', authorReply],
		]);
	});

	it('an edit tells only the members it newly mentions', async () => {
		const [a, b, c, d] = members as [Demo, Demo, Demo, Demo];
		await clear(a, b, c, d);
		const postId = await post(a);
		const commentId = await comment(b, postId, `Hi @${c.nickname}`);
		await deliverNotifications();
		await editComment(env.DB, CHANNEL, session(b), postId, commentId, { content: `Hi @${c.nickname} and @${d.nickname}` }, Date.now());
		await deliverNotifications();
		expect((await notificationsOf(c)).map((n) => n.kind)).toEqual(['MENTION']);
		expect((await notificationsOf(d)).map((n) => n.kind)).toEqual(['MENTION']);
		expect((await notificationsOf(a)).map((n) => n.kind)).toEqual(['COMMENT']);
	});

	it(`at most ${MENTIONS_NOTIFIED} members of one comment are told; the rest still render as links`, async () => {
		const [a, b] = members as [Demo, Demo];
		const mentioned = members.slice(2, 2 + MENTIONS_NOTIFIED + 3);
		await clear(a, b, ...mentioned);
		const postId = await post(a);
		const { comment: written } = await createComment(
			env.DB,
			CHANNEL,
			session(b),
			postId,
			{ content: mentioned.map((member) => `@${member.nickname}`).join(' ') },
			Date.now(),
		);
		expect(written.mentions).toHaveLength(mentioned.length);
		await deliverNotifications();
		const told = await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE kind = 'MENTION' AND comment_id = ?1")
			.bind(written.commentId)
			.first<{ n: number }>();
		expect(told?.n).toBe(MENTIONS_NOTIFIED);
	});
});

describe('the privacy rule', () => {
	it('a mention in a private board tells nobody who cannot read it, but tells an administrator', async () => {
		const [a, b] = members as [Demo, Demo];
		await clear(a, b);
		const admin = (await env.DB.prepare('SELECT id, nickname FROM members WHERE id = ?1').bind(ADMIN).first<Demo>())!;
		await env.DB.prepare('DELETE FROM notifications WHERE member_id = ?1').bind(ADMIN).run();
		const { postId } = await createPost(
			env.DB,
			CHANNEL,
			session(admin, 'ADMIN'),
			{
				boardId: privateBoard,
				subjectId: null,
				title: 'Staff only',
				content: body(`@${a.nickname} @${admin.nickname}`),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
			Date.now(),
		);
		await comment(admin, postId, `@${b.nickname} see this`, undefined, 'ADMIN');
		await deliverNotifications();
		expect(await notificationsOf(a)).toEqual([]);
		expect(await notificationsOf(b)).toEqual([]);
		// The administrator mentioned themself: nobody is told of their own words.
		expect(await notificationsOf(ADMIN)).toEqual([]);
	});

	it('a notification whose post was hidden since shows neither title nor text, and links nowhere', async () => {
		const [a, b] = members as [Demo, Demo];
		await clear(a, b);
		const postId = await post(a);
		const commentId = await comment(b, postId, 'A secret to be hidden');
		await deliverNotifications();
		const before = await listNotifications(env.DB, CHANNEL, session(a), null);
		expect(before.items[0]).toMatchObject({ kind: 'COMMENT', post: { postId }, commentId, excerpt: 'A secret to be hidden' });
		await hidePost(env.DB, CHANNEL, session(ADMIN, 'ADMIN'), postId);
		const after = await listNotifications(env.DB, CHANNEL, session(a), null);
		const stale = after.items.find((item) => item.kind === 'COMMENT');
		expect(stale).toMatchObject({ post: null, commentId: null, excerpt: null });
		expect(JSON.stringify(after)).not.toContain('secret');
		// The author is told of the hide, never by whom.
		await deliverNotifications();
		expect((await notificationsOf(a)).find((n) => n.kind === 'HIDDEN')).toMatchObject({ post_id: postId, actor_id: null });
	});

	it('a banned, withdrawn or muted member is not told; withdrawal removes what a member had', async () => {
		const [a, b, c, d] = members.slice(4) as [Demo, Demo, Demo, Demo];
		await clear(a, b, c, d);
		const postId = await post(a);
		await banMember(env.DB, CHANNEL, b.id, { kind: 'TEMPORARY', endsAt: Date.now() + 60_000, reason: '' });
		await env.DB.prepare('UPDATE members SET notifications_off = 4 WHERE id = ?1').bind(c.id).run(); // MENTION off
		await comment(d, postId, `@${b.nickname} @${c.nickname}`);
		await deliverNotifications();
		expect((await notificationsOf(b)).map((n) => n.kind)).toEqual(['BAN']);
		expect(await notificationsOf(c)).toEqual([]);
		await unbanMember(env.DB, CHANNEL, b.id);
		await deliverNotifications();
		expect((await notificationsOf(b)).map((n) => n.kind)).toEqual(['BAN', 'BAN_END']);
		await withdrawMember(env.DB, CHANNEL, a.id);
		expect(await notificationsOf(a)).toEqual([]);
		await comment(d, postId, 'After the author left');
		await deliverNotifications();
		expect(await notificationsOf(a)).toEqual([]);
	});

	it('the cron tells a member whose temporary ban ended, once', async () => {
		const member = members[9]!;
		await clear(member);
		const now = Date.now();
		await env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (?1, ?2, 'TEMPORARY', ?3, '', ?4)")
			.bind(CHANNEL, member.id, now - 1000, now - 100_000)
			.run();
		expect(await deliverEndedBans(env.DB, now, now - 3_600_000)).toBe(1);
		expect(await deliverEndedBans(env.DB, now, now - 3_600_000)).toBe(0);
		expect((await notificationsOf(member)).map((n) => n.kind)).toEqual(['BAN_END']);
	});
});

describe('likes', () => {
	it('are one notification per post that a new liker raises again; a repeated like or liker changes nothing', async () => {
		const [a, b, c, d] = members.slice(10) as [Demo, Demo, Demo, Demo];
		await clear(a, b, c, d);
		const postId = await post(a);
		await likePost(env.DB, CHANNEL, session(b), postId, Date.now());
		await likePost(env.DB, CHANNEL, session(c), postId, Date.now());
		await deliverNotifications();
		expect(await notificationsOf(a)).toEqual([{ kind: 'LIKE', post_id: postId, comment_id: null, actor_id: c.id }]);
		expect(await unread(a)).toBe(1);
		const listed = await listNotifications(env.DB, CHANNEL, session(a), null);
		expect(listed.items[0]).toMatchObject({ kind: 'LIKE', actor: { userId: c.id }, others: 1 });
		// Read; the same liker again (unlike, like) does not raise it.
		await api('POST', `/notifications/${listed.items[0]!.notificationId}/read`, a);
		expect(await unread(a)).toBe(0);
		await unlikePost(env.DB, CHANNEL, session(c), postId);
		await likePost(env.DB, CHANNEL, session(c), postId, Date.now());
		await deliverNotifications();
		expect(await unread(a)).toBe(0);
		// A new liker does once the like's quiet interval is over, still one row (notification-bounds.test.ts: within it).
		await likePost(env.DB, CHANNEL, session(d), postId, Date.now());
		await deliverNotifications(undefined, { now: Date.now() + LIKE_RAISE_INTERVAL_MS });
		expect(await unread(a)).toBe(1);
		expect(await notificationsOf(a)).toEqual([{ kind: 'LIKE', post_id: postId, comment_id: null, actor_id: d.id }]);
		// A like taken back before its message arrived tells nobody.
		await clear(a);
		await likePost(env.DB, CHANNEL, session(b), await post(a), Date.now());
		const sent = takeSentNotifications();
		await unlikePost(env.DB, CHANNEL, session(b), (sent.at(-1) as { postId: number }).postId);
		await deliverNotifications(sent.map((message) => ({ body: message })));
		expect((await notificationsOf(a)).filter((n) => n.kind === 'LIKE')).toEqual([]);
	});
});

describe('watching', () => {
	it(`a board's watchers hear of its new posts, a post's of its comments; stopping stops it; an author unwatches their own post`, async () => {
		const [a, b, c] = members.slice(14) as [Demo, Demo, Demo];
		await clear(a, b, c);
		expect((await api('PUT', `/watches/boards/${BOARD}`, b)).body.content).toEqual({ watching: true });
		const postId = await post(a);
		await deliverNotifications();
		expect((await notificationsOf(b)).map((n) => [n.kind, n.post_id])).toEqual([['WATCHED_BOARD', postId]]);
		expect((await api('PUT', `/watches/posts/${postId}`, c)).body.content).toEqual({ watching: true });
		await comment(b, postId, 'Hello');
		await deliverNotifications();
		expect((await notificationsOf(c)).map((n) => n.kind)).toEqual(['WATCHED_POST']);
		expect((await notificationsOf(a)).map((n) => n.kind)).toEqual(['COMMENT']);
		// The author stops watching their post; the board's watcher stops watching the board.
		expect((await api('DELETE', `/watches/posts/${postId}`, a)).body.content).toEqual({ watching: false });
		expect((await api('DELETE', `/watches/boards/${BOARD}`, b)).body.content).toEqual({ watching: false });
		await comment(c, postId, 'Again');
		await post(a);
		await deliverNotifications();
		expect((await notificationsOf(a)).map((n) => n.kind)).toEqual(['COMMENT']);
		expect((await notificationsOf(b)).map((n) => n.kind)).toEqual(['WATCHED_BOARD']);
		const listed = await api('GET', '/watches', c);
		expect(listed.body.content).toEqual({ items: [{ target: 'POST', id: postId, title: `Post of ${a.nickname}`, boardId: BOARD }] });
	});

	it(`a private board cannot be watched by a member, nor another channel's post`, async () => {
		const member = members[20]!;
		expect((await api('PUT', `/watches/boards/${privateBoard}`, member)).code).toBe(-4041402);
		const otherChannelPost = (await env.DB.prepare('SELECT id FROM posts WHERE channel_id <> 1 ORDER BY id LIMIT 1').first<{ id: number }>())!.id;
		expect((await api('PUT', `/watches/posts/${otherChannelPost}`, member)).code).toBe(-4041403);
		expect((await env.DB.prepare('SELECT count(*) AS n FROM watches WHERE member_id = ?1').bind(member.id).first<{ n: number }>())?.n).toBe(0);
	});

	it(`one member keeps at most ${WATCHES_KEPT} watches: the next is refused and writes nothing; a return to the default needs no row`, async () => {
		const member = members[22]!;
		await env.DB.prepare(
			`WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < ${WATCHES_KEPT})
			 INSERT INTO watches (member_id, target, target_id, channel_id, watching, created_at) SELECT ?1, 'POST', 1000000 + v, 1, 1, v FROM n`,
		)
			.bind(member.id)
			.run();
		const refused = await api('PUT', `/watches/boards/${BOARD}`, member);
		expect(refused.code).toBe(-4091481);
		const count = async () =>
			(await env.DB.prepare('SELECT count(*) AS n FROM watches WHERE member_id = ?1').bind(member.id).first<{ n: number }>())?.n;
		expect(await count()).toBe(WATCHES_KEPT);
		// Stopping frees a place.
		await env.DB.prepare('DELETE FROM watches WHERE member_id = ?1 AND target_id = 1000001').bind(member.id).run();
		expect((await api('PUT', `/watches/boards/${BOARD}`, member)).body.content).toEqual({ watching: true });
		expect(await count()).toBe(WATCHES_KEPT); // The next tests count the board's watchers.
		await env.DB.prepare('DELETE FROM watches WHERE member_id = ?1').bind(member.id).run();
	});

	it(`a board with many watchers is told ${WATCHERS_PER_MESSAGE} a message, each message writing a bounded number of rows`, async () => {
		const [author] = members.slice(21) as [Demo];
		// 250 watchers of the board: demo members and members made for the test.
		const now = Date.now();
		const made = await env.DB.prepare(
			`WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 250)
			 INSERT INTO members (channel_id, nickname, role, provider, recent_provider, joined_at) SELECT 1, 'watcher' || v, 'MEMBER', 'GOOGLE', 'GOOGLE', ?1 FROM n RETURNING id`,
		)
			.bind(now)
			.all<{ id: number }>();
		const watchers = made.results.map((row) => row.id);
		await env.DB.prepare(
			`INSERT INTO watches (member_id, target, target_id, channel_id, watching, created_at) SELECT value, 'BOARD', ?1, 1, 1, ?2 FROM json_each(?3)`,
		)
			.bind(BOARD, now, JSON.stringify(watchers))
			.run();
		const postId = await post(author!);
		const sent = takeSentNotifications();
		const writes: number[] = [];
		let next: unknown[] = sent;
		while (next.length > 0) {
			const recorded = recordingDb();
			const result = await deliver(recorded.db, next[0] as never, Date.now());
			writes.push(result.rowsWritten);
			next = takeSentNotifications();
		}
		const told = await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE kind = 'WATCHED_BOARD' AND post_id = ?1")
			.bind(postId)
			.first<{ n: number }>();
		expect(told?.n).toBe(watchers.length);
		expect(writes).toHaveLength(Math.ceil(watchers.length / WATCHERS_PER_MESSAGE));
		// Each watcher: one notification row (with its two index entries) and one members row (the counters).
		const perWatcher = 4;
		for (const written of writes) expect(written).toBeLessThanOrEqual(WATCHERS_PER_MESSAGE * perWatcher);
		expect(writes.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(watchers.length * perWatcher);
	});
});

describe('the queue', () => {
	it('a message that fails is retried with a growing delay, and delivered later once', async () => {
		const [a, b] = members.slice(24) as [Demo, Demo];
		await clear(a, b);
		const postId = await post(a);
		await comment(b, postId, 'While the database is away');
		const [message] = takeSentNotifications().filter((sent) => (sent as { type: string }).type === 'comment');
		await env.DB.prepare('ALTER TABLE notifications RENAME TO notifications_away').run();
		let failed;
		try {
			failed = await deliverNotifications([{ body: message, id: 'failing', attempts: 3 }]);
		} finally {
			await env.DB.prepare('ALTER TABLE notifications_away RENAME TO notifications').run();
		}
		// Retried (the test pool does not record the delay it asks: retryDelaySeconds grows with the attempts).
		expect(failed.results[0]).toMatchObject({ explicitAcks: [], retryMessages: [{ msgId: 'failing' }] });
		expect([1, 2, 3, 4, 5, 9].map(retryDelaySeconds)).toEqual([2, 4, 8, 16, 32, 300]);
		expect(await notificationsOf(a)).toEqual([]);
		const retried = await deliverNotifications([{ body: message, id: 'failing', attempts: 4 }]);
		expect(retried.results[0]).toMatchObject({ explicitAcks: ['failing'] });
		expect((await notificationsOf(a)).map((n) => n.kind)).toEqual(['COMMENT']);
		expect(await unread(a)).toBe(1);
	});

	it('a message of an unknown shape is dropped (acknowledged), never retried', async () => {
		const result = await deliverNotifications([
			{ body: { v: 99, type: 'comment', channelId: 1, commentId: 1 }, id: 'future' },
			{ body: 'text', id: 'text' },
			{ body: { v: 1, type: 'nonsense', channelId: 1 }, id: 'nonsense' },
		]);
		expect(result.results[0]).toMatchObject({ explicitAcks: ['future', 'text', 'nonsense'], retryMessages: [] });
	});

	it('a message that keeps failing reaches the dead-letter queue, whose consumer keeps it for the operators', async () => {
		await env.DB.prepare('ALTER TABLE notifications RENAME TO notifications_away').run();
		try {
			const [a, b] = members.slice(26) as [Demo, Demo];
			const postId = await post(a);
			const commentId = await comment(b, postId, 'Doomed');
			// The probe queue: the product's consumer and a real dead-letter queue (vitest.config.ts), which takes
			// a message after one failed delivery; only a message the consumer asks to retry (not one it
			// acknowledges) gets there. The retry and its growing delay are checked on the consumer's answer (the test before).
			await env.NOTIFICATIONS_PROBE.send({ v: 1, type: 'comment', channelId: CHANNEL, commentId });
			await expect
				.poll(
					async () =>
						(await env.DB.prepare('SELECT body, attempts FROM notification_dead_letters').all<{ body: string; attempts: number }>()).results,
					{ timeout: 10_000, interval: 50 },
				)
				.toEqual([{ body: JSON.stringify({ v: 1, type: 'comment', channelId: CHANNEL, commentId }), attempts: 1 }]);
		} finally {
			await env.DB.prepare('ALTER TABLE notifications_away RENAME TO notifications').run();
		}
	});
});

describe('Web Push', () => {
	const { origin } = inject('push');

	async function browserSubscription(): Promise<{ endpoint: string; keys: { p256dh: string; auth: string } }> {
		const response = await fetch(`${origin}/subscriptions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
		return response.json();
	}

	it('a subscribed member gets each new notification in their browser, decrypted as the browser would; a gone subscription is removed', async () => {
		const [a, b] = members.slice(33) as [Demo, Demo];
		await clear(a, b);
		const subscription = await browserSubscription();
		const subscribed = await api('POST', '/push/subscriptions', a, subscription);
		expect(subscribed.body.content, JSON.stringify(subscribed.body)).toEqual({ subscribed: true });
		const postId = await post(a);
		const commentId = await comment(b, postId, 'Pushed along');
		await deliverNotifications();
		const received = await (await fetch(`${subscription.endpoint}/messages`)).json<{ data: unknown }[]>();
		expect(received.map((message) => message.data)).toEqual([
			{
				title: 'Starfall Odyssey Global',
				body: `${b.nickname} commented on your post`,
				url: `/starfall/global/posts/${postId}?commentId=${commentId}#comment-${commentId}`,
				tag: expect.stringMatching(/^notification-\d+$/),
			},
		]);
		// The browser dropped the subscription: the next push (a minute later: one a minute) meets 410 and the row goes.
		await fetch(subscription.endpoint, { method: 'DELETE' });
		await comment(b, postId, 'Pushed again');
		await deliverNotifications(undefined, { now: Date.now() + PUSH_INTERVAL_MS });
		expect((await env.DB.prepare('SELECT count(*) AS n FROM push_subscriptions WHERE member_id = ?1').bind(a.id).first<{ n: number }>())?.n).toBe(0);
	});
});

describe(`the member's API`, () => {
	it(`lists newest first by keyset, counts, opens one, marks all read; another member's is not found`, async () => {
		const [a, b] = members.slice(28) as [Demo, Demo];
		await clear(a, b);
		const postId = await post(a);
		for (let i = 0; i < 23; i += 1) await comment(b, postId, `Comment ${i}`);
		await deliverNotifications();
		expect((await api('GET', '/notifications/unread', a)).body.content).toEqual({ unread: 23 });
		const first = await api('GET', '/notifications', a);
		const page1 = first.body.content as { items: { notificationId: number; excerpt: string; unread: boolean }[]; next: string; unread: number };
		expect(page1.items).toHaveLength(20);
		expect(page1.items[0]!.excerpt).toBe('Comment 22');
		const page2 = (await api('GET', `/notifications?before=${page1.next}`, a)).body.content as typeof page1;
		expect(page2.items.map((item) => item.excerpt)).toEqual(['Comment 2', 'Comment 1', 'Comment 0']);
		expect(page2.next).toBeNull();
		expect((await api('POST', `/notifications/${page1.items[0]!.notificationId}/read`, a)).body.content).toEqual({ unread: 22 });
		// Opening it again changes nothing.
		expect((await api('POST', `/notifications/${page1.items[0]!.notificationId}/read`, a)).body.content).toEqual({ unread: 22 });
		expect((await api('POST', `/notifications/${page1.items[0]!.notificationId}/read`, b)).code).toBe(-4041411);
		expect((await api('POST', '/notifications/read-all', a)).body.content).toEqual({ unread: 0 });
		const after = (await api('GET', '/notifications', a)).body.content as typeof page1;
		expect(after.items.every((item) => !item.unread)).toBe(true);
		expect(after.unread).toBe(0);
		// A new one after "mark all read" is unread.
		await comment(b, postId, 'Later');
		await deliverNotifications();
		expect((await api('GET', '/notifications/unread', a)).body.content).toEqual({ unread: 1 });
		expect((await api('GET', '/notifications?before=x', a)).code).toBe(-4001400);
	});

	it('settings turn a kind off and on', async () => {
		const member = members[30]!;
		const saved = await api('PUT', '/notifications/settings', member, { settings: { LIKE: false, MENTION: false } });
		expect(saved.body.content).toEqual({
			settings: { COMMENT: true, REPLY: true, MENTION: false, LIKE: false, WATCHED: true, MODERATION: true, BAN: true },
		});
		const again = await api('PUT', '/notifications/settings', member, { settings: { LIKE: true } });
		expect((again.body.content as { settings: Record<string, boolean> }).settings).toMatchObject({ LIKE: true, MENTION: false });
		expect((await api('PUT', '/notifications/settings', member, { settings: { SPAM: true } })).code).toBe(-4001400);
		expect((await api('PUT', '/notifications/settings', member, { settings: { LIKE: 'yes' } })).code).toBe(-4001400);
	});

	it('suggests members by the start of their nickname, any case, Korean included', async () => {
		const member = members[31]!;
		const target = members[5]!;
		const answer = await api('GET', `/members/suggest?q=${encodeURIComponent(target.nickname.slice(0, 2).toUpperCase())}`, member);
		expect((answer.body.content as { members: { userId: number }[] }).members.map((m) => m.userId)).toContain(target.id);
		const korean = await env.DB.prepare(
			"SELECT member_id AS id, nickname FROM nickname_claims WHERE channel_id = 2 AND released_at IS NULL AND nickname GLOB '*[가-힣]*' LIMIT 1",
		).first<{
			id: number;
			nickname: string;
		}>();
		if (korean) {
			const cookie = await signIn(korean.id, { id: 2, domain: 'starfall', slug: 'kr' });
			const found = await call(
				`${memberApi({ id: 2, domain: 'starfall', slug: 'kr' })}/members/suggest?q=${encodeURIComponent(korean.nickname.slice(0, 1))}`,
				{ cookie },
			);
			expect((found.body.content as { members: { userId: number }[] }).members.map((m) => m.userId)).toContain(korean.id);
		}
		expect((await api('GET', '/members/suggest', member)).code).toBe(-4001400);
		expect((await call(`${API}/members/suggest?q=ab`)).code).toBe(-4011401);
	});

	it(`the cron keeps the newest ${NOTIFICATIONS_KEPT} of a member and sets the counters from them`, async () => {
		const member = members[32]!;
		await clear(member);
		await env.DB.prepare(
			`WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < ${NOTIFICATIONS_KEPT + 30})
			 INSERT INTO notifications (channel_id, member_id, kind, dedupe_key, created_at, updated_at) SELECT 1, ?1, 'LIKE', 'k' || v, v, v FROM n`,
		)
			.bind(member.id)
			.run();
		await env.DB.prepare('UPDATE members SET notification_count = ?2, unread_notifications = ?2 WHERE id = ?1')
			.bind(member.id, NOTIFICATIONS_KEPT + 30)
			.run();
		expect(await pruneNotifications(env.DB)).toBe(1);
		const left = await env.DB.prepare('SELECT count(*) AS n, min(updated_at) AS oldest FROM notifications WHERE member_id = ?1')
			.bind(member.id)
			.first<{ n: number; oldest: number }>();
		expect(left).toEqual({ n: NOTIFICATIONS_KEPT, oldest: 31 });
		expect(await unread(member)).toBe(NOTIFICATIONS_KEPT);
		expect(await pruneNotifications(env.DB)).toBe(0);
	});
});

describe('what a moderated member is told (docs/reference/moderation.md#what-a-moderated-member-is-told)', () => {
	let cast: Demo[];
	beforeAll(async () => {
		// The last plain members whose nickname can be mentioned: the tests before this block use the first 40.
		const claimed = await env.DB.prepare('SELECT member_id AS id FROM nickname_claims WHERE channel_id = ?1 AND released_at IS NULL')
			.bind(CHANNEL)
			.all<{ id: number }>();
		const mentionable = new Set(claimed.results.map((row) => row.id));
		cast = (await plainMembers(CHANNEL, 1000)).filter((member) => mentionable.has(member.id)).slice(-7);
	});
	const admin = () => session(ADMIN, 'ADMIN');

	it("a hide's notification names the author's own post or comment and the administrator's reason", async () => {
		const [a, b] = cast as [Demo, Demo];
		await clear(a, b);
		const postId = await post(a, 'Buy cheap gold');
		const commentId = await comment(b, postId, 'My own words that were hidden');
		await deliverNotifications();
		await clear(a, b);
		await hidePost(env.DB, CHANNEL, admin(), postId, { reason: 'Advertising is not allowed in this board.' });
		await hideComment(env.DB, CHANNEL, admin(), commentId, { reason: '' });
		await deliverNotifications();
		const [ofPost] = (await listNotifications(env.DB, CHANNEL, session(a), null)).items;
		expect(ofPost).toMatchObject({
			kind: 'HIDDEN',
			target: 'POST',
			post: null,
			moderated: { title: `Post of ${a.nickname}`, excerpt: null, reason: 'Advertising is not allowed in this board.', automatic: false },
		});
		// The comment's author reads their own words, not the hidden post's title (they may not read the post now).
		const [ofComment] = (await listNotifications(env.DB, CHANNEL, session(b), null)).items;
		expect(ofComment).toMatchObject({
			kind: 'HIDDEN',
			target: 'COMMENT',
			moderated: { title: null, excerpt: 'My own words that were hidden', reason: null, automatic: false },
		});
		// The automatic hide says so, with no administrator's reason.
		const other = await post(a, 'Reported post');
		await autoHide(env.DB, CHANNEL, { type: 'POST', id: other });
		await deliverNotifications();
		const [automatic] = (await listNotifications(env.DB, CHANNEL, session(a), null)).items;
		expect(automatic).toMatchObject({ kind: 'HIDDEN', moderated: { title: `Post of ${a.nickname}`, reason: null, automatic: true } });
		expect(notificationSentence({ ...automatic!, actor: undefined, automatic: true }, translator('en'), 'en')).toBe(
			'Your post was hidden after reports from members',
		);
	});

	it("hiding a spam comment removes its notifications from the lists and the unread counts, and writes only that comment's rows", async () => {
		const [author, watcher, mentioned, spammer, other] = cast.slice(2) as [Demo, Demo, Demo, Demo, Demo];
		await clear(author, watcher, mentioned, spammer, other);
		const postId = await post(author);
		await env.DB.prepare("INSERT INTO watches (member_id, target, target_id, channel_id, watching, created_at) VALUES (?1, 'POST', ?2, ?3, 1, 0)")
			.bind(watcher.id, postId, CHANNEL)
			.run();
		const kept = await comment(other, postId, 'A real answer');
		const spam = await comment(spammer, postId, `@${mentioned.nickname} cheap gold at spam.example`);
		await deliverNotifications();
		// What each holds of this post's comments (members of the tests before may also watch the board, and hear of the post).
		const ofComments = async (member: Demo) =>
			(await notificationsOf(member)).filter((n) => n.post_id === postId && n.comment_id !== null).map((n) => [n.kind, n.comment_id]);
		const counters = async () =>
			(
				await env.DB.prepare('SELECT unread_notifications AS unread, notification_count AS count FROM members WHERE id IN (?1, ?2, ?3) ORDER BY id')
					.bind(author.id, watcher.id, mentioned.id)
					.all<{ unread: number; count: number }>()
			).results;
		expect(await ofComments(author)).toEqual([
			['COMMENT', kept],
			['COMMENT', spam],
		]);
		expect(await ofComments(watcher)).toEqual([
			['WATCHED_POST', kept],
			['WATCHED_POST', spam],
		]);
		expect(await ofComments(mentioned)).toEqual([['MENTION', spam]]);
		const before = { counters: await counters(), rows: (await env.DB.prepare('SELECT count(*) AS n FROM notifications').first<{ n: number }>())!.n };

		await hideComment(env.DB, CHANNEL, admin(), spam, { reason: 'Spam' });
		const [event] = takeSentNotifications();
		const delivered = await deliver(env.DB, event as Parameters<typeof deliver>[1], Date.now());
		// The comment's three notifications to others leave (COMMENT, WATCHED_POST, MENTION), the spammer is told of the hide.
		expect(await ofComments(author)).toEqual([['COMMENT', kept]]);
		expect((await listNotifications(env.DB, CHANNEL, session(author), null)).items.map((item) => item.commentId)).not.toContain(spam);
		expect(await ofComments(watcher)).toEqual([['WATCHED_POST', kept]]);
		expect(await ofComments(mentioned)).toEqual([]);
		expect(await counters()).toEqual(before.counters.map(({ unread, count }) => ({ unread: unread - 1, count: count - 1 })));
		expect((await notificationsOf(spammer)).map((n) => n.kind)).toEqual(['HIDDEN']);
		expect((await env.DB.prepare('SELECT count(*) AS n FROM notifications').first<{ n: number }>())!.n).toBe(before.rows - 3 + 1);
		// Bound: the rows of that one comment's notifications (3, with up to 3 index entries each) and
		// their recipients' members rows (3), plus the hide's own notification (row, 2 entries, counter):
		// at most 3 × 4 + 3 + 4 = 19 rows, however many notifications the community holds.
		expect(delivered.rowsWritten).toBeGreaterThan(0);
		expect(delivered.rowsWritten).toBeLessThanOrEqual(19);
		// Delivered again: nothing is left to remove, nothing is written.
		expect((await deliver(env.DB, event as Parameters<typeof deliver>[1], Date.now())).rowsWritten).toBe(0);
	});
});
