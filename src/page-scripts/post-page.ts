/**
 * The post page's one module (src/pages/[domain]/[slug]/posts/[postId].astro), besides the
 * layout's: the action bar's and the comments' loaders, the image viewer's, the view count's beacon,
 * the edit history's dialog, the post's Delete and the YouTube facades. One file instead of one per component (docs/decisions/performance.md).
 */
import { viewedStorageKey } from '@/lib/names';
import { PLAYER_FEATURES, YOUTUBE_PLAYER_ORIGIN } from '@/lib/youtube-player';
import './post-actions-loader';
import './comments-loader';
import './image-viewer-loader';

// One view per post per reader session: reloads and back-navigation do not count again.
const article = document.querySelector<HTMLElement>('[data-view-beacon]');
const beacon = article?.dataset['viewBeacon'];
if (beacon) {
	const key = viewedStorageKey(beacon);
	try {
		if (!sessionStorage.getItem(key)) {
			sessionStorage.setItem(key, '1');
			navigator.sendBeacon(beacon);
		}
	} catch {
		// Storage can be blocked; counting the view without it is better than not at all.
		navigator.sendBeacon(beacon);
	}
}

// The live thread (live-thread.ts: the banner of new comments), its module fetched at the reader's first
// scroll, press or key: nothing of it loads before an interaction (tests/e2e/budget.spec.ts).
const liveBanner = document.querySelector<HTMLElement>('[data-live-banner]');
const commentsSection = document.querySelector<HTMLElement>('[data-comments]');
if (liveBanner && commentsSection) {
	const LIVE_WAKE = ['scroll', 'pointerdown', 'keydown'] as const;
	const start = () => {
		for (const type of LIVE_WAKE) removeEventListener(type, start);
		void import('@/page-scripts/live-thread').then(({ followThread }) => followThread(liveBanner, commentsSection));
	};
	for (const type of LIVE_WAKE) addEventListener(type, start, { passive: true });
}

// An "edited" mark opens the earlier versions (src/components/post/RevisionsDialog.astro), its module fetched at the first press.
document.addEventListener('click', (event) => {
	const mark = (event.target as Element | null)?.closest<HTMLElement>('[data-revisions]');
	if (mark) void import('@/page-scripts/revisions-dialog').then(({ openRevisions }) => openRevisions(mark));
});

// The post's Delete (its author's, an administrator's) asks in its confirm (member-parts.ts postChangeHtml), its module fetched at the first press.
document.addEventListener('click', (event) => {
	const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-delete-post]');
	if (button) void import('@/page-scripts/post-delete').then(({ askDeletePost }) => askDeletePost(button));
});

// YouTube facades become the player (privacy-enhanced domain) only when the reader asks for it.
document.addEventListener('click', (event) => {
	const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-youtube-id]');
	const id = link?.dataset['youtubeId'];
	if (!link || !id || !/^[A-Za-z0-9_-]{11}$/.test(id)) return;
	event.preventDefault();
	const frame = document.createElement('iframe');
	frame.src = `${YOUTUBE_PLAYER_ORIGIN}/embed/${id}?autoplay=1`;
	frame.title = link.textContent ?? 'YouTube';
	frame.allow = PLAYER_FEATURES.join('; ');
	link.replaceWith(frame);
});
