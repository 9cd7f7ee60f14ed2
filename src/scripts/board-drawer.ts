/**
 * The board drawer on phones (Header.astro): the menu button opens a modal dialog and the sidebar's
 * board tree (Sidebar.astro, `data-board-tree`) moves into it while it is open, back to its place
 * when it closes. The dialog moves the focus in, closes on Escape, the close button or a tap on the
 * backdrop, and the focus returns to the button.
 */
const button = document.querySelector<HTMLButtonElement>('[data-drawer-button]');
const drawer = document.querySelector<HTMLDialogElement>('[data-drawer]');
const sheet = drawer?.querySelector('[data-drawer-body]');
const tree = document.querySelector('[data-board-tree]');
const home = tree?.parentNode;
const next = tree?.nextSibling ?? null;

if (button && drawer && sheet && tree && home) {
	button.addEventListener('click', () => {
		sheet.appendChild(tree);
		drawer.showModal();
		button.setAttribute('aria-expanded', 'true');
	});
	drawer.addEventListener('close', () => {
		home.insertBefore(tree, next);
		button.setAttribute('aria-expanded', 'false');
		button.focus();
	});
	// A tap on the backdrop (the dialog box itself, outside its content) closes it.
	drawer.addEventListener('click', (event) => event.target === drawer && drawer.close());
	// Leaving the page (to a board) or widening it to where the sidebar shows closes it.
	addEventListener('pagehide', () => drawer.close());
	matchMedia('(min-width: 901px)').addEventListener('change', (event) => event.matches && drawer.close());
}

// A module: its names stay its own.
export {};
