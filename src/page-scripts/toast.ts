/**
 * The toast of the main layout (src/components/layout/Toast.astro, docs/reference/product-rules.md#global-ui) as a view of the toast
 * queue (src/stores/toasts.ts): the newest message shows 1.5 s, then fades out; a newer one
 * replaces it. Islands and page scripts show one with the store's showToast; the layout's
 * src/page-scripts/toast-loader.ts loads this view with the first.
 */
import { $toasts, dismissToast, type Toast } from '@/stores/toasts';

const SHOW_MS = 1500;
/**
 * The fade (Toast.astro's transition): the toast is hidden when it has run, by the clock. Not at
 * `transitionend`, which never comes when no frame drew the toast before it left (a tab in the
 * background, a busy machine): the faded toast stayed over the page's foot, unseen.
 */
const FADE_MS = 300;
let timer: number | undefined;
let shown: number | null = null;

/** Shows the newest toast of the queue and drops the older ones. */
function show(queue: readonly Toast[]): void {
	const newest = queue.at(-1);
	// A page without the main layout shows nothing, and keeps nothing waiting.
	const toast = document.querySelector<HTMLElement>('[data-toast]');
	for (const older of toast ? queue.slice(0, -1) : queue) dismissToast(older.id);
	if (!toast || !newest || newest.id === shown) return;
	shown = newest.id;
	window.clearTimeout(timer);
	toast.textContent = newest.message;
	toast.classList.remove('leaving');
	toast.hidden = false;
	timer = window.setTimeout(() => {
		toast.classList.add('leaving');
		dismissToast(newest.id);
		timer = window.setTimeout(() => (toast.hidden = true), FADE_MS);
	}, SHOW_MS);
}

$toasts.subscribe(show);
