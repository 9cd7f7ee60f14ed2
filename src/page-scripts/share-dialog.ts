/**
 * The share dialog (src/components/post/PostActions.astro): the post's canonical URL in a read-only
 * field, Copy ('URL has been copied.' in the toast, docs/reference/product-rules.md#global-ui) and, where the browser has a system
 * share sheet (`navigator.share`), Share…. The URL is built from the page's own origin and the
 * post's path, so a cached page never carries another host's address.
 */
import { showToast } from '@/stores/toasts';

const prepared = new WeakSet<HTMLDialogElement>();

/** Opens the share dialog of the page's post. */
export function openShareDialog(): void {
	const dialog = document.querySelector<HTMLDialogElement>('[data-share-dialog]');
	const field = dialog?.querySelector<HTMLInputElement>('[data-share-url]');
	if (!dialog || !field) return;
	field.value = new URL(dialog.dataset['postPath'] ?? location.pathname, location.origin).href;
	const system = dialog.querySelector<HTMLButtonElement>('[data-share-system]');
	if (system) system.hidden = typeof navigator.share !== 'function';
	if (!prepared.has(dialog)) prepare(dialog, field);
	dialog.showModal();
}

function prepare(dialog: HTMLDialogElement, field: HTMLInputElement): void {
	prepared.add(dialog);
	field.addEventListener('focus', () => field.select());
	dialog.querySelector('[data-share-close]')?.addEventListener('click', () => dialog.close());
	dialog.querySelector('[data-share-copy]')?.addEventListener('click', async () => {
		try {
			await navigator.clipboard.writeText(field.value);
		} catch {
			// No clipboard access (an insecure origin, a denied permission): the URL stays selected to copy by hand.
			field.focus();
			field.select();
			return;
		}
		dialog.close();
		showToast(dialog.dataset['textCopied'] ?? '');
	});
	dialog.querySelector('[data-share-system]')?.addEventListener('click', async () => {
		try {
			await navigator.share({ title: dialog.dataset['postTitle'] ?? document.title, url: field.value });
			dialog.close();
		} catch {
			// The person closed the share sheet, or it is busy: the dialog stays as it was.
		}
	});
}
