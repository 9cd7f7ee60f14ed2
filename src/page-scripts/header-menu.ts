/**
 * The header's menu row (src/components/layout/Header.astro): scroll arrows appear only on the side
 * the menu overflows; each moves half the visible width.
 */
for (const nav of document.querySelectorAll<HTMLElement>('[data-menu]')) {
	const list = nav.querySelector<HTMLElement>('[data-menu-list]');
	const left = nav.querySelector<HTMLButtonElement>('[data-menu-arrow="left"]');
	const right = nav.querySelector<HTMLButtonElement>('[data-menu-arrow="right"]');
	if (!list || !left || !right) continue;
	const update = () => {
		left.hidden = list.scrollLeft <= 1;
		right.hidden = list.scrollLeft + list.clientWidth >= list.scrollWidth - 1;
	};
	left.addEventListener('click', () => list.scrollBy({ left: -list.clientWidth / 2, behavior: 'smooth' }));
	right.addEventListener('click', () => list.scrollBy({ left: list.clientWidth / 2, behavior: 'smooth' }));
	list.addEventListener('scroll', update, { passive: true });
	new ResizeObserver(update).observe(list);
	// The page's own entry (a pinned board being read), when it ends past the menu's visible part
	// or under its right arrow (as on a phone), is scrolled to the middle; only the menu's scroll
	// position changes, so nothing on the page moves.
	const current = list.querySelector<HTMLElement>('[aria-current]');
	if (current && current.offsetLeft + current.offsetWidth > list.clientWidth - 32)
		list.scrollLeft = current.offsetLeft - (list.clientWidth - current.offsetWidth) / 2;
	update();
}
