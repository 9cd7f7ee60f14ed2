/**
 * The admin area's tab row on a narrow screen (docs/reference/phone-layout.md, "The admin area on a phone"):
 * the row scrolls sideways, so the active tab is brought into view when the page opens (Audit log
 * and Settings sit past a phone's edge), and the frame says on which side more tabs are
 * (`data-more-start`, `data-more-end`: a fade and a chevron, CSS in src/styles/admin.css). Only the
 * row scrolls, never the page.
 */
const frame = document.querySelector<HTMLElement>('[data-admin-tabs]');
const row = frame?.querySelector<HTMLElement>('.admin-tabs');

function mark(): void {
	if (!frame || !row) return;
	// A pixel of slack: a row scrolled to its end may stop a fraction short of it.
	const end = row.scrollWidth - row.clientWidth;
	frame.toggleAttribute('data-more-start', row.scrollLeft > 1);
	frame.toggleAttribute('data-more-end', end - row.scrollLeft > 1);
}

if (frame && row) {
	const active = row.querySelector<HTMLElement>('[aria-current="page"]');
	if (active && row.scrollWidth > row.clientWidth) {
		// The active tab's left edge measured in the row, then centred where the row allows.
		const left = active.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
		row.scrollLeft = Math.max(0, left - (row.clientWidth - active.offsetWidth) / 2);
	}
	mark();
	row.addEventListener('scroll', mark, { passive: true });
	new ResizeObserver(mark).observe(row);
}
