/**
 * The post's Save toggle (src/components/post/PostActions.astro), for members: a click shows the
 * new state at once, in words ("Saved") and `aria-pressed`, and sends PUT (save) or DELETE (remove)
 * to posts/{postId}/save; the answer's state stays and a toast says where the post is kept. A
 * failure puts the state back and says why (the action alert: too many requests, the 1,000 saved
 * posts' limit, or the generic error; an ended session or a ban opens its dialog).
 */
import { SavedPostLimitReached } from '@/lib/result-codes';
import { resultCodeOf } from '@/lib/api-client';
import { showToast } from '@/stores/toasts';
import { showActionAlert } from '@/islands/common/action-alert';
import { handleActionFailure } from '@/islands/common/member-action';
import { memberClient } from '@/islands/common/page-client';

const sending = new WeakSet<HTMLButtonElement>();

/** Shows `saved` on the button: `aria-pressed` and its words. */
function showState(button: HTMLButtonElement, saved: boolean): void {
	button.setAttribute('aria-pressed', String(saved));
	const label = button.querySelector('[data-save-label]');
	if (label) label.textContent = (saved ? button.dataset['textOn'] : button.dataset['textOff']) ?? '';
}

export async function toggleSave(button: HTMLButtonElement): Promise<void> {
	if (sending.has(button)) return;
	const { postId, userId = '', channelBase = '', textFailed = '', textTooMany = '', textLimit = '', toastOn = '', toastOff = '' } = button.dataset;
	const saved = button.getAttribute('aria-pressed') !== 'true';
	showState(button, saved);
	sending.add(button);
	try {
		const api = memberClient(userId);
		const param = { param: { postId: Number(postId) } };
		const state = saved ? await api.member.put('/posts/:postId/save', param) : await api.member.delete('/posts/:postId/save', param);
		showState(button, state.saved);
		showToast(state.saved ? toastOn : toastOff);
	} catch (error) {
		showState(button, !saved);
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind === 'handled') return;
		showActionAlert(outcome.kind === 'too-many' ? textTooMany : resultCodeOf(error) === SavedPostLimitReached.code ? textLimit : textFailed);
	} finally {
		sending.delete(button);
	}
}
