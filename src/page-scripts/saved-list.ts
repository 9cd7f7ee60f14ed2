/**
 * My Page's Saved tab (src/components/mypage/SavedList.astro): Remove sends DELETE
 * posts/{postId}/save and takes the post off the list without a reload, says so in the list's
 * status line, and shows the empty state once the last one is gone. A failure leaves the row and
 * says why in the same line (an ended session or a ban opens its dialog).
 */
import { handleActionFailure } from '@/islands/common/member-action';
import { memberClient } from '@/islands/common/page-client';

const list = document.querySelector<HTMLElement>('[data-saved-list]');
list?.addEventListener('click', async (event) => {
	const button = (event.target as Element).closest<HTMLButtonElement>('[data-remove-saved]');
	if (!button || button.disabled) return;
	const { channelBase = '', textRemoved = '', textFailed = '', textTooMany = '' } = list.dataset;
	const status = list.querySelector<HTMLElement>('[data-saved-status]');
	button.disabled = true;
	try {
		await memberClient().member.delete('/posts/:postId/save', { param: { postId: Number(button.dataset['removeSaved']) } });
		const item = button.closest('[data-saved-item]');
		// Focus stays in the list: on the next row's Remove, or the previous one's when this was the last.
		const next = item?.nextElementSibling ?? item?.previousElementSibling;
		item?.remove();
		next?.querySelector<HTMLButtonElement>('[data-remove-saved]')?.focus();
		if (!list.querySelector('[data-saved-item]')) {
			list.querySelector('ol')?.remove();
			list.querySelector<HTMLElement>('[data-saved-empty]')?.removeAttribute('hidden');
		}
		if (status) status.textContent = textRemoved;
	} catch (error) {
		button.disabled = false;
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind !== 'handled' && status) status.textContent = outcome.kind === 'too-many' ? textTooMany : textFailed;
	}
});
