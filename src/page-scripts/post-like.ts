/**
 * The post's like button (src/components/post/PostActions.astro): a click shows the new state and
 * count at once, then sends PUT or DELETE /v1/{domain}/{slug}/posts/{postId}/like. Clicks during a
 * request are kept: when it answers, the latest wish is sent if it differs from what the server
 * now holds, so a double click ends where the member left it. A failure puts back the server's
 * last state and says so (docs/reference/product-rules.md#errors-and-texts: the generic alert, too many requests, the forced-login alert or
 * the ban dialog). The count shown goes through the counts store, so every place that shows it follows.
 */
import type { LikeState } from '@/lib/api-types';
import { seedCounts, setCounts } from '@/stores/post-counts';
import { showPostCounts } from '@/islands/common/post-counts';
import { showActionAlert } from '@/islands/common/action-alert';
import { handleActionFailure } from '@/islands/common/member-action';
import { memberClient } from '@/islands/common/page-client';

interface Button {
	element: HTMLButtonElement;
	postId: number;
	/** What the server last said. */
	confirmed: LikeState;
	/** What the member last asked for. */
	wanted: boolean;
	sending: boolean;
}

const buttons = new WeakMap<HTMLButtonElement, Button>();

/** Toggles the like of the button's post, optimistically. */
export function toggleLike(element: HTMLButtonElement): void {
	let button = buttons.get(element);
	if (!button) {
		const liked = element.getAttribute('aria-pressed') === 'true';
		const postId = Number(element.closest<HTMLElement>('[data-post-id]')?.dataset['postId']);
		button = { element, postId, confirmed: { liked, likeCount: Number(element.dataset['count'] ?? 0) }, wanted: liked, sending: false };
		buttons.set(element, button);
		seedCounts(postId, { likeCount: button.confirmed.likeCount });
		showPostCounts(postId);
	}
	button.wanted = !button.wanted;
	show(button);
	if (!button.sending) void sync(button);
}

/** The wished state, with the confirmed count moved by the difference. */
function show({ element, postId, confirmed, wanted }: Button): void {
	const count = confirmed.likeCount + (wanted === confirmed.liked ? 0 : wanted ? 1 : -1);
	element.setAttribute('aria-pressed', String(wanted));
	element.dataset['count'] = String(count);
	setCounts(postId, { likeCount: count });
}

async function sync(button: Button): Promise<void> {
	const { userId = '', channelBase = '', textFailed = '', textTooMany = '' } = button.element.dataset;
	const api = memberClient(userId);
	button.sending = true;
	try {
		while (button.wanted !== button.confirmed.liked) {
			const like = { param: { postId: button.postId } };
			button.confirmed = button.wanted ? await api.member.put('/posts/:postId/like', like) : await api.member.delete('/posts/:postId/like', like);
		}
	} catch (error) {
		button.wanted = button.confirmed.liked;
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind !== 'handled') showActionAlert(outcome.kind === 'too-many' ? textTooMany : textFailed);
	} finally {
		button.sending = false;
		show(button);
	}
}
