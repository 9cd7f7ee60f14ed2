/**
 * The Watch toggle of a post and of a board (src/components/common/WatchButton.astro), for members:
 * a click shows the new state at once, in words ("Watching") and `aria-pressed`, and sends PUT
 * (watch) or DELETE (stop) to the button's `data-url`; the answer's state stays and a toast says
 * what will (or will no longer) arrive. A failure puts the state back and says why (the action
 * alert: too many requests, the watch limit, or the generic error; an ended session or a ban opens
 * its dialog).
 */
import { WatchLimitReached } from '@/lib/result-codes';
import { resultCodeOf } from '@/lib/api-client';
import { showToast } from '@/stores/toasts';
import { showActionAlert } from '@/islands/common/action-alert';
import { handleActionFailure, memberClient } from '@/islands/common/member-action';

const sending = new WeakSet<HTMLButtonElement>();

/** Shows `watching` on the button: `aria-pressed` and its words. */
function showState(button: HTMLButtonElement, watching: boolean): void {
	button.setAttribute('aria-pressed', String(watching));
	const label = button.querySelector('[data-watch-label]');
	if (label) label.textContent = (watching ? button.dataset['textOn'] : button.dataset['textOff']) ?? '';
}

export async function toggleWatch(button: HTMLButtonElement): Promise<void> {
	if (sending.has(button)) return;
	const { url = '', userId = '', channelBase = '', textFailed = '', textTooMany = '', textLimit = '', toastOn = '', toastOff = '' } = button.dataset;
	const watching = button.getAttribute('aria-pressed') !== 'true';
	showState(button, watching);
	sending.add(button);
	try {
		const api = memberClient(userId);
		const answer = watching ? await api.put<{ content: { watching: boolean } }>(url) : await api.delete<{ content: { watching: boolean } }>(url);
		showState(button, answer.content.watching);
		showToast(answer.content.watching ? toastOn : toastOff);
	} catch (error) {
		showState(button, !watching);
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind === 'handled') return;
		showActionAlert(outcome.kind === 'too-many' ? textTooMany : resultCodeOf(error) === WatchLimitReached.code ? textLimit : textFailed);
	} finally {
		sending.delete(button);
	}
}
