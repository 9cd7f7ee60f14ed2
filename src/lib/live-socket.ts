/**
 * A live thread's socket in the browser (docs/reference/live-threads.md): open only while the page is
 * visible (closed when the tab is hidden, opened again when it comes back), each message handed to
 * `onMessage`. Where the browser has no WebSocket, or the socket fails, `poll` (when given) is
 * called instead every POLL_MS, the delay doubling after each failed poll up to POLL_MAX_MS; the
 * socket is tried again after a back-off (RETRY_MS doubling up to RETRY_MAX_MS), and polling stops
 * once it is open. A refused socket (the room's bounds: the server answers the upgrade with an
 * error) is a failure like any other. Browser only; nothing here runs on a guest's page until the
 * page script loads it (lazily).
 */
import { apiUrl } from '@/lib/api-client';
import type { ChannelRef } from '@/lib/urls';

const POLL_MS = 30_000;
const POLL_MAX_MS = 5 * 60_000;
const RETRY_MS = 5_000;
const RETRY_MAX_MS = 5 * 60_000;

export interface LiveFollow {
	url: string;
	onMessage: (message: unknown) => void;
	/** The fallback: asks for the same news over HTTP (throws when it fails). */
	poll?: () => Promise<void>;
	/** Told how the news comes: 'open' (the socket), 'polling' (the fallback) or 'closed' (the tab hidden). */
	onState?: (state: LiveState) => void;
}

type LiveState = 'open' | 'polling' | 'closed';

/** The socket address of a live route: the page's origin with ws: or wss:. */
export function liveUrl(channel: ChannelRef, route: { postId: number } | 'me'): string {
	const path = route === 'me' ? apiUrl(channel, 'member', '/live/me') : apiUrl(channel, 'public', '/live/posts/:postId', { postId: route.postId });
	const url = new URL(path, location.href);
	url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
	return url.href;
}

/** Follows `url` while the page is visible, for the page's life. */
export function followLive({ url, onMessage, poll, onState = () => undefined }: LiveFollow): void {
	let socket: WebSocket | null = null;
	let retryTimer: ReturnType<typeof setTimeout> | undefined;
	let pollTimer: ReturnType<typeof setTimeout> | undefined;
	let failures = 0;
	let pollDelay = POLL_MS;

	const stopPolling = () => {
		clearTimeout(pollTimer);
		pollTimer = undefined;
	};
	const schedulePoll = (delay: number) => {
		if (!poll) return;
		stopPolling();
		onState('polling');
		pollTimer = setTimeout(() => {
			poll().then(
				() => (pollDelay = POLL_MS),
				() => (pollDelay = Math.min(pollDelay * 2, POLL_MAX_MS)),
			);
			schedulePoll(pollDelay);
		}, delay);
	};
	const connect = () => {
		clearTimeout(retryTimer);
		if (typeof WebSocket !== 'function') {
			schedulePoll(pollDelay);
			return;
		}
		let opened: WebSocket;
		try {
			opened = new WebSocket(url);
		} catch {
			schedulePoll(pollDelay);
			return;
		}
		socket = opened;
		opened.addEventListener('open', () => {
			failures = 0;
			stopPolling();
			onState('open');
		});
		opened.addEventListener('message', (event) => {
			if (typeof event.data !== 'string' || event.data === 'pong') return;
			try {
				onMessage(JSON.parse(event.data));
			} catch {
				// Not a message of ours.
			}
		});
		opened.addEventListener('close', () => {
			if (socket !== opened) return;
			socket = null;
			// Closed by the server, a lost connection or a refused upgrade: poll meanwhile, and try again later.
			failures += 1;
			if (!pollTimer) schedulePoll(pollDelay);
			retryTimer = setTimeout(connect, Math.min(RETRY_MS * 2 ** (failures - 1), RETRY_MAX_MS));
		});
	};
	const follow = () => {
		if (document.visibilityState === 'visible') {
			// Back in a tab that was hidden: what came meanwhile is asked for at once.
			if (!socket) {
				if (poll && (typeof WebSocket !== 'function' || failures > 0)) void poll().catch(() => undefined);
				connect();
			}
			return;
		}
		clearTimeout(retryTimer);
		stopPolling();
		const closing = socket;
		socket = null;
		closing?.close(1000);
		onState('closed');
	};
	document.addEventListener('visibilitychange', follow);
	follow();
}
