/**
 * The toasts (docs/reference/product-rules.md#global-ui): the messages waiting to be shown, oldest first. One shows at a time and a
 * newer one replaces it, so the view (src/page-scripts/toast.ts) shows the last and drops the
 * rest. Islands and page scripts show a toast here; the layout loads the view with the first one
 * (TOAST_EVENT), so that a page nobody touches loads none of it. A page that navigates away leaves
 * its message in sessionStorage, and the next page puts it in the queue as it loads
 * (src/page-scripts/toast-loader.ts, which reads it without this module). Browser only.
 */
import { atom } from 'nanostores';
import { TOAST_EVENT, TOAST_STORAGE_KEY } from '@/lib/names';

export interface Toast {
	id: number;
	message: string;
}

export const $toasts = atom<readonly Toast[]>([]);

let lastId = 0;

/** Puts `message` in the queue; the page's toast shows it. */
export function showToast(message: string): void {
	$toasts.set([...$toasts.get(), { id: ++lastId, message }]);
	// Without a document (the Worker renders islands too) there is no page to show it on.
	globalThis.document?.dispatchEvent(new Event(TOAST_EVENT));
}

/** Takes the toast `id` out of the queue (it has been shown, or a newer one replaced it). */
export function dismissToast(id: number): void {
	$toasts.set($toasts.get().filter((toast) => toast.id !== id));
}

/** Leaves `message` for the toast of the next page (the page shows it as it loads). */
export function showToastOnNextPage(message: string): void {
	try {
		sessionStorage.setItem(TOAST_STORAGE_KEY, message);
	} catch {
		// No storage: the page still changes, only without the toast.
	}
}
