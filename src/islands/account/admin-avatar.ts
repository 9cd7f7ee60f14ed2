/**
 * An administrator's Remove avatar on a member's profile (docs/reference/avatars.md#administrators),
 * loaded on its first press: the admin API removes the picture (audited as REMOVE_AVATAR), the
 * profile shows the member's generated pattern at once (this browser's copies fetched again), and a
 * toast says it is done.
 */
import { showToast } from '@/stores/toasts';
import { showActionAlert } from '@/islands/common/action-alert';
import { handleActionFailure } from '@/islands/common/member-action';
import { memberClient } from '@/islands/common/page-client';
import { refreshCopies } from './avatar-image';

/** Removes the avatar of the member `button` names (`data-user-id`), with the button's texts. */
export async function removeMemberAvatar(button: HTMLButtonElement): Promise<void> {
	const { userId = '', domain = '', slug = '', textDone = '', textFailed = '', textTooMany = '' } = button.dataset;
	if (button.disabled) return;
	button.disabled = true;
	try {
		await memberClient().admin.post('/members/:userId/avatar/remove', { param: { userId: Number(userId) }, json: { reason: '' } });
		const generated = await refreshCopies({ domain, slug }, Number(userId));
		const image = document.querySelector<HTMLImageElement>('[data-profile-avatar]');
		if (image && generated) image.src = URL.createObjectURL(generated);
		button.hidden = true;
		showToast(textDone);
	} catch (error) {
		const outcome = handleActionFailure(error, `/${domain}/${slug}`);
		if (outcome.kind === 'too-many') showActionAlert(textTooMany);
		else if (outcome.kind === 'other') showActionAlert(textFailed);
		button.disabled = false;
	}
}
