/**
 * The bounds of what one member (or a few) can make the site send another (docs/reference/notifications.md#bounds),
 * through the queue's consumer at times the tests choose: the email budget and its digest (read
 * back from the local mail capture), the per-sender cap of mentions and replies, one push a minute
 * (read back from the local push service), a like's quiet interval, the per-board author rate,
 * the push services a subscription may name, a subscription's move to another member, and the @
 * suggestions without banned members.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { env } from 'cloudflare:workers';
import {
	call,
	memberApi,
	plainMembers,
	queryPlan,
	recordingDb,
	sessionOf,
	signIn,
	takeSentNotifications,
	type Answer,
	type DemoMember,
} from './harness';
import { createComment } from '@/server/comments/writing';
import { createPost, deletePost } from '@/server/posts/writing';
import { likePost, unlikePost } from '@/server/likes/likes';
import { banMember, unbanMember } from '@/server/members/bans';
import { withdrawMember } from '@/server/accounts/withdrawal';
import { deliver } from '@/server/notifications/deliver';
import { SUGGESTION_WINDOW, suggestMembers } from '@/server/notifications/mentions';
import type { NotificationEvent } from '@/server/notifications/send';
import type { EmailSetup } from '@/server/notifications/email';
import { sendEmailDigests } from '@/server/notifications/email-sending';
import { mailerFromEnv } from '@/server/notifications/mailer';
import { pushDelivered, subscribePush } from '@/server/notifications/push-delivery';
import { pushSetupFromEnv, type PushSetup } from '@/server/notifications/push';
import {
	BOARD_POSTS_NOTIFIED_PER_HOUR,
	EMAILS_PER_HOUR,
	LIKE_RAISE_INTERVAL_MS,
	NOTIFICATION_WINDOW_MS,
	PUSH_INTERVAL_MS,
	SENDER_NOTIFICATIONS_PER_HOUR,
} from '@/lib/notification-kinds';

const CHANNEL = 1;
const BOARD = 12;
const OTHER_BOARD = 13;
const API = memberApi();
const HOUR = NOTIFICATION_WINDOW_MS;
const MINUTE = 60_000;
/** The site's origin in the emails' links. */
const SITE = 'https://board.example';
const { origin: pushOrigin } = inject('push');
const { origin: mailOrigin, vars: mailVars } = inject('mail');

type Demo = DemoMember;
let members: Demo[];
let email: EmailSetup;
let push: PushSetup;

beforeAll(async () => {
	members = await plainMembers(CHANNEL, 40);
	email = { mailer: mailerFromEnv(mailVars)!, origin: SITE };
	push = pushSetupFromEnv(env)!;
	takeSentNotifications();
});

const body = (text: string) => ({ type: 'doc' as const, blocks: [{ type: 'paragraph' as const, children: [{ text }] }] });

async function post(author: Demo, at: number, boardId = BOARD): Promise<number> {
	const input = { boardId, subjectId: null, title: `Post of ${author.nickname}`, content: body('A post'), isPrivate: false, isNotice: false };
	return (await createPost(env.DB, CHANNEL, sessionOf(author), { ...input, requestId: crypto.randomUUID() }, at)).postId;
}

async function comment(author: Demo, postId: number, content: string, at: number, parentId?: number): Promise<number> {
	const { comment: written } = await createComment(env.DB, CHANNEL, sessionOf(author), postId, { content, ...(parentId ? { parentId } : {}) }, at);
	return written.commentId;
}

/** Delivers what the product sent as the queue's consumer would at `now` (with Web Push and email); answers the rows each message wrote. */
async function deliverAt(now: number): Promise<{ rowsWritten: number[]; pushed: number; emailed: number }> {
	const written = { rowsWritten: [] as number[], pushed: 0, emailed: 0 };
	for (let sent = takeSentNotifications(); sent.length > 0; sent = takeSentNotifications()) {
		for (const event of sent) {
			const result = await deliver(env.DB, event as NotificationEvent, now, push, email);
			written.rowsWritten.push(result.rowsWritten);
			written.pushed += result.pushed;
			written.emailed += result.emailed;
		}
	}
	return written;
}

async function count(sql: string, ...values: unknown[]): Promise<number> {
	return (await env.DB.prepare(sql)
		.bind(...values)
		.first<number>('n'))!;
}

const unread = (member: Demo) => count('SELECT unread_notifications AS n FROM members WHERE id = ?1', member.id);

async function mailTo(address: string): Promise<{ subject: string; text: string; headers: Record<string, string> }[]> {
	const response = await fetch(`${mailOrigin}/messages?to=${encodeURIComponent(address)}`);
	return ((await response.json()) as { messages: { subject: string; text: string; headers: Record<string, string> }[] }).messages;
}

/** Gives `member` a confirmed address of this run (the double opt-in is email.test.ts's). */
async function withAddress(member: Demo): Promise<string> {
	const address = `bounds.${member.id}.${crypto.randomUUID().slice(0, 8)}@example.com`;
	await env.DB.prepare('UPDATE members SET notification_email = ?2, notification_email_confirmed_at = 1 WHERE id = ?1')
		.bind(member.id, address)
		.run();
	return address;
}

interface BrowserSubscription {
	endpoint: string;
	keys: { p256dh: string; auth: string };
}

/** A new subscription at the local push service, as a browser's pushManager.subscribe() makes one. */
async function browserSubscription(): Promise<BrowserSubscription> {
	const response = await fetch(`${pushOrigin}/subscriptions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
	return response.json();
}

async function pushesTo(subscription: BrowserSubscription): Promise<number> {
	return (await (await fetch(`${subscription.endpoint}/messages`)).json<unknown[]>()).length;
}

async function api(method: string, path: string, member: Demo, bodyValue?: unknown): Promise<Answer> {
	return call(`${API}${path}`, { method, cookie: await signIn(member.id), ...(bodyValue === undefined ? {} : { body: bodyValue }) });
}

describe('email', () => {
	it(`12 mentions by three senders within a minute send ${EMAILS_PER_HOUR} emails (the hour's budget), then one digest of the rest after the hour`, async () => {
		const [author, reader, ...senders] = members.slice(0, 5) as [Demo, Demo, Demo, Demo, Demo];
		const address = await withAddress(reader);
		const t0 = Date.now();
		const postId = await post(author, t0);
		await deliverAt(t0);
		let emailed = 0;
		for (let i = 0; i < 12; i += 1) {
			// Four each: under the per-sender cap, so the budget is what bounds them.
			await comment(senders[i % 3]!, postId, `@${reader.nickname} look ${i}`, t0 + i * 5000);
			emailed += (await deliverAt(t0 + i * 5000)).emailed;
		}
		expect(emailed).toBe(EMAILS_PER_HOUR);
		expect(await mailTo(address)).toHaveLength(EMAILS_PER_HOUR);
		// The bell has every one of them.
		expect(await unread(reader)).toBe(12);

		// Another after the hour, before the cron's digest: it joins the digest instead of starting a new hour.
		await comment(senders[0]!, postId, `@${reader.nickname} later`, t0 + HOUR + MINUTE);
		expect((await deliverAt(t0 + HOUR + MINUTE)).emailed).toBe(0);

		// No digest while the hour lasts; one when it is over; none again.
		expect(await sendEmailDigests(env.DB, email, t0 + HOUR - 1)).toBe(0);
		expect(await sendEmailDigests(env.DB, email, t0 + HOUR + 2 * MINUTE)).toBe(1);
		expect(await sendEmailDigests(env.DB, email, t0 + HOUR + 3 * MINUTE)).toBe(0);
		const mail = await mailTo(address);
		expect(mail).toHaveLength(EMAILS_PER_HOUR + 1);
		const digest = mail.at(-1)!;
		expect(digest.subject).toBe('3 more replies and mentions in Starfall Odyssey Global');
		expect(digest.text).toContain(`${SITE}/starfall/global/mypage/notifications`);
		expect(digest.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
		expect(digest.headers['List-Unsubscribe']).toMatch(/^<https:\/\/board\.example\/starfall\/global\/email\/unsubscribe\?token=/);

		// A new hour starts with the next one.
		await comment(senders[1]!, postId, `@${reader.nickname} next hour`, t0 + HOUR + 4 * MINUTE);
		expect((await deliverAt(t0 + HOUR + 4 * MINUTE)).emailed).toBe(1);
	});

	it('the cron finds the members owed a digest by its partial index, and a member who turned email off gets none', async () => {
		const [reader] = members.slice(5) as [Demo];
		const now = Date.now();
		await env.DB.prepare('UPDATE members SET notification_emails_window = ?2, notification_emails_count = ?3 WHERE id = ?1')
			.bind(reader.id, now - 2 * HOUR, EMAILS_PER_HOUR + 4)
			.run();
		const recorded = recordingDb();
		expect(await sendEmailDigests(recorded.db, email, now)).toBe(0);
		const due = recorded.statements.find((statement) => statement.sql.startsWith('UPDATE members SET notification_emails_count = 0'))!;
		expect((await queryPlan(due)).join(' ')).toMatch(/members_email_digest_due/);
		expect(await count('SELECT notification_emails_count AS n FROM members WHERE id = ?1', reader.id)).toBe(0);
	});
});

describe('mentions and replies', () => {
	it(`one sender's 12 mentions and replies to a member within a minute notify at most ${SENDER_NOTIFICATIONS_PER_HOUR}; another sender still can; the next hour they can again`, async () => {
		const [author, reader, sender, another] = members.slice(6, 10) as [Demo, Demo, Demo, Demo];
		const t0 = Date.now();
		const postId = await post(author, t0);
		const readers = await comment(reader, postId, 'My comment', t0);
		await deliverAt(t0);
		const writes: number[] = [];
		for (let i = 0; i < 12; i += 1) {
			const at = t0 + i * 5000;
			// Half replies to the member's comment, half mentions: one cap for both.
			if (i % 2 === 0) await comment(sender, postId, `Answer ${i}`, at, readers);
			else await comment(sender, postId, `@${reader.nickname} see ${i}`, at);
			writes.push(...(await deliverAt(at)).rowsWritten);
		}
		const fromSender = () =>
			count("SELECT count(*) AS n FROM notifications WHERE member_id = ?1 AND actor_id = ?2 AND kind IN ('MENTION', 'REPLY')", reader.id, sender.id);
		expect(await fromSender()).toBe(SENDER_NOTIFICATIONS_PER_HOUR);
		expect(await unread(reader)).toBe(SENDER_NOTIFICATIONS_PER_HOUR);
		// The comments past the cap write nothing for the member (the post's author is told of each: COMMENT, not capped).
		expect(await count("SELECT count(*) AS n FROM notifications WHERE member_id = ?1 AND kind = 'COMMENT'", author.id)).toBe(13);

		await comment(another, postId, `@${reader.nickname} me too`, t0 + MINUTE);
		await deliverAt(t0 + MINUTE);
		expect(await count('SELECT count(*) AS n FROM notifications WHERE member_id = ?1 AND actor_id = ?2', reader.id, another.id)).toBe(1);

		await comment(sender, postId, `@${reader.nickname} an hour on`, t0 + HOUR + MINUTE);
		await deliverAt(t0 + HOUR + MINUTE);
		expect(await fromSender()).toBe(SENDER_NOTIFICATIONS_PER_HOUR + 1);

		// The count reads the partial index of the two kinds (migration 0027), not the member's every notification.
		await comment(sender, postId, `@${reader.nickname} once more`, t0 + HOUR + 2 * MINUTE);
		const recorded = recordingDb();
		for (const event of takeSentNotifications()) await deliver(recorded.db, event as NotificationEvent, t0 + HOUR + 2 * MINUTE);
		const mention = recorded.statements.find(
			(statement) => statement.sql.includes('INSERT INTO notifications') && statement.params.includes('MENTION'),
		)!;
		expect((await queryPlan(mention)).join(' ')).toMatch(/notifications_by_sender/);
	});
});

describe('Web Push', () => {
	it(`a member's browser gets at most one push a minute (PUSH_INTERVAL_MS = ${PUSH_INTERVAL_MS} ms); the bell counts every notification`, async () => {
		const [author, ...commenters] = members.slice(10, 16) as [Demo, ...Demo[]];
		const subscription = await browserSubscription();
		expect((await api('POST', '/push/subscriptions', author, subscription)).code).toBe(0);
		const t0 = Date.now();
		const postId = await post(author, t0);
		let pushed = 0;
		for (const [i, commenter] of commenters.entries()) {
			await comment(commenter, postId, `Comment ${i}`, t0 + i * 10_000);
			pushed += (await deliverAt(t0 + i * 10_000)).pushed;
		}
		expect(pushed).toBe(1);
		expect(await pushesTo(subscription)).toBe(1);
		expect(await unread(author)).toBe(commenters.length);
		// A minute after the last push, the next goes.
		await comment(commenters[0]!, postId, 'A minute on', t0 + PUSH_INTERVAL_MS);
		expect((await deliverAt(t0 + PUSH_INTERVAL_MS)).pushed).toBe(1);
		expect(await pushesTo(subscription)).toBe(2);
	});

	it(`6 like flips by two accounts within an hour send one push: a like's notification is raised at most once an hour (LIKE_RAISE_INTERVAL_MS)`, async () => {
		const [author, b, c, d] = members.slice(16, 20) as [Demo, Demo, Demo, Demo];
		const subscription = await browserSubscription();
		expect((await api('POST', '/push/subscriptions', author, subscription)).code).toBe(0);
		const t0 = Date.now();
		const postId = await post(author, t0);
		await deliverAt(t0);
		let pushed = 0;
		for (let i = 0; i < 6; i += 1) {
			// Two minutes apart: one push a minute would let each through.
			const at = t0 + i * 2 * MINUTE;
			const liker = i % 2 === 0 ? b : c;
			if (i >= 2) await unlikePost(env.DB, CHANNEL, sessionOf(liker), postId);
			await likePost(env.DB, CHANNEL, sessionOf(liker), postId, at);
			pushed += (await deliverAt(at)).pushed;
		}
		expect(pushed).toBe(1);
		expect(await pushesTo(subscription)).toBe(1);
		expect(await unread(author)).toBe(1);
		// One row, naming the latest liker.
		expect(await count("SELECT actor_id AS n FROM notifications WHERE member_id = ?1 AND kind = 'LIKE'", author.id)).toBe(c.id);
		// Once the interval is over, a new liker raises it again: still one row.
		await likePost(env.DB, CHANNEL, sessionOf(d), postId, t0 + LIKE_RAISE_INTERVAL_MS + MINUTE);
		expect((await deliverAt(t0 + LIKE_RAISE_INTERVAL_MS + MINUTE)).pushed).toBe(1);
		expect(await count("SELECT count(*) AS n FROM notifications WHERE member_id = ?1 AND kind = 'LIKE'", author.id)).toBe(1);
	});
});

describe('watched boards', () => {
	it(`an author's posts in one board tell its watchers at most ${BOARD_POSTS_NOTIFIED_PER_HOUR} times an hour; the later ones write no row`, async () => {
		const [watcher, author, another] = members.slice(20, 23) as [Demo, Demo, Demo];
		expect((await api('PUT', `/watches/boards/${BOARD}`, watcher)).code).toBe(0);
		expect((await api('PUT', `/watches/boards/${OTHER_BOARD}`, watcher)).code).toBe(0);
		const told = () => count("SELECT count(*) AS n FROM notifications WHERE member_id = ?1 AND kind = 'WATCHED_BOARD'", watcher.id);
		const t0 = Date.now();
		const writes: number[] = [];
		const posts: number[] = [];
		for (let i = 0; i < 5; i += 1) {
			posts.push(await post(author, t0 + i * MINUTE));
			writes.push(...(await deliverAt(t0 + i * MINUTE)).rowsWritten);
		}
		expect(await told()).toBe(BOARD_POSTS_NOTIFIED_PER_HOUR);
		// Each told watcher: one notification row with its two index entries and one members row; the rest: nothing.
		expect(writes.slice(0, BOARD_POSTS_NOTIFIED_PER_HOUR).every((written) => written > 0 && written <= 4)).toBe(true);
		expect(writes.slice(BOARD_POSTS_NOTIFIED_PER_HOUR)).toEqual([0, 0]);
		// Deleting a post gives no place back; another author and another board count apart.
		await deletePost(env.DB, CHANNEL, sessionOf(author), posts[0]!, t0 + 5 * MINUTE);
		await post(author, t0 + 6 * MINUTE);
		await deliverAt(t0 + 6 * MINUTE);
		expect(await told()).toBe(BOARD_POSTS_NOTIFIED_PER_HOUR);
		await post(another, t0 + 7 * MINUTE);
		await post(author, t0 + 8 * MINUTE, OTHER_BOARD);
		await deliverAt(t0 + 8 * MINUTE);
		expect(await told()).toBe(BOARD_POSTS_NOTIFIED_PER_HOUR + 2);
		// An hour after the author's last posts there, they tell the watchers again.
		await post(author, t0 + 6 * MINUTE + HOUR + 1);
		await deliverAt(t0 + 6 * MINUTE + HOUR + 1);
		expect(await told()).toBe(BOARD_POSTS_NOTIFIED_PER_HOUR + 3);
		// The count reads the author's posts in the board by their index.
		await post(author, t0 + 2 * HOUR);
		const recorded = recordingDb();
		for (const event of takeSentNotifications()) await deliver(recorded.db, event as NotificationEvent, t0 + 2 * HOUR);
		const facts = recorded.statements.find((statement) => statement.sql.includes('AS earlier'))!;
		expect((await queryPlan(facts)).join(' ')).toMatch(/posts_by_board_author/);
	});
});

describe('push subscriptions', () => {
	it('refuse an endpoint that is not a push service over https on port 443 (PushEndpointRefused), and write nothing', async () => {
		const member = members[24]!;
		const keys = {
			p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
			auth: 'tBHItJI5svbpez7KI4CCXg',
		};
		const subscriptions = () => count('SELECT count(*) AS n FROM push_subscriptions WHERE member_id = ?1', member.id);
		for (const endpoint of [
			'https://169.254.169.254/latest/meta-data',
			'https://10.0.0.1/push/1',
			'https://[fd00::1]:8443/push/1',
			'https://push.example/1',
			'https://fcm.googleapis.com:8443/fcm/send/1',
			'http://fcm.googleapis.com/fcm/send/1',
			'https://user:pass@fcm.googleapis.com/fcm/send/1',
			'javascript:alert(1)',
			'ftp://push.example/1',
			'not a url',
		]) {
			const answer = await api('POST', '/push/subscriptions', member, { endpoint, keys });
			expect([answer.status, answer.code], endpoint).toEqual([400, -4001482]);
		}
		expect(await subscriptions()).toBe(0);
		// This machine only with the local setting (the workers tests' Worker has it; a deployment does not).
		const local = await browserSubscription();
		await expect(subscribePush(env.DB, member.id, local, { ...push, allowLoopback: false }, Date.now())).rejects.toMatchObject({
			codeName: 'PushEndpointRefused',
		});
		expect(await subscriptions()).toBe(0);
		// The push services are taken; a member keeps the newest 10 browsers.
		for (const endpoint of [
			`https://updates.push.services.mozilla.com/wpush/v2/${member.id}`,
			`https://wns2-par02p.notify.windows.com/w/?token=${member.id}`,
			`https://web.push.apple.com/${member.id}`,
		]) {
			expect((await api('POST', '/push/subscriptions', member, { endpoint, keys })).code, endpoint).toBe(0);
		}
		for (let i = 0; i < 12; i += 1) {
			await api('POST', '/push/subscriptions', member, { endpoint: `https://fcm.googleapis.com/fcm/send/${member.id}-${i}`, keys });
		}
		const { results } = await env.DB.prepare('SELECT endpoint FROM push_subscriptions WHERE member_id = ?1 ORDER BY id')
			.bind(member.id)
			.all<{ endpoint: string }>();
		expect(results).toHaveLength(10);
		expect(results[0]?.endpoint).toBe(`https://fcm.googleapis.com/fcm/send/${member.id}-2`);
		const gone = await api('DELETE', '/push/subscriptions', member, { endpoint: `https://fcm.googleapis.com/fcm/send/${member.id}-2` });
		expect(gone.body.content).toEqual({ subscribed: false });
	});

	it('a stored endpoint the Worker may not send to is never fetched, and is removed', async () => {
		const [member, commenter] = members.slice(25, 27) as [Demo, Demo];
		// Kept before the local setting was turned off (or before the list of push services).
		const subscription = await browserSubscription();
		await env.DB.prepare('INSERT INTO push_subscriptions (member_id, endpoint, p256dh, auth, created_at) VALUES (?1, ?2, ?3, ?4, 0)')
			.bind(member.id, subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth)
			.run();
		const now = Date.now();
		const postId = await post(member, now);
		const commentId = await comment(commenter, postId, 'Hello', now);
		for (const event of takeSentNotifications()) await deliver(env.DB, event as NotificationEvent, now);
		expect(await pushDelivered(env.DB, [member.id], [`comment:${commentId}`], now, { ...push, allowLoopback: false })).toBe(0);
		expect(await pushesTo(subscription)).toBe(0);
		expect(await count('SELECT count(*) AS n FROM push_subscriptions WHERE member_id = ?1', member.id)).toBe(0);
	});

	it(`moves to another member only with the subscription's auth secret (the same browser); knowing the endpoint alone takes nothing`, async () => {
		const [owner, intruder] = members.slice(27, 29) as [Demo, Demo];
		const subscription = await browserSubscription();
		expect((await api('POST', '/push/subscriptions', owner, subscription)).code).toBe(0);
		const stored = () =>
			env.DB.prepare('SELECT member_id, p256dh, auth FROM push_subscriptions WHERE endpoint = ?1').bind(subscription.endpoint).first();
		const before = await stored();
		// The intruder's own keys: refused, nothing changes, and the owner's browser still gets the owner's pushes.
		const intruders = await browserSubscription();
		const refused = await api('POST', '/push/subscriptions', intruder, { endpoint: subscription.endpoint, keys: intruders.keys });
		expect([refused.status, refused.code]).toEqual([409, -4091484]);
		expect(await stored()).toEqual(before);
		expect(before).toMatchObject({ member_id: owner.id });
		// The same browser signed in as the other member sends the same secret: it moves.
		const moved = await api('POST', '/push/subscriptions', intruder, subscription);
		expect(moved.body.content).toEqual({ subscribed: true });
		expect(await stored()).toMatchObject({ member_id: intruder.id });
	});
});

describe('@ suggestions', () => {
	it('leave out a member under a ban (shown again once it is lifted) and a withdrawn member', async () => {
		const [asker, banned, leaving] = members.slice(30, 33) as [Demo, Demo, Demo];
		const suggested = async (member: Demo) => {
			const answer = await api('GET', `/members/suggest?q=${encodeURIComponent(member.nickname)}`, asker);
			return (answer.body.content as { members: { userId: number }[] }).members.map((m) => m.userId);
		};
		expect(await suggested(banned)).toContain(banned.id);
		await banMember(env.DB, CHANNEL, banned.id, { kind: 'TEMPORARY', endsAt: Date.now() + HOUR, reason: '' });
		expect(await suggested(banned)).not.toContain(banned.id);
		await unbanMember(env.DB, CHANNEL, banned.id);
		expect(await suggested(banned)).toContain(banned.id);
		await banMember(env.DB, CHANNEL, banned.id, { kind: 'PERMANENT', endsAt: null, reason: '' });
		expect(await suggested(banned)).not.toContain(banned.id);
		expect(await suggested(leaving)).toContain(leaving.id);
		await withdrawMember(env.DB, CHANNEL, leaving.id);
		expect(await suggested(leaving)).not.toContain(leaving.id);
	});

	it('read a bounded window for a one-character prefix, however many released claims share it', async () => {
		const [asker, renamer] = members.slice(33, 35) as [Demo, Demo];
		// 300 released claims starting with "z" (every rename and withdrawal leaves one), and one live claim after them.
		const released = Array.from({ length: 300 }, (_, i) => `(${CHANNEL}, 'zq${String(i).padStart(3, '0')}', 'Zq${i}', ${renamer.id}, 1, 2)`);
		await env.DB.prepare(
			`INSERT INTO nickname_claims (channel_id, nickname_key, nickname, member_id, claimed_at, released_at) VALUES ${released.join(', ')}`,
		).run();
		// The member's live claim is moved after them for the test (one live claim per member), and back at its end.
		const live = await env.DB.prepare(`SELECT nickname_key AS key, nickname FROM nickname_claims WHERE member_id = ?1 AND released_at IS NULL`)
			.bind(renamer.id)
			.first<{ key: string; nickname: string }>();
		await env.DB.prepare(`UPDATE nickname_claims SET nickname_key = 'zzlive', nickname = 'ZzLive' WHERE member_id = ?1 AND released_at IS NULL`)
			.bind(renamer.id)
			.run();
		try {
			const { db, statements } = recordingDb();
			for (const prefix of ['z', 'Z', 'ｚ', 'zz']) {
				expect((await suggestMembers(db, CHANNEL, 0, prefix, Date.now())).map((m) => m.nickname)).toContain('ZzLive');
			}
			expect((await suggestMembers(db, CHANNEL, 0, 'zq', Date.now())).length).toBe(0);
			// A window of SUGGESTION_WINDOW live claims of the prefix's index range: its index entries and
			// rows, their members and their ban probes, 4 × 32 rows at most; the released claims are never read.
			for (const statement of statements) expect(statement.rowsRead).toBeLessThanOrEqual(4 * SUGGESTION_WINDOW);
			// Through the API too, with a one-character query.
			const answer = await api('GET', `/members/suggest?q=z`, asker);
			expect((answer.body.content as { members: { nickname: string }[] }).members.map((m) => m.nickname)).toContain('ZzLive');
		} finally {
			await env.DB.prepare(`DELETE FROM nickname_claims WHERE channel_id = ?1 AND member_id = ?2 AND nickname_key LIKE 'zq%'`)
				.bind(CHANNEL, renamer.id)
				.run();
			await env.DB.prepare(`UPDATE nickname_claims SET nickname_key = ?2, nickname = ?3 WHERE member_id = ?1 AND released_at IS NULL`)
				.bind(renamer.id, live!.key, live!.nickname)
				.run();
		}
	});
});
