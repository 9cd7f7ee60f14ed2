/**
 * The toast of the main layout (src/components/layout/Toast.astro, docs/product-rules.md#global-ui): one at a time, shown
 * 1.5 s, then faded out. A newer message replaces the one showing. A page that navigates away leaves
 * its message in sessionStorage for the next page.
 */
import { TOAST_STORAGE_KEY } from '@/lib/names';

const SHOW_MS = 1500;
let timer: number | undefined;

/** Shows `message` in the page's toast; a page without the main layout shows nothing. */
export function showToast(message: string): void {
	const toast = document.querySelector<HTMLElement>('[data-toast]');
	if (!toast) return;
	window.clearTimeout(timer);
	toast.textContent = message;
	toast.classList.remove('leaving');
	toast.hidden = false;
	timer = window.setTimeout(() => toast.classList.add('leaving'), SHOW_MS);
	toast.addEventListener('transitionend', () => toast.classList.contains('leaving') && (toast.hidden = true), { once: true });
}

/** Leaves `message` for the toast of the next page (the page shows it as it loads). */
export function showToastOnNextPage(message: string): void {
	try {
		sessionStorage.setItem(TOAST_STORAGE_KEY, message);
	} catch {
		// No storage: the page still changes, only without the toast.
	}
}
