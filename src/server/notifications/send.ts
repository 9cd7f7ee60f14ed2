/**
 * What a write tells the notifications queue (docs/reference/notifications.md#the-queue). The request that
 * wrote a comment, a post, a like, a hide or a ban sends one small message naming what happened; it
 * never fans out itself. The consumer (deliver.ts) reads the rest from the database when the
 * message arrives, so a message carries ids (and a hide's reason) only and a retry sees the current state (a comment
 * deleted meanwhile notifies nobody).
 *
 * The message is sent after the write's batch committed, without holding up the answer
 * (`waitUntil`). Sending can fail (the queue unreachable): the write stands, the notification is
 * lost, and the failure is logged. Queues deliver at least once, so every message is idempotent.
 */
import { env, waitUntil } from 'cloudflare:workers';

/** The version of the messages' shape: a consumer drops (and logs) a message of a shape it does not know. */
export const MESSAGE_VERSION = 1;

export type NotificationEvent =
	/** A comment was written (or, `edited`, its text changed: only new mentions notify). */
	| { type: 'comment'; channelId: number; commentId: number; edited?: boolean }
	/** A post was written (or edited: only new mentions notify). */
	| { type: 'post'; channelId: number; postId: number; edited?: boolean }
	/** A member liked a post. */
	| { type: 'like'; channelId: number; postId: number; actorId: number }
	/**
	 * An administrator (or the community's automatic hide) hid or showed a post or a comment; `reason`
	 * is what the administrator typed (at most REASON_MAX characters), told to the author with the hide.
	 */
	| {
			type: 'moderation';
			channelId: number;
			target: 'POST' | 'COMMENT';
			id: number;
			hidden: boolean;
			moderatorId: number | null;
			at: number;
			reason?: string | undefined;
	  }
	/** A temporary ban began (`ended` false) or was lifted (`ended` true). */
	| { type: 'ban'; channelId: number; banId: number; ended: boolean }
	/** The next watchers of a comment's post or of a post's board, after member `after` (deliver.ts). */
	| { type: 'watchers'; channelId: number; of: 'comment' | 'post'; id: number; after: number };

type NotificationMessage = NotificationEvent & { v: typeof MESSAGE_VERSION };

/** The queue producer binding, when the deployment has one. */
function producer(): Queue<NotificationMessage> | undefined {
	return (env as Partial<Env>).NOTIFICATIONS;
}

/** Sends `event` to the notifications queue once the answer is on its way. */
export function notify(event: NotificationEvent): void {
	const queue = producer();
	if (!queue) {
		console.warn('No NOTIFICATIONS queue binding: notifications are not sent');
		return;
	}
	waitUntil(
		queue.send({ ...event, v: MESSAGE_VERSION }, { contentType: 'json' }).catch((error: unknown) => {
			console.error(`Notification not sent (${event.type})`, error);
		}),
	);
}
