/**
 * The post page's images before the viewer: each image in the body is a link to its file (the
 * viewer without JavaScript). A plain press of one (a click, a tap, Enter) fetches the viewer
 * (src/page-scripts/image-viewer.ts) the first time and opens it at that image; nothing is fetched
 * before, so the page's JavaScript before interaction stays within its budget. A press with a
 * modifier (a new tab, a download) keeps the link's own behaviour.
 */
document.querySelector('.post-body')?.addEventListener('click', (event) => {
	const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a.content-image-link');
	if (!link || !(event instanceof MouseEvent) || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
	if (!document.querySelector('[data-image-viewer]')) return;
	event.preventDefault();
	void import('@/page-scripts/image-viewer').then(({ openImageViewer }) => openImageViewer(link));
});
