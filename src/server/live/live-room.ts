/**
 * A live thread's Durable Object (docs/reference/live-threads.md): one per post, named by its channel
 * and id, holds the sockets of the post's open pages; one per member holds the sockets of that
 * member's bells. The sockets use the WebSocket Hibernation API (`ctx.acceptWebSocket`): while
 * nothing is published the object is evicted from memory and an open socket costs nothing, and a
 * client's keep-alive ("ping") is answered by the runtime without waking it.
 *
 * The sockets carry the server's news only: a message a client sends closes its socket (1008).
 * A room takes at most MAX_SOCKETS_PER_ROOM sockets, and at most MAX_SOCKETS_PER_ADDRESS from one
 * client address (the Worker passes it in ADDRESS_HEADER, a header only the Worker can set: the
 * object has no route of its own); past either, the connection is refused (the Worker answers
 * LiveConnectionLimit, and the page polls instead).
 */
import { DurableObject } from 'cloudflare:workers';

/** The sockets one room takes: a popular post's readers past this poll instead. */
export const MAX_SOCKETS_PER_ROOM = 1000;
/** The sockets one client address keeps in one room (a reader's tabs; a household or an office behind one address). */
export const MAX_SOCKETS_PER_ADDRESS = 8;
/** The header the Worker names the client's address in (its rate-limit key: an IPv6 client by its /64). */
export const ADDRESS_HEADER = 'X-Live-Address';
/** The close code of a socket a client wrote to (RFC 6455 policy violation). */
export const CLIENT_MESSAGE_CLOSE = 1008;

/**
 * What a room sends: a post's new comment (its id and the post's comment count after it; nothing
 * of its text), or a member's news that their unread notifications may have changed.
 */
export type LiveMessage = { type: 'comment'; commentId: number; count: number } | { type: 'notification' };

export interface ConnectRefusal {
	refused: 'room' | 'address';
}

export class LiveRoom extends DurableObject<Env> {
	/** The last comment announced since the object woke: a publish that arrives late (an older comment) is dropped. */
	private lastCommentId = 0;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		// The clients' keep-alive, answered by the runtime while the object hibernates.
		ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
	}

	/** A socket of the reader whose address the Worker names, or 429 with the bound that refused it. */
	override async fetch(request: Request): Promise<Response> {
		const tag = `address:${request.headers.get(ADDRESS_HEADER) ?? ''}`.slice(0, 256);
		const refused: ConnectRefusal['refused'] | null =
			this.ctx.getWebSockets().length >= MAX_SOCKETS_PER_ROOM
				? 'room'
				: this.ctx.getWebSockets(tag).length >= MAX_SOCKETS_PER_ADDRESS
					? 'address'
					: null;
		if (refused) return Response.json({ refused } satisfies ConnectRefusal, { status: 429 });
		const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
		this.ctx.acceptWebSocket(server, [tag]);
		return new Response(null, { status: 101, webSocket: client });
	}

	/** Sends `message` to every socket of the room, once; returns how many got it. */
	publish(message: LiveMessage): number {
		if (message.type === 'comment') {
			if (message.commentId <= this.lastCommentId) return 0;
			this.lastCommentId = message.commentId;
		}
		const text = JSON.stringify(message);
		let sent = 0;
		for (const socket of this.ctx.getWebSockets()) {
			try {
				socket.send(text);
				sent += 1;
			} catch {
				// A socket closing meanwhile: its reader reconnects or polls.
			}
		}
		return sent;
	}

	/** The sockets the room holds (the bench's and the tests' measure). */
	connections(): number {
		return this.ctx.getWebSockets().length;
	}

	/** The sockets are server → client only: a client that writes is closed. */
	override webSocketMessage(socket: WebSocket): void {
		socket.close(CLIENT_MESSAGE_CLOSE, 'This socket only sends');
	}
}
