/**
 * The post's image viewer (src/components/post/ImageViewer.astro), fetched on the first press of an
 * image (src/page-scripts/image-viewer-loader.ts). A modal <dialog>: the browser keeps focus inside it,
 * Esc closes it, and the page behind neither scrolls nor takes presses. On top of that:
 * - the post's images in order, with a counter ("2 / 5"), previous and next buttons, ← and →;
 * - zoom from 1× to 4×: pinch with two fingers, double-tap or double-click, the zoom button
 *   (1× ⇄ 2×), the wheel or a trackpad's pinch (ctrl+wheel), + and -; a zoomed image pans by drag;
 * - at 1×, a horizontal swipe (any pointer) past a threshold goes to the next or previous image,
 *   and a swipe down past it closes the viewer (the image follows the finger down until then);
 * - on close, focus returns to the link of the image last shown.
 * Transforms are set through the CSSOM (element.style), which the page's style policy allows, unlike
 * style attributes.
 */

const MAX_SCALE = 4;
const STEP_SCALE = 2;
/** How far (CSS px) a swipe must travel to change the image, at most; less on a narrow screen. */
const SWIPE_DISTANCE = 60;
/** A press that moves less than this is a tap, not a drag. */
const TAP_SLOP = 10;
/** Two taps this close in time (ms) and space (px) are a double-tap. */
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_SLOP = 30;

interface Point {
	x: number;
	y: number;
}

interface Viewer {
	open(link: HTMLAnchorElement): void;
}

let viewer: Viewer | null = null;

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

function createViewer(dialog: HTMLDialogElement): Viewer {
	const part = <T extends HTMLElement>(name: string) => dialog.querySelector<T>(`[data-image-viewer-${name}]`)!;
	const stage = part<HTMLElement>('stage');
	const image = part<HTMLImageElement>('image');
	const counter = part<HTMLElement>('counter');
	const previous = part<HTMLButtonElement>('previous');
	const next = part<HTMLButtonElement>('next');
	const zoom = part<HTMLButtonElement>('zoom');
	const close = part<HTMLButtonElement>('close');

	let links: HTMLAnchorElement[] = [];
	let index = 0;
	let scale = 1;
	let offset: Point = { x: 0, y: 0 };

	/** Where a point of the window sits relative to the stage's centre. */
	const fromCentre = (clientX: number, clientY: number): Point => {
		const box = stage.getBoundingClientRect();
		return { x: clientX - box.left - box.width / 2, y: clientY - box.top - box.height / 2 };
	};

	/** Keeps a zoomed image covering the stage where it can: it pans no further than its edges. */
	const clampOffset = (wanted: Point): Point => {
		const limitX = Math.max(0, (image.offsetWidth * scale - stage.clientWidth) / 2);
		const limitY = Math.max(0, (image.offsetHeight * scale - stage.clientHeight) / 2);
		return { x: Math.min(limitX, Math.max(-limitX, wanted.x)), y: Math.min(limitY, Math.max(-limitY, wanted.y)) };
	};

	const render = () => {
		image.style.transform = `translate(${offset.x}px, ${offset.y}px) scale(${scale})`;
		const zoomed = scale > 1.01;
		dialog.toggleAttribute('data-zoomed', zoomed);
		zoom.setAttribute('aria-label', (zoomed ? zoom.dataset['labelOut'] : zoom.dataset['labelIn']) ?? '');
		zoom.setAttribute('aria-pressed', String(zoomed));
	};

	/**
	 * Zooms to `target`, keeping the image's point under `at` (relative to the stage's centre) in
	 * place, or moved by `shift` (a pinch's fingers moving together), from the state `from`.
	 */
	const zoomTo = (target: number, at: Point = { x: 0, y: 0 }, from = { scale, offset }, shift: Point = { x: 0, y: 0 }) => {
		const next = Math.min(MAX_SCALE, Math.max(1, target));
		const ratio = next / from.scale;
		scale = next;
		offset =
			next === 1
				? { x: 0, y: 0 }
				: clampOffset({ x: at.x + shift.x - (at.x - from.offset.x) * ratio, y: at.y + shift.y - (at.y - from.offset.y) * ratio });
		render();
	};

	const toggleZoom = (at?: Point) => zoomTo(scale > 1.01 ? 1 : STEP_SCALE, at);

	const show = (at: number) => {
		const link = links[at];
		if (!link) return;
		index = at;
		const thumbnail = link.querySelector('img');
		image.src = link.getAttribute('href') ?? link.href;
		image.alt = thumbnail?.alt ?? '';
		for (const name of ['width', 'height'] as const) {
			const value = thumbnail?.getAttribute(name);
			if (value) image.setAttribute(name, value);
			else image.removeAttribute(name);
		}
		counter.textContent = `${at + 1} / ${links.length}`;
		const single = links.length < 2;
		previous.hidden = single;
		next.hidden = single;
		counter.hidden = single;
		// A button disabled under the focus (the last image reached) hands it on, so focus stays in the dialog.
		const focused = document.activeElement;
		previous.disabled = at === 0;
		next.disabled = at === links.length - 1;
		if (focused === previous && previous.disabled) (next.disabled ? close : next).focus();
		if (focused === next && next.disabled) (previous.disabled ? close : previous).focus();
		scale = 1;
		offset = { x: 0, y: 0 };
		stage.classList.remove('dragging');
		render();
		// The neighbours load while this one is looked at, so a swipe shows the next at once.
		for (const near of [links[at - 1], links[at + 1]]) if (near) new Image().src = near.href;
	};

	const step = (by: number) => {
		const target = index + by;
		if (target >= 0 && target < links.length) show(target);
	};

	previous.addEventListener('click', () => step(-1));
	next.addEventListener('click', () => step(1));
	zoom.addEventListener('click', () => toggleZoom());
	close.addEventListener('click', () => dialog.close());

	dialog.addEventListener('keydown', (event) => {
		if (event.altKey || event.ctrlKey || event.metaKey) return;
		if (event.key === 'Tab') {
			// Tab goes round the viewer's buttons; a modal dialog alone would let it out to the browser's own bar.
			const buttons = [...dialog.querySelectorAll<HTMLButtonElement>('button')].filter((button) => !button.disabled && !button.hidden);
			const edge = event.shiftKey ? buttons[0] : buttons[buttons.length - 1];
			if (document.activeElement === edge || !dialog.contains(document.activeElement)) {
				event.preventDefault();
				(event.shiftKey ? buttons[buttons.length - 1] : buttons[0])?.focus();
			}
			return;
		}
		const action: Record<string, () => void> = {
			ArrowLeft: () => step(-1),
			ArrowRight: () => step(1),
			'+': () => zoomTo(scale * 1.5),
			'=': () => zoomTo(scale * 1.5),
			'-': () => zoomTo(scale / 1.5),
		};
		const run = action[event.key];
		if (!run) return;
		event.preventDefault();
		run();
	});

	dialog.addEventListener('close', () => {
		const link = links[index];
		image.removeAttribute('src');
		link?.focus();
	});

	/** Whether a point of the window is on the image (the stage holds the pointer, so targets say only "the stage"). */
	const isOnImage = (x: number, y: number) => {
		const box = image.getBoundingClientRect();
		return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
	};

	// Pointers: one drags (pans a zoomed image, swipes one at 1×), two pinch.
	const pointers = new Map<number, Point>();
	// `down`: a drag at 1× that went downward first, which closes the viewer instead of swiping.
	let drag: { start: Point; offset: Point; moved: boolean; onImage: boolean; down?: boolean } | null = null;
	let pinch: { distance: number; centre: Point; scale: number; offset: Point } | null = null;
	let lastTap: { at: number; point: Point } | null = null;

	const beginDrag = (point: Point, onImage: boolean) => {
		drag = { start: point, offset: { ...offset }, moved: false, onImage };
	};

	stage.addEventListener('pointerdown', (event) => {
		if (event.pointerType === 'mouse' && event.button !== 0) return;
		stage.setPointerCapture(event.pointerId);
		const point = { x: event.clientX, y: event.clientY };
		pointers.set(event.pointerId, point);
		stage.classList.add('dragging');
		if (pointers.size === 1) beginDrag(point, isOnImage(point.x, point.y));
		else if (pointers.size === 2) {
			const [a, b] = [...pointers.values()] as [Point, Point];
			pinch = { distance: distance(a, b) || 1, centre: midpoint(a, b), scale, offset: { ...offset } };
			drag = null;
		}
	});

	stage.addEventListener('pointermove', (event) => {
		if (!pointers.has(event.pointerId)) return;
		const point = { x: event.clientX, y: event.clientY };
		pointers.set(event.pointerId, point);
		if (pinch && pointers.size >= 2) {
			const [a, b] = [...pointers.values()] as [Point, Point];
			const centre = midpoint(a, b);
			const startCentre = fromCentre(pinch.centre.x, pinch.centre.y);
			// The pinch zooms about where it began, and the image follows the fingers' midpoint.
			const shift = { x: centre.x - pinch.centre.x, y: centre.y - pinch.centre.y };
			zoomTo((pinch.scale * distance(a, b)) / pinch.distance, startCentre, { scale: pinch.scale, offset: pinch.offset }, shift);
			return;
		}
		if (!drag) return;
		const dx = point.x - drag.start.x;
		const dy = point.y - drag.start.y;
		if (!drag.moved && Math.hypot(dx, dy) < TAP_SLOP) return;
		if (!drag.moved) drag.down = dy > Math.abs(dx);
		drag.moved = true;
		// Zoomed, the image pans; at 1×, it follows the finger sideways, as a swipe, or down, to close.
		offset =
			scale > 1.01 ? clampOffset({ x: drag.offset.x + dx, y: drag.offset.y + dy }) : drag.down ? { x: 0, y: Math.max(0, dy) } : { x: dx, y: 0 };
		render();
	});

	const release = (event: PointerEvent) => {
		if (!pointers.delete(event.pointerId)) return;
		if (pointers.size === 1) {
			// The pinch ends with one finger down: that finger pans on from here.
			pinch = null;
			const [remaining] = [...pointers.values()] as [Point];
			beginDrag(remaining, false);
			drag!.moved = true;
			return;
		}
		if (pointers.size > 0) return;
		stage.classList.remove('dragging');
		pinch = null;
		const ended = drag;
		drag = null;
		if (!ended) return;
		const point = { x: event.clientX, y: event.clientY };
		if (ended.moved) {
			if (scale > 1.01) return;
			const dx = point.x - ended.start.x;
			const threshold = Math.min(SWIPE_DISTANCE, stage.clientWidth / 6);
			offset = { x: 0, y: 0 };
			render();
			if (event.type !== 'pointerup') return;
			if (ended.down) {
				if (point.y - ended.start.y >= threshold) dialog.close();
			} else if (Math.abs(dx) >= threshold) step(dx < 0 ? 1 : -1);
			return;
		}
		if (event.type !== 'pointerup') return;
		if (event.pointerType === 'mouse') {
			// A click beside the image closes the viewer, as on the peers; double-clicks zoom (below).
			if (!ended.onImage && scale <= 1.01) dialog.close();
			return;
		}
		// A double-tap toggles the zoom where it lands.
		if (lastTap && event.timeStamp - lastTap.at < DOUBLE_TAP_MS && distance(lastTap.point, point) < DOUBLE_TAP_SLOP) {
			lastTap = null;
			toggleZoom(fromCentre(point.x, point.y));
		} else lastTap = { at: event.timeStamp, point };
	};
	stage.addEventListener('pointerup', release);
	stage.addEventListener('pointercancel', release);

	stage.addEventListener('dblclick', (event) => {
		if (isOnImage(event.clientX, event.clientY)) toggleZoom(fromCentre(event.clientX, event.clientY));
	});

	stage.addEventListener(
		'wheel',
		(event) => {
			event.preventDefault();
			// A trackpad's pinch arrives as ctrl+wheel with small deltas; a mouse wheel's notches are larger.
			const factor = Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.002));
			zoomTo(scale * factor, fromCentre(event.clientX, event.clientY));
		},
		{ passive: false },
	);

	image.addEventListener('dragstart', (event) => event.preventDefault());

	return {
		open(link) {
			links = [...document.querySelectorAll<HTMLAnchorElement>('.post-body a.content-image-link')];
			const at = Math.max(0, links.indexOf(link));
			if (!dialog.open) dialog.showModal();
			show(at);
			close.focus();
		},
	};
}

/** Opens the viewer at the image of `link`; without the viewer's markup, follows the link instead. */
export function openImageViewer(link: HTMLAnchorElement): void {
	const dialog = document.querySelector<HTMLDialogElement>('dialog[data-image-viewer]');
	if (!dialog) {
		location.assign(link.href);
		return;
	}
	viewer ??= createViewer(dialog);
	viewer.open(link);
}
