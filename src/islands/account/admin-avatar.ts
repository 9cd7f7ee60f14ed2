/**
 * An administrator's Remove avatar on a member's profile (docs/reference/avatars.md#administrators),
 * loaded on its first press: the admin API removes the picture (audited as REMOVE_AVATAR), the
 * profile shows the member's generated pattern at once (and this browser's copies are fetched again), and a
 * toast says it is done.
 */
import { showToast } from '@/stores/toasts';
import { showActionAlert } from '@/islands/common/action-alert';
import { handleActionFailure } from '@/islands/common/member-action';
import { memberClient } from '@/islands/common/page-client';
import { refreshCopies } from './avatar-image';
import { generatedAvatarSvg } from '@/lib/avatars';

/** Removes the avatar of the member `button` names (`data-user-id`), with the button's texts. */
export async function removeMemberAvatar(button: HTMLButtonElement): Promise<void> {
	const { userId = '', domain = '', slug = '', textDone = '', textFailed = '', textTooMany = '' } = button.dataset;
	if (button.disabled) return;
	button.disabled = true;
	try {
		await memberClient().admin.post('/members/:userId/avatar/remove', { param: { userId: Number(userId) }, json: { reason: '' } });
		await refreshCopies({ domain, slug }, Number(userId));
		// The generated pattern in place of the picture (an <img> of the same URL keeps what it loaded; img-src allows no blob:).
		const image = document.querySelector<HTMLElement>('[data-profile-avatar]');
		if (image) image.outerHTML = `<span class="${image.className}" data-profile-avatar>${generatedAvatarSvg(Number(userId))}</span>`;
		// Nothing is left to remove: the button goes, and the focus to the member's name above it.
		const heading = document.getElementById('profile-name');
		heading?.setAttribute('tabindex', '-1');
		button.hidden = true;
		heading?.focus();
		showToast(textDone);
	} catch (error) {
		const outcome = handleActionFailure(error, `/${domain}/${slug}`);
		if (outcome.kind === 'too-many') showActionAlert(textTooMany);
		else if (outcome.kind === 'other') showActionAlert(textFailed);
		button.disabled = false;
	}
}
