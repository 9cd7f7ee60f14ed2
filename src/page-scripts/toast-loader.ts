/**
 * The toast's view (src/page-scripts/toast.ts) loads with the first toast of the page: one a
 * previous page left (src/components/layout/Toast.astro), or one an island or a page script shows
 * through the toast store, which announces it with TOAST_EVENT. A page without a toast loads none of it.
 */
import { TOAST_EVENT, TOAST_STORAGE_KEY } from '@/lib/names';

document.addEventListener(TOAST_EVENT, () => void import('@/page-scripts/toast'), { once: true });

let message: string | null = null;
try {
	message = sessionStorage.getItem(TOAST_STORAGE_KEY);
	sessionStorage.removeItem(TOAST_STORAGE_KEY);
} catch {
	// Storage blocked: no message was left either.
}
if (message) void import('@/stores/toasts').then(({ showToast }) => showToast(message));
