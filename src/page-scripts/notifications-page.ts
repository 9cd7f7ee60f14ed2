/**
 * mypage/notifications (src/pages/[domain]/[slug]/mypage/notifications.astro): opening a
 * notification marks it read (POST …/notifications/{id}/read, sent with `keepalive` so that it
 * survives the navigation it starts), "Mark all read" marks them all; each lowers the bell's count
 * through the notifications store at once. On the Watching tab, Stop watching sends DELETE for the
 * post or board and takes it off the list.
 */
import { $unreadNotifications } from '@/stores/notifications';

const dialog = document.querySelector<HTMLElement>('[data-route-error-dialog]');
const headers = { 'X-User-Id': dialog?.dataset['userId'] ?? '' };
const section = document.querySelector<HTMLElement>('[data-notifications]');

if (section) {
	const { api = '', allRead = '' } = section.dataset;
	$unreadNotifications.set(Number(section.dataset['unread'] ?? 0));
	const markAll = section.querySelector<HTMLButtonElement>('[data-mark-all]');
	const showRead = (item: HTMLElement) => {
		delete item.dataset['unread'];
		item.querySelector('.unread-dot')?.remove();
	};
	section.addEventListener('click', (event) => {
		const link = (event.target as Element).closest<HTMLAnchorElement>('[data-notification-link]');
		const item = link?.closest<HTMLElement>('[data-notification]');
		if (!item || item.dataset['unread'] !== 'true') return;
		showRead(item);
		$unreadNotifications.set(Math.max(0, ($unreadNotifications.get() ?? 1) - 1));
		void fetch(`${api}/notifications/${item.dataset['notification']}/read`, { method: 'POST', headers, keepalive: true }).catch(() => undefined);
	});
	markAll?.addEventListener('click', async () => {
		markAll.disabled = true;
		try {
			const response = await fetch(`${api}/notifications/read-all`, { method: 'POST', headers });
			if (!response.ok) throw new Error(String(response.status));
			for (const item of section.querySelectorAll<HTMLElement>('[data-notification][data-unread]')) showRead(item);
			$unreadNotifications.set(0);
			const status = section.querySelector<HTMLElement>('[data-notifications-status]');
			if (status) status.textContent = allRead;
		} catch {
			markAll.disabled = false;
		}
	});
}

const watches = document.querySelector<HTMLElement>('[data-watches]');
watches?.addEventListener('click', async (event) => {
	const button = (event.target as Element).closest<HTMLButtonElement>('[data-stop-watching]');
	if (!button) return;
	button.disabled = true;
	const response = await fetch(button.dataset['stopWatching'] ?? '', { method: 'DELETE', headers }).catch(() => null);
	if (response?.ok) button.closest('[data-watch-item]')?.remove();
	else button.disabled = false;
});
