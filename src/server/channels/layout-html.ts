/**
 * The main layout's pieces (header, board tree, footer) as rendered HTML, remembered in the isolate:
 * they are the same for every page of a channel that shares the piece's variant (guest or member,
 * the current board), so each is rendered once per channel row (re-read every second) and layout
 * data (re-read when the content version moves) instead of on every page.
 */
import { createMemo } from '@/server/platform/memo';
import type { Channel } from './channels';
import type { LayoutData } from './layout';

/** Pieces × variants × channels an isolate keeps; the least recently used goes first. */
const LAYOUT_HTML_ENTRIES = 2048;
const pieces = createMemo<string>(LAYOUT_HTML_ENTRIES);

const serials = new WeakMap<object, number>();
let lastSerial = 0;
/** A number per object for as long as it lives, so an entry knows which channel row and layout data it was rendered from. */
function serialOf(value: object): number {
	let serial = serials.get(value);
	if (serial === undefined) {
		lastSerial += 1;
		serial = lastSerial;
		serials.set(value, serial);
	}
	return serial;
}

/**
 * The HTML `render` gives for `piece` (its name and variant) of the channel's layout, rendered once
 * per channel row and layout data. `render` must depend on nothing else.
 */
export function rememberLayoutHtml(channel: Channel, layout: LayoutData, piece: string, render: () => Promise<string>): Promise<string> {
	const stamp = serialOf(channel);
	return pieces.read(`${channel.id}:${serialOf(layout)}:${piece}`, stamp, (known) => known === stamp, render);
}

/**
 * The part of a page path that the layout's pieces show (as the current menu entry or tree link):
 * the channel home, All Posts or a board's list; '' for any other page.
 */
export function layoutPathOf(basePath: string, path: string): string {
	if (!path.startsWith(basePath)) return '';
	const rest = path.slice(basePath.length);
	return rest === '' || rest === '/boards' || /^\/boards\/\d{1,16}$/.test(rest) ? path : '';
}

/**
 * What a layout piece's variant depends on: the path the pieces show as current (layoutPathOf), or
 * else the board the page belongs to (a post's, `inBoard`), which they mark as where the reader is.
 */
export function layoutPlaceOf(basePath: string, path: string, inBoard: number | undefined): string {
	const shown = layoutPathOf(basePath, path);
	return shown !== '' || inBoard === undefined ? shown : `in-board:${inBoard}`;
}

/**
 * How a layout piece marks a link to a board: `page` on the board's own page, `true` on a page that
 * belongs to it (a post's, `inBoard`), else nothing.
 */
export function currentMark(currentPath: string, href: string, boardId: number, inBoard: number | undefined): 'page' | 'true' | undefined {
	if (currentPath === href) return 'page';
	return boardId === inBoard ? 'true' : undefined;
}
