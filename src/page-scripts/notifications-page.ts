/**
 * mypage/notifications (src/pages/[domain]/[slug]/mypage/notifications.astro): opening a
 * notification marks it read (POST …/notifications/{id}/read, sent with `keepalive` so that it
 * survives the navigation it starts), "Mark all read" marks them all; each lowers the bell's count
 * through the notifications store at once. On the Watching tab, Stop watching sends DELETE for the
 * post or board and takes it off the list.
 */
import { $unreadNotifications } from '@/stores/notifications';
import { memberClient } from '@/islands/common/page-client';

const api = memberClient();
const section = document.querySelector<HTMLElement>('[data-notifications]');

if (section) {
	const { allRead = '' } = section.dataset;
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
		const notificationId = item.dataset['notification'] ?? '';
		void api.member.post('/notifications/:notificationId/read', { param: { notificationId }, keepalive: true }).catch(() => undefined);
	});
	markAll?.addEventListener('click', async () => {
		markAll.disabled = true;
		try {
			await api.member.post('/notifications/read-all');
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
	const target = Number(button.dataset['targetId']);
	try {
		await (button.dataset['stopWatching'] === 'BOARD'
			? api.member.delete('/watches/boards/:boardId', { param: { boardId: target } })
			: api.member.delete('/watches/posts/:postId', { param: { postId: target } }));
		button.closest('[data-watch-item]')?.remove();
	} catch {
		button.disabled = false;
	}
});
