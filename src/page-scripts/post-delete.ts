/**
 * The post page's Delete (its author's and an administrator's: src/server/channels/member-parts.ts
 * postChangeHtml): the confirm, then the DELETE call, then 'The post has been deleted.' and the page
 * again, now showing the deleted state. Failures as docs/reference/product-rules.md#errors-and-texts:
 * the forced-login alert, the ban dialog, or too many requests and the deletion's own failure in the
 * action alert. Loaded at the first press, never by a guest's page.
 */
import { showToastOnNextPage } from '@/stores/toasts';
import { showActionAlert } from '@/islands/common/action-alert';
import { handleActionFailure } from '@/islands/common/member-action';
import { memberClient } from '@/islands/common/page-client';

/** Sends the deletion the dialog names; the page reloads once it is done. */
async function remove(button: HTMLButtonElement, dialog: HTMLDialogElement): Promise<void> {
	const { postId, textDeleted = '', textFailed = '', textTooMany = '' } = dialog.dataset;
	const { channelBase = '' } = document.querySelector<HTMLElement>('[data-route-error-dialog]')?.dataset ?? {};
	button.disabled = true;
	button.setAttribute('aria-busy', 'true');
	try {
		await memberClient().member.delete('/posts/:postId', { param: { postId: Number(postId) } });
		showToastOnNextPage(textDeleted);
		location.reload();
	} catch (error) {
		button.disabled = false;
		button.removeAttribute('aria-busy');
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind !== 'handled') showActionAlert(outcome.kind === 'too-many' ? textTooMany : textFailed);
	}
}

/** Asks whether to delete the post (`button` is its Delete); on Delete, deletes it. Focus returns to `button` when the dialog closes. */
export function askDeletePost(button: HTMLButtonElement): void {
	const dialog = document.querySelector<HTMLDialogElement>('[data-delete-post-dialog]');
	if (!dialog || dialog.open || button.disabled) return;
	dialog.returnValue = '';
	dialog.addEventListener(
		'close',
		() => {
			if (dialog.returnValue === 'confirm') void remove(button, dialog);
		},
		{ once: true },
	);
	dialog.showModal();
}
