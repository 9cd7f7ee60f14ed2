/**
 * The avatar's stored sizes, made in the browser from the member's crop (docs/reference/avatars.md),
 * as thumbnails are (src/islands/editor/thumbnail.ts): the square drawn on a canvas of each size of
 * AVATAR_SIZES and encoded as WebP (JPEG on white where the canvas cannot encode WebP), each PUT to
 * the member API's /me/avatar with its own Content-Type, the largest first. Then the browser's own
 * copies of the stable URLs are fetched again, so that the member's next page shows the new picture
 * at once (everyone else's browser within AVATAR_MAX_AGE). Loaded by import() when a picture is saved.
 */
import { $userId } from '@/stores/user-id';
import { USER_ID_HEADER } from '@/lib/names';
import { apiUrl, FetchError, ResponseError, type EnvelopeHeader } from '@/lib/api-client';
import { channelPath, type ChannelRef } from '@/lib/urls';
import { AVATAR_MAX_BYTES, AVATAR_SIZES, avatarUrl } from '@/lib/avatars';
import { encodeWithin } from '@/islands/common/canvas-encode';

const QUALITIES = [0.85, 0.7, 0.5, 0.3];

/** The square (`left`, `top`, `side` in the picture's pixels) of `bitmap` at `size` pixels a side, encoded; null when nothing fits. */
async function sized(bitmap: ImageBitmap, square: { left: number; top: number; side: number }, size: number): Promise<Blob | null> {
	const canvas = document.createElement('canvas');
	canvas.width = size;
	canvas.height = size;
	const context = canvas.getContext('2d');
	if (!context) return null;
	context.imageSmoothingQuality = 'high';
	const draw = (background: string | null) => {
		context.clearRect(0, 0, size, size);
		if (background) {
			context.fillStyle = background;
			context.fillRect(0, 0, size, size);
		}
		context.drawImage(bitmap, square.left, square.top, square.side, square.side, 0, 0, size, size);
	};
	return encodeWithin(canvas, draw, AVATAR_MAX_BYTES, QUALITIES);
}

/**
 * Makes and sends every size of the avatar cropped from `bitmap`; returns the largest, for the page
 * to show at once. @throws FetchError or ResponseError with the API's result code when a size is refused
 */
export async function saveAvatar(
	channel: ChannelRef,
	userId: number,
	bitmap: ImageBitmap,
	square: { left: number; top: number; side: number },
): Promise<Blob> {
	const sizes = [...AVATAR_SIZES].sort((a, b) => b - a);
	let largest: Blob | null = null;
	for (const size of sizes) {
		const image = await sized(bitmap, square, size);
		if (!image) throw new Error('The picture could not be encoded');
		largest ??= image;
		const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': image.type };
		const stored = $userId.get();
		if (stored) headers[USER_ID_HEADER] = stored;
		const response = await fetch(`${apiUrl(channel, 'member', '/me/avatar')}?size=${size}`, {
			method: 'PUT',
			credentials: 'include',
			headers,
			body: image,
		});
		const body: unknown = await response.json().catch(() => null);
		if (!response.ok) throw new FetchError(response.status, response.statusText, body);
		const header = (body as { header?: EnvelopeHeader } | null)?.header;
		if (header && !header.isSuccessful) throw new ResponseError(header, body);
	}
	await refreshCopies(channel, userId);
	return largest as Blob;
}

/** Fetches the member's avatar URLs again past the browser's cache, so that its copies are the new picture (or the generated one). */
export async function refreshCopies(channel: ChannelRef, userId: number): Promise<void> {
	await Promise.all(
		AVATAR_SIZES.map((size) =>
			fetch(avatarUrl(channelPath(channel), userId, size), { cache: 'reload', credentials: 'same-origin' })
				.then((response) => response.arrayBuffer())
				.catch(() => undefined),
		),
	);
}
