/**
 * The small variant of an uploaded image that post lists show (point 8;
 * docs/reference/thumbnails.md), made in the browser right after the upload: the picture drawn on a canvas at
 * most THUMBNAIL_MAX_SIDE px a side and encoded as WebP (JPEG where the browser's canvas cannot
 * encode WebP, as Safari's), then POSTed to the upload's thumbnail route. Loaded by import() once an
 * upload has succeeded, so the write page's first JavaScript does not carry it. Any failure leaves
 * the upload without a thumbnail, and its post's list row shows the ▣ mark as before.
 */
import { $userId } from '@/stores/user-id';
import { USER_ID_HEADER } from '@/lib/names';
import { apiUrl } from '@/lib/api-client';
import type { ChannelRef } from '@/lib/urls';
import { THUMBNAIL_MAX_BYTES, THUMBNAIL_MAX_SIDE } from '@/lib/thumbnails';
import { encodeWithin } from '@/islands/common/canvas-encode';

/** Qualities tried in turn until the picture fits THUMBNAIL_MAX_BYTES (the first almost always does). */
const QUALITIES = [0.8, 0.6, 0.4];

/** The thumbnail of `file`, or null when the browser cannot decode it or no quality fits. */
async function makeThumbnail(file: Blob): Promise<Blob | null> {
	// Turned upright by its EXIF orientation, as the post shows it.
	const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
	const scale = Math.min(1, THUMBNAIL_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
	const canvas = document.createElement('canvas');
	canvas.width = Math.max(1, Math.round(bitmap.width * scale));
	canvas.height = Math.max(1, Math.round(bitmap.height * scale));
	const context = canvas.getContext('2d');
	if (!context) return null;
	context.imageSmoothingQuality = 'high';
	const draw = (background: string | null) => {
		context.clearRect(0, 0, canvas.width, canvas.height);
		if (background) {
			context.fillStyle = background;
			context.fillRect(0, 0, canvas.width, canvas.height);
		}
		context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
	};
	try {
		return await encodeWithin(canvas, draw, THUMBNAIL_MAX_BYTES, QUALITIES);
	} finally {
		bitmap.close();
	}
}

/**
 * Makes and sends the thumbnail of `file`, the image just uploaded to the channel's uploads and stored at
 * `src` (`/uploads/{key}`). Never throws: a thumbnail is a nicety of lists.
 */
export async function sendThumbnail(channel: ChannelRef, file: Blob, src: string): Promise<void> {
	try {
		const thumbnail = await makeThumbnail(file);
		if (!thumbnail) return;
		const key = src.slice(src.lastIndexOf('/') + 1);
		const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': thumbnail.type };
		const userId = $userId.get();
		if (userId) headers[USER_ID_HEADER] = userId;
		const response = await fetch(apiUrl(channel, 'member', '/uploads/:key/thumbnail', { key }), {
			method: 'POST',
			credentials: 'include',
			headers,
			body: thumbnail,
		});
		// Read to its end, so that the connection is free again (nothing in it is needed).
		await response.arrayBuffer();
	} catch {
		// An image the browser cannot draw (a format it lacks), or the network: the list shows ▣.
	}
}
