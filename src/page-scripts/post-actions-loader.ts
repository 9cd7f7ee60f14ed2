/**
 * The post's action bar (src/components/post/PostActions.astro) before its modules: each action's
 * module is fetched once, when it is first wanted (the pointer or the focus on its button, or a press).
 */
const modules = {
	like: () => import('@/page-scripts/post-like'),
	watch: () => import('@/page-scripts/watch-toggle'),
	save: () => import('@/page-scripts/save-toggle'),
	share: () => import('@/page-scripts/share-dialog'),
	report: () => import('@/islands/common/report-dialog'),
	block: () => import('@/islands/common/block-dialog'),
};
type Action = keyof typeof modules;
const actionOf = (target: EventTarget | null) => {
	const button = (target as Element | null)?.closest?.<HTMLButtonElement>('button[data-post-action]');
	const action = button?.dataset['postAction'];
	return button && action && action in modules ? { button, action: action as Action } : null;
};
const bar = document.querySelector<HTMLElement>('[data-post-action-bar]');
for (const type of ['pointerover', 'focusin'] as const) {
	bar?.addEventListener(type, (event) => {
		const found = actionOf(event.target);
		if (found) void modules[found.action]();
	});
}
bar?.addEventListener('click', async (event) => {
	const found = actionOf(event.target);
	if (!found) return;
	const { button, action } = found;
	if (action === 'like') (await modules.like()).toggleLike(button);
	else if (action === 'watch') (await modules.watch()).toggleWatch(button);
	else if (action === 'save') (await modules.save()).toggleSave(button);
	else if (action === 'share') (await modules.share()).openShareDialog();
	else if (action === 'block') (await modules.block()).toggleBlockButton(button);
	// A reported post's button stays focusable (aria-disabled, so focus returns to it when the dialog closes) and does nothing.
	else if (button.dataset['reported'] === undefined)
		(await modules.report()).openReportDialog({ type: 'POST', id: Number(button.dataset['postId']) });
});
