/**
 * The alert of the post page's member actions (the alert modal of docs/reference/product-rules.md#global-ui, the generic error alert of docs/reference/product-rules.md#errors-and-texts): a
 * message with Confirm on the native <dialog> rendered by src/components/post/ActionAlert.astro.
 * It opens above any other open dialog (the report dialog keeps its input behind it), and focus
 * returns to what had it before.
 */

/** Shows `message` in the action alert (the browser's own alert on a page without one). */
export function showActionAlert(message: string): void {
	const dialog = document.querySelector<HTMLDialogElement>('[data-action-alert]');
	const text = dialog?.querySelector('[data-message]');
	if (!dialog || !text) {
		window.alert(message);
		return;
	}
	text.textContent = message;
	if (!dialog.open) dialog.showModal();
}
