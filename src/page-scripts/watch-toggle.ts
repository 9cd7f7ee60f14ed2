/**
 * The Watch toggle of a post and of a board (src/components/common/WatchButton.astro), for members:
 * a click shows the new state at once, in words ("Watching") and `aria-pressed`, and sends PUT
 * (watch) or DELETE (stop) to watches/posts/{postId} or watches/boards/{boardId} (the button's
 * `data-watch-target` and `data-target-id`); the answer's state stays and a toast says
 * what will (or will no longer) arrive. A failure puts the state back and says why (the action
 * alert: too many requests, the watch limit, or the generic error; an ended session or a ban opens
 * its dialog).
 */
import { WatchLimitReached } from '@/lib/result-codes';
import { resultCodeOf, type ApiClient } from '@/lib/api-client';
import type { WatchState } from '@/lib/api-types';
import { showToast } from '@/stores/toasts';
import { showActionAlert } from '@/islands/common/action-alert';
import { handleActionFailure } from '@/islands/common/member-action';
import { memberClient } from '@/islands/common/page-client';

const sending = new WeakSet<HTMLButtonElement>();

/** Shows `watching` on the button: `aria-pressed` and its words. */
function showState(button: HTMLButtonElement, watching: boolean): void {
	button.setAttribute('aria-pressed', String(watching));
	const label = button.querySelector('[data-watch-label]');
	if (label) label.textContent = (watching ? button.dataset['textOn'] : button.dataset['textOff']) ?? '';
}

/** PUT (watch) or DELETE (stop watching) the board or post. */
export function sendWatch(api: ApiClient, target: { boardId: number } | { postId: number }, watching: boolean): Promise<WatchState> {
	if ('boardId' in target)
		return watching
			? api.member.put('/watches/boards/:boardId', { param: target })
			: api.member.delete('/watches/boards/:boardId', { param: target });
	return watching ? api.member.put('/watches/posts/:postId', { param: target }) : api.member.delete('/watches/posts/:postId', { param: target });
}

export async function toggleWatch(button: HTMLButtonElement): Promise<void> {
	if (sending.has(button)) return;
	const {
		watchTarget,
		targetId,
		userId = '',
		channelBase = '',
		textFailed = '',
		textTooMany = '',
		textLimit = '',
		toastOn = '',
		toastOff = '',
	} = button.dataset;
	const watching = button.getAttribute('aria-pressed') !== 'true';
	showState(button, watching);
	sending.add(button);
	try {
		const api = memberClient(userId);
		const state = await sendWatch(api, watchTarget === 'board' ? { boardId: Number(targetId) } : { postId: Number(targetId) }, watching);
		showState(button, state.watching);
		showToast(state.watching ? toastOn : toastOff);
	} catch (error) {
		showState(button, !watching);
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind === 'handled') return;
		showActionAlert(outcome.kind === 'too-many' ? textTooMany : resultCodeOf(error) === WatchLimitReached.code ? textLimit : textFailed);
	} finally {
		sending.delete(button);
	}
}
