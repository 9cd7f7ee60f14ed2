/**
 * The header's search box (src/components/layout/SearchForm.astro) before its island: a pointer
 * over the box (mouse, pen or touch) or the focus in it, before any key can be typed, loads the
 * island once, whichever event comes first.
 */
const EVENTS = ['pointerover', 'focusin'] as const;

for (const box of document.querySelectorAll<HTMLElement>('[data-search-box]')) {
	let loading: Promise<void> | undefined;
	const start = () => (loading ??= import('@/islands/search/SearchBoxIsland').then(({ mountSearchBox }) => mountSearchBox(box)));
	for (const name of EVENTS) box.addEventListener(name, start, { once: true });
	// A submit made before the island is in place (Enter pressed at once) waits for it and is made
	// again through the island, whose rules then run.
	const form = () => box.querySelector('form')!;
	form().onsubmit = (event) => {
		event.preventDefault();
		void start().then(() => form().requestSubmit());
	};
}
