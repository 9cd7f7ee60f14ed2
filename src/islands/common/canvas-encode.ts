/**
 * A picture drawn on a canvas, encoded small in the browser (thumbnails, docs/reference/thumbnails.md;
 * avatars, docs/reference/avatars.md): WebP at each quality in turn until it fits `maxBytes`, else
 * JPEG on white (where the canvas cannot encode WebP, as Safari's, or nothing fitted); null when
 * nothing fits. `draw` paints the picture over the given background (none for WebP's transparency).
 */
function encode(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob | null> {
	return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

export async function encodeWithin(
	canvas: HTMLCanvasElement,
	draw: (background: string | null) => void,
	maxBytes: number,
	qualities: readonly number[],
): Promise<Blob | null> {
	draw(null);
	for (const quality of qualities) {
		const webp = await encode(canvas, 'image/webp', quality);
		if (!webp || webp.type !== 'image/webp') break;
		if (webp.size <= maxBytes) return webp;
	}
	// JPEG has no transparency: a transparent picture's background is drawn white, as a post shows it on paper.
	draw('#ffffff');
	for (const quality of qualities) {
		const jpeg = await encode(canvas, 'image/jpeg', quality);
		if (jpeg && jpeg.type === 'image/jpeg' && jpeg.size <= maxBytes) return jpeg;
	}
	return null;
}
