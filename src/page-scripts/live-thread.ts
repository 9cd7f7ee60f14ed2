/**
 * The post page's live thread (docs/reference/live-threads.md), loaded lazily by post-page.ts: follows
 * the post's room while the page is visible (src/lib/live-socket.ts; the comments' first page is
 * polled where no socket opens) and shows the banner (src/components/post/LiveBanner.astro) with
 * the number of comments the page does not show yet: the post's count minus the count the page
 * knows (the counts store once the comments island has set it, the rendered count before), so the
 * reader's own comment never counts as new. Show hides the banner and asks the comments to load the
 * new ones (LIVE_SHOW_EVENT: the comments loader wakes the island with it, the island loads them).
 */
import { $postCounts } from '@/stores/post-counts';
import { createApiClient } from '@/lib/api-client';
import { followLive, liveUrl } from '@/lib/live-socket';
import { LIVE_SHOW_EVENT } from '@/islands/comments/wake';

export function followThread(banner: HTMLElement, section: HTMLElement): void {
	const button = banner.querySelector<HTMLButtonElement>('[data-live-show]');
	const counter = banner.querySelector<HTMLElement>('[data-live-count]');
	const { domain = '', slug = '', postId: postIdText = '' } = section.dataset;
	const postId = Number(postIdText);
	if (!button || !counter || !postId) return;
	const rendered = (JSON.parse(section.dataset['list'] ?? '{}') as { commentCount?: number }).commentCount ?? 0;
	const known = () => $postCounts.get()[postId]?.commentCount ?? rendered;
	let latest = rendered;

	const render = () => {
		const fresh = latest - known();
		if (fresh > 0)
			counter.textContent = (fresh === 1 ? (banner.dataset['one'] ?? '') : (banner.dataset['other'] ?? '')).replace('{{count}}', String(fresh));
		button.hidden = fresh <= 0;
	};
	const heard = (count: number) => {
		latest = Math.max(latest, count);
		render();
	};
	// The reader's own comment, a deletion or Show moves the known count: the banner follows.
	$postCounts.listen(render);
	button.addEventListener('click', () => {
		button.hidden = true;
		section.dispatchEvent(new CustomEvent(LIVE_SHOW_EVENT, { bubbles: true }));
	});

	const api = createApiClient({ channel: { domain, slug } });
	followLive({
		url: liveUrl({ domain, slug }, { postId }),
		onMessage: (message) => {
			const { type, count } = message as { type?: unknown; count?: unknown };
			if (type === 'comment' && typeof count === 'number') heard(count);
		},
		poll: async () => heard((await api.public.get('/posts/:postId/comments', { param: { postId }, query: {} })).commentCount),
		// How the banner hears of comments, on the banner (data-live): open, polling or closed.
		onState: (state) => (banner.dataset['live'] = state),
	});
}
