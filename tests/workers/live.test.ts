/**
 * Live threads (docs/reference/live-threads.md): the post's room hears a comment after its write
 * committed, once per socket and nothing of its text; a refused write publishes nothing and a failed
 * publish never fails the write; the member's room hears the notifications the consumer wrote; the
 * checks before the upgrade answer in the envelope (bad ids, another channel's post, a post the
 * reader may not read, a guest asking for a member's room, no upgrade); the bounds per address and
 * per room; the socket is server → client only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { api } from '@functions/api/app';
import { call, deliverNotifications, freshPost, GLOBAL, KOREAN, memberApi, publicApi, signIn } from './harness';
import { InvalidParameter, LiveConnectionLimit, LoginRequired, PostNotFound, CommentNotFound } from '@/lib/result-codes';
import { ADDRESS_HEADER, CLIENT_MESSAGE_CLOSE, MAX_SOCKETS_PER_ADDRESS, MAX_SOCKETS_PER_ROOM, type LiveMessage } from '@/server/live/live-room';
import { postRoomName, room } from '@/server/live/rooms';

const AUTHOR = 1007;
const WRITER = 1010;

/** A socket opened through the API as a browser would, with every message it got. */
interface Opened {
	socket: WebSocket;
	messages: LiveMessage[];
}

const sockets: WebSocket[] = [];
afterEach(() => {
	for (const socket of sockets.splice(0)) socket.close(1000);
});

/** Opens `url` as a WebSocket from `address`; fails the test unless the API upgraded it. */
async function open(url: string, { address = 'live-test', cookie }: { address?: string; cookie?: string } = {}): Promise<Opened> {
	const response = await api.request(url, {
		headers: { Upgrade: 'websocket', 'cf-connecting-ip': address, ...(cookie ? { cookie } : {}) },
	});
	if (response.status !== 101) expect.fail(`${url}: ${response.status} ${await response.text()}`);
	const socket = response.webSocket!;
	socket.accept();
	sockets.push(socket);
	const messages: LiveMessage[] = [];
	// The keep-alive's answer ("pong") is the runtime's, not a message of the room.
	socket.addEventListener('message', (event) => event.data !== 'pong' && messages.push(JSON.parse(event.data as string) as LiveMessage));
	return { socket, messages };
}

/** The envelope's code of a refused upgrade. */
async function refusedCode(url: string, headers: Record<string, string> = {}): Promise<number> {
	const answer = await call(url, { headers: { Upgrade: 'websocket', ...headers } });
	expect(answer.status).not.toBe(101);
	return answer.code;
}

const livePost = (postId: number | string, channel = GLOBAL) => `${publicApi(channel)}/live/posts/${postId}`;

let turn = 0;
async function comment(postId: number, body: Record<string, unknown> = { content: 'live gg' }, memberId = WRITER) {
	turn += 1;
	return call(`${memberApi()}/posts/${postId}/comments`, {
		method: 'POST',
		cookie: await signIn(memberId),
		body,
		headers: { 'cf-connecting-ip': `live-writer:${turn}` },
	});
}

describe('a post’s room', () => {
	it('tells every open page of a new comment once, after its write, with its id and the count only', async () => {
		const postId = await freshPost(AUTHOR);
		const readers = [await open(livePost(postId), { address: 'reader-a' }), await open(livePost(postId), { address: 'reader-b' })];
		const member = await open(livePost(postId), { address: 'reader-c', cookie: await signIn(1011) });
		const written = await comment(postId);
		expect(written.code).toBe(0);
		const { comment: item, commentCount } = written.body['content'] as { comment: { commentId: number }; commentCount: number };
		for (const reader of [...readers, member]) {
			await expect.poll(() => reader.messages.length).toBe(1);
			// Exactly the id and the count: nothing of the text or its author.
			expect(reader.messages[0]).toStrictEqual({ type: 'comment', commentId: item.commentId, count: commentCount });
		}
		// The count it says is what the post stores.
		expect(await env.DB.prepare('SELECT comment_count FROM posts WHERE id = ?1').bind(postId).first('comment_count')).toBe(commentCount);
		// A second comment: one more message each, never a repeat of the first.
		expect((await comment(postId, { content: 'again' })).code).toBe(0);
		for (const reader of readers)
			await expect.poll(() => reader.messages.map((message) => message.type === 'comment' && message.count)).toEqual([1, 2]);
	});

	it('hears nothing of a refused write, and a failed publish never fails the write', async () => {
		const postId = await freshPost(AUTHOR);
		const reader = await open(livePost(postId));
		// Refused after its batch ran (the reply's comment is not the post's): nothing written, nothing published.
		expect((await comment(postId, { content: 'to nobody', parentId: 999_999_999 })).code).toBe(CommentNotFound.code);
		const written = await comment(postId, { content: 'the one that counts' });
		const { comment: item } = written.body['content'] as { comment: { commentId: number } };
		await expect.poll(() => reader.messages.length).toBe(1);
		// The first message is the written comment's: none came for the refused one.
		expect(reader.messages).toStrictEqual([{ type: 'comment', commentId: item.commentId, count: 1 }]);

		// The rooms unreachable: the write stands and answers as always.
		const bindings = env as unknown as { LIVE: unknown };
		const real = bindings.LIVE;
		bindings.LIVE = {
			idFromName: (name: string) => name,
			get: () => ({ publish: () => Promise.reject(new Error('The room is unreachable')) }),
		};
		try {
			const standing = await comment(postId, { content: 'while the room is down' });
			expect(standing.code).toBe(0);
			expect((standing.body['content'] as { commentCount: number }).commentCount).toBe(2);
		} finally {
			bindings.LIVE = real;
		}
	});

	it('drops a publish that arrives after a later comment’s: at most one message per comment', async () => {
		const postId = await freshPost(AUTHOR);
		const readers = [await open(livePost(postId), { address: 'x' }), await open(livePost(postId), { address: 'y' })];
		const stub = room(postRoomName(GLOBAL.id, postId));
		expect(await stub.publish({ type: 'comment', commentId: 50, count: 2 })).toBe(2);
		expect(await stub.publish({ type: 'comment', commentId: 49, count: 1 })).toBe(0);
		expect(await stub.publish({ type: 'comment', commentId: 50, count: 2 })).toBe(0);
		expect(await stub.publish({ type: 'comment', commentId: 51, count: 3 })).toBe(2);
		for (const reader of readers)
			await expect.poll(() => reader.messages.map((message) => message.type === 'comment' && message.commentId)).toEqual([50, 51]);
	});

	it('is only the server’s: a client that writes is closed, a keep-alive ping is answered', async () => {
		const postId = await freshPost(AUTHOR);
		const { socket } = await open(livePost(postId));
		const pong = new Promise<string>((resolve) => socket.addEventListener('message', (event) => resolve(event.data as string), { once: true }));
		socket.send('ping');
		expect(await pong).toBe('pong');
		const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)));
		socket.send('{"type":"comment","commentId":1,"count":999}');
		expect(await closed).toBe(CLIENT_MESSAGE_CLOSE);
		expect(await room(postRoomName(GLOBAL.id, postId)).connections()).toBe(0);
	});
});

describe('checks before the upgrade', () => {
	it('answers bad ids, another channel’s post, a post the reader may not read and a plain request in the envelope', async () => {
		const postId = await freshPost(AUTHOR);
		const koreanPost = await freshPost(AUTHOR, { channelId: KOREAN.id });
		const hidden = await freshPost(AUTHOR, { hidden: true });
		const privatePost = await freshPost(AUTHOR, { isPrivate: true });
		const deleted = await freshPost(AUTHOR, { deleted: true });
		for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) expect(await refusedCode(livePost(bad)), bad).toBe(InvalidParameter.code);
		expect(await refusedCode(`${livePost(postId)}?x=1`)).toBe(InvalidParameter.code);
		expect(await refusedCode(livePost(koreanPost))).toBe(PostNotFound.code);
		for (const unreadable of [hidden, privatePost, deleted, 999_999_999]) expect(await refusedCode(livePost(unreadable))).toBe(PostNotFound.code);
		// The author reads their private post, and gets its socket.
		await open(livePost(privatePost), { cookie: await signIn(AUTHOR) });
		// Not a WebSocket request.
		expect((await call(livePost(postId))).code).toBe(InvalidParameter.code);
		// Nothing was written by any of them.
		expect(await env.DB.prepare('SELECT count(*) AS n FROM comments WHERE post_id IN (?1, ?2)').bind(postId, privatePost).first('n')).toBe(0);
	});

	it('gives a member’s room to that member’s session only', async () => {
		expect(await refusedCode(`${memberApi()}/live/me`)).toBe(LoginRequired.code);
		expect(await refusedCode(`${memberApi()}/live/me?member=1010`, { cookie: await signIn(WRITER) })).toBe(InvalidParameter.code);
	});
});

describe('a member’s room', () => {
	it('tells the member’s bell when the consumer wrote their notification', async () => {
		// What the tests before sent is delivered first: this one counts its own comment's.
		await deliverNotifications();
		const postId = await freshPost(AUTHOR);
		const bell = await open(`${memberApi()}/live/me`, { cookie: await signIn(AUTHOR) });
		// Another member's bell hears nothing of it.
		const other = await open(`${memberApi()}/live/me`, { cookie: await signIn(1011), address: 'other' });
		expect((await comment(postId)).code).toBe(0);
		await deliverNotifications();
		await expect.poll(() => bell.messages).toStrictEqual([{ type: 'notification' }]);
		// It said so because the member's unread count rose.
		const unread = await env.DB.prepare('SELECT unread_notifications FROM members WHERE id = ?1').bind(AUTHOR).first('unread_notifications');
		expect(unread).toBeGreaterThan(0);
		// The post's comment message went to the post's room, not to the bells.
		expect(other.messages).toStrictEqual([]);
	});
});

describe('bounds', () => {
	it(`takes ${MAX_SOCKETS_PER_ADDRESS} sockets of one address in one room, then LiveConnectionLimit; other addresses still connect`, async () => {
		const postId = await freshPost(AUTHOR);
		for (let i = 0; i < MAX_SOCKETS_PER_ADDRESS; i += 1) await open(livePost(postId), { address: 'one-reader' });
		const refused = await call(livePost(postId), { headers: { Upgrade: 'websocket', 'cf-connecting-ip': 'one-reader' } });
		expect(refused.code).toBe(LiveConnectionLimit.code);
		expect(refused.status).toBe(429);
		expect(refused.body['refused']).toBe('address');
		await open(livePost(postId), { address: 'another-reader' });
		expect(await room(postRoomName(GLOBAL.id, postId)).connections()).toBe(MAX_SOCKETS_PER_ADDRESS + 1);
	});

	it(`takes at most ${MAX_SOCKETS_PER_ROOM} sockets in one room`, async () => {
		const postId = await freshPost(AUTHOR);
		const stub = room(postRoomName(GLOBAL.id, postId));
		for (let i = 0; i < MAX_SOCKETS_PER_ROOM; i += 1) {
			const answer = await stub.fetch('https://live.invalid/connect', { headers: { Upgrade: 'websocket', [ADDRESS_HEADER]: `crowd:${i}` } });
			expect(answer.status).toBe(101);
			answer.webSocket!.accept();
			sockets.push(answer.webSocket!);
		}
		const refused = await call(livePost(postId), { headers: { Upgrade: 'websocket', 'cf-connecting-ip': 'one-more' } });
		expect(refused.code).toBe(LiveConnectionLimit.code);
		expect(refused.body['refused']).toBe('room');
		// One comment is one message to each of them.
		expect(await stub.publish({ type: 'comment', commentId: 1, count: 1 })).toBe(MAX_SOCKETS_PER_ROOM);
	});
});
