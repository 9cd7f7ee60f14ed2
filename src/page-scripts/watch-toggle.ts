/**
 * The Watch toggle of a post (PostActions.astro) and of a board (BoardView.astro), for members: a
 * click shows the new state at once and sends PUT (watch) or DELETE (stop) to the button's
 * `data-url`; a failure puts the state back and says why (the action alert: too many requests, the
 * watch limit, or the generic error; an ended session or a ban opens its dialog).
 */
import { WatchLimitReached } from '@/lib/result-codes';
import { resultCodeOf } from '@/lib/api-client';
import { showActionAlert } from './action-alert';
import { handleActionFailure, memberClient } from './member-action';

const sending = new WeakSet<HTMLButtonElement>();

export async function toggleWatch(button: HTMLButtonElement): Promise<void> {
	if (sending.has(button)) return;
	const { url = '', userId = '', channelBase = '', textFailed = '', textTooMany = '', textLimit = '' } = button.dataset;
	const watching = button.getAttribute('aria-pressed') !== 'true';
	button.setAttribute('aria-pressed', String(watching));
	sending.add(button);
	try {
		const api = memberClient(userId);
		const answer = watching ? await api.put<{ content: { watching: boolean } }>(url) : await api.delete<{ content: { watching: boolean } }>(url);
		button.setAttribute('aria-pressed', String(answer.content.watching));
	} catch (error) {
		button.setAttribute('aria-pressed', String(!watching));
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind === 'handled') return;
		showActionAlert(outcome.kind === 'too-many' ? textTooMany : resultCodeOf(error) === WatchLimitReached.code ? textLimit : textFailed);
	} finally {
		sending.delete(button);
	}
}
