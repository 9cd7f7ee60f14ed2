/**
 * The signed-in member's unread notifications (docs/reference/notifications.md#the-bell): null until the bell
 * has asked the server. The bell (src/page-scripts/notification-bell.ts) shows it; the
 * notifications page (notifications-page.ts) lowers it as the member opens them or marks all read,
 * and the bell follows at once. Browser only.
 */
import { atom } from 'nanostores';

export const $unreadNotifications = atom<number | null>(null);
