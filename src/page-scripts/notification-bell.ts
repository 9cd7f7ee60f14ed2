/**
 * The header's bell on a member's page (Header.astro; loaded by member-session.ts, so never on a
 * guest's page): asks GET /v1/{domain}/{slug}/notifications/unread once the page is shown, again
 * when the member comes back to the tab, and every REFRESH_MS while the tab is visible, never in a
 * background tab, and at once when the member's live room says a notification was written for them. The count lives in the notifications store, which the notifications page lowers;
 * the badge reads "99+" past 99 and the link's label says how many are unread.
 */
import { $unreadNotifications } from '@/stores/notifications';
import { createApiClient } from '@/lib/api-client';

const REFRESH_MS = 60_000;

const bell = document.querySelector<HTMLAnchorElement>('[data-bell]');
const dialog = document.querySelector<HTMLElement>('[data-route-error-dialog]');
const badge = bell?.querySelector<HTMLElement>('[data-bell-count]');

if (bell && badge && dialog) {
	const { label = '', labelUnread = '' } = bell.dataset;
	const { domain = '', slug = '', userId = '' } = dialog.dataset;
	const api = createApiClient({ channel: { domain, slug }, getUserId: () => userId });
	$unreadNotifications.subscribe((count) => {
		const shown = count === null || count <= 0 ? '' : count > 99 ? '99+' : String(count);
		badge.hidden = shown === '';
		badge.textContent = shown;
		bell.setAttribute('aria-label', shown === '' ? label : labelUnread.replace('{{count}}', shown));
	});
	const refresh = async () => {
		try {
			$unreadNotifications.set((await api.member.get('/notifications/unread')).unread);
		} catch {
			// Offline, signed out meanwhile, or a failure: the next refresh asks again.
		}
	};
	let timer: ReturnType<typeof setInterval> | undefined;
	const follow = () => {
		clearInterval(timer);
		if (document.visibilityState !== 'visible') return;
		void refresh();
		timer = setInterval(() => void refresh(), REFRESH_MS);
	};
	document.addEventListener('visibilitychange', follow);
	follow();
	// The member's live room (src/lib/live-socket.ts): a notification written for them makes the bell ask at
	// once. Opened from the member's first scroll, press or key (no script before it: tests/e2e/budget.spec.ts),
	// while the tab is visible; the minute's poll above stays, as the fallback.
	const LIVE_WAKE = ['scroll', 'pointerdown', 'keydown'] as const;
	const live = () => {
		for (const type of LIVE_WAKE) removeEventListener(type, live);
		void import('@/lib/live-socket').then(({ followLive, liveUrl }) =>
			followLive({ url: liveUrl({ domain, slug }, 'me'), onMessage: () => void refresh() }),
		);
	};
	for (const type of LIVE_WAKE) addEventListener(type, live, { passive: true });
}
