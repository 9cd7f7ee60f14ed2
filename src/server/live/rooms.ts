/**
 * The live threads' rooms (./live-room.ts) as the Worker uses them: a socket into a post's room or a
 * member's, and what a write publishes to them (docs/reference/live-threads.md).
 *
 * Publishing runs after the write's batch committed, without holding up the answer (`waitUntil`),
 * and a failure (the binding missing, the object unreachable) is logged and never fails the write:
 * the readers' pages see the comment at their next poll or reload instead.
 */
import { env, waitUntil } from 'cloudflare:workers';
import { AppError } from '@/server/platform/errors';
import { clientKey } from '@/server/platform/rate-limit';
import { readablePostSql } from '@/server/visibility/visibility';
import type { Viewer } from '@/server/visibility/visibility';
import { ADDRESS_HEADER, type ConnectRefusal, type LiveMessage, type LiveRoom } from './live-room';

/** The binding of the rooms, when the deployment has one. */
function rooms(): DurableObjectNamespace<LiveRoom> | undefined {
	return (env as Partial<Env>).LIVE as DurableObjectNamespace<LiveRoom> | undefined;
}

/** The room of a post's readers. */
export const postRoomName = (channelId: number, postId: number) => `post:${channelId}:${postId}`;
/** The room of a member's bells. */
export const memberRoomName = (channelId: number, memberId: number) => `member:${channelId}:${memberId}`;

/** The room named `name`. */
export function room(name: string): DurableObjectStub<LiveRoom> {
	const namespace = rooms();
	if (!namespace) throw new Error('The LIVE Durable Object binding is missing (wrangler.toml)');
	return namespace.get(namespace.idFromName(name));
}

/**
 * Whether the reader may read the post (of this channel), as its page shows it: a socket opens only
 * on a post its reader could open. @throws AppError PostNotFound
 */
export async function assertLivePost(db: Db, channelId: number, postId: number, viewer: Viewer): Promise<void> {
	const member = viewer.kind === 'member' ? viewer.memberId : null;
	const admin = viewer.kind === 'member' && viewer.admin ? 1 : 0;
	const found = await db
		.prepare(
			`SELECT 1 AS ok FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = ?1 AND p.channel_id = ?2 AND ${readablePostSql('?3', '?4')}`,
		)
		.bind(postId, channelId, member, admin)
		.first<{ ok: number }>();
	if (!found) throw new AppError('PostNotFound');
}

/**
 * The WebSocket answer of room `name` for a client at `ip` (the request must ask to upgrade).
 * @throws AppError InvalidParameter (not a WebSocket request), LiveConnectionLimit (the room's or the address's bound)
 */
export async function connect(request: Request, name: string, ip: string | null): Promise<Response> {
	if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') throw new AppError('InvalidParameter');
	const answer = await onceMore(() =>
		room(name).fetch('https://live.invalid/connect', { headers: { Upgrade: 'websocket', [ADDRESS_HEADER]: clientKey(ip) } }),
	);
	if (answer.status === 429) {
		const { refused } = await answer.json<ConnectRefusal>();
		throw new AppError('LiveConnectionLimit', undefined, { refused });
	}
	return answer;
}

/**
 * `call` on a new stub, and once more on another when it throws: a Durable Object that was reset (new
 * code deployed, the object moved) fails the call in flight with an error that asks for a retry, and a
 * new stub reaches the new instance. Opening a socket changes nothing when it fails, and a publish
 * repeated is dropped by the room (it keeps the newest comment id per socket).
 */
async function onceMore<T>(call: () => Promise<T>): Promise<T> {
	try {
		return await call();
	} catch {
		return call();
	}
}

/** Sends `message` to room `name` once the answer is on its way; a failure is logged. */
function publish(name: string, message: LiveMessage): void {
	if (!rooms()) return;
	waitUntil(
		onceMore(() => room(name).publish(message)).then(
			() => undefined,
			(error: unknown) => console.error(`Live ${message.type} not published`, error),
		),
	);
}

/** A comment was written on the post: its readers' pages hear its id and the post's count (nothing of its text). */
export function publishComment(channelId: number, postId: number, commentId: number, count: number): void {
	publish(postRoomName(channelId, postId), { type: 'comment', commentId, count });
}

/**
 * Notifications were written for `memberIds` (at most the bound of one queue message, deliver.ts):
 * each member's bells ask for the unread count at once. Awaited by the consumer; failures are logged.
 */
export async function publishNotifications(channelId: number, memberIds: readonly number[]): Promise<void> {
	if (!rooms()) return;
	const outcomes = await Promise.allSettled(memberIds.map((memberId) => room(memberRoomName(channelId, memberId)).publish({ type: 'notification' })));
	const failed = outcomes.filter((outcome) => outcome.status === 'rejected').length;
	if (failed > 0) console.error(`Live notification not published to ${failed} of ${memberIds.length} members`);
}
