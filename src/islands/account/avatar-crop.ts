/**
 * The square crop of an avatar (docs/reference/avatars.md), as pure arithmetic: the picture's
 * square at zoom 1 is the largest that fits (its shorter side), a zoom of z shows 1/z of that, and
 * the square's centre moves over the picture but never past its edges. The dialog (AvatarForm.tsx)
 * keeps a Crop and draws `cropSquare(…)`; unit tests hold the rules.
 */

export interface Crop {
	/** The square's centre, in the picture's pixels. */
	x: number;
	y: number;
	/** 1 (the whole shorter side) to MAX_ZOOM. */
	zoom: number;
}

export const MAX_ZOOM = 4;

/** The square in the picture's pixels that `crop` shows: its left and top edges and its side. */
export function cropSquare(width: number, height: number, crop: Crop): { left: number; top: number; side: number } {
	const side = Math.min(width, height) / crop.zoom;
	const left = Math.min(Math.max(crop.x - side / 2, 0), width - side);
	const top = Math.min(Math.max(crop.y - side / 2, 0), height - side);
	return { left, top, side };
}

/** The centred crop of a picture, at zoom 1. */
export function centredCrop(width: number, height: number): Crop {
	return { x: width / 2, y: height / 2, zoom: 1 };
}

/** `crop` with its centre kept where the square can be (so that a move back starts at once) and its zoom within 1 to MAX_ZOOM. */
export function clampCrop(width: number, height: number, crop: Crop): Crop {
	const zoom = Math.min(Math.max(crop.zoom, 1), MAX_ZOOM);
	const { left, top, side } = cropSquare(width, height, { ...crop, zoom });
	return { x: left + side / 2, y: top + side / 2, zoom };
}

/**
 * `crop` moved by a drag of (dx, dy) CSS pixels over a view `viewSide` CSS pixels wide: the picture
 * follows the pointer, so the square's centre moves the other way.
 */
export function dragCrop(width: number, height: number, crop: Crop, dx: number, dy: number, viewSide: number): Crop {
	const perPixel = cropSquare(width, height, crop).side / viewSide;
	return clampCrop(width, height, { ...crop, x: crop.x - dx * perPixel, y: crop.y - dy * perPixel });
}

/** The step of an arrow key: a tenth of the square's side. */
export function keyCrop(width: number, height: number, crop: Crop, key: string): Crop | null {
	const step = cropSquare(width, height, crop).side / 10;
	const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
	const move = moves[key];
	if (move) return clampCrop(width, height, { ...crop, x: crop.x + move[0], y: crop.y + move[1] });
	if (key === '+' || key === '=') return clampCrop(width, height, { ...crop, zoom: crop.zoom * 1.25 });
	if (key === '-' || key === '_') return clampCrop(width, height, { ...crop, zoom: crop.zoom / 1.25 });
	return null;
}
