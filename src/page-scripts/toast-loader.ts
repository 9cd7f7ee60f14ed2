/**
 * The toast a previous page left (src/components/layout/Toast.astro): the toast queue and its view
 * load only when there is a message (islands load them when they show one).
 */
import { TOAST_STORAGE_KEY } from '@/lib/names';

let message: string | null = null;
try {
	message = sessionStorage.getItem(TOAST_STORAGE_KEY);
	sessionStorage.removeItem(TOAST_STORAGE_KEY);
} catch {
	// Storage blocked: no message was left either.
}
if (message) void import('@/page-scripts/toast').then(({ showToast }) => showToast(message));
