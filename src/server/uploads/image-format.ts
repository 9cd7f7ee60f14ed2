/**
 * What an uploaded image really is, read from its bytes alone (a declared Content-Type or file
 * name is never asked): JPEG, PNG, GIF or WebP by their magic numbers, their dimensions from their
 * headers, and a structure walk from the first byte to the format's end that refuses a truncated
 * or malformed file. The walk rebuilds the file without its metadata (location, camera, comments,
 * text chunks, XMP) and without anything after the format's end, which is where polyglots hide
 * HTML or script. Pure code over a Uint8Array, so the unit tests run it as the Worker does.
 *
 * JPEG keeps its orientation: a minimal EXIF segment with only that tag replaces the original, so
 * browsers still turn the photo upright, and the reported width and height are the upright ones
 * (swapped for orientations 5 to 8). WebP loses its EXIF, orientation included.
 */
import { checkResolution, hasAscii, invalid, type Walked } from './image-bytes';
import { walkJpeg } from './image-jpeg';
import { walkPng } from './image-png';
import { walkGif } from './image-gif';
import { walkWebp } from './image-webp';
export { IMAGE_MAX_DIMENSION, IMAGE_MAX_PIXELS } from './image-bytes';

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

/** The type an upload is served with and the extension of its key, by format. */
export const IMAGE_TYPES = {
	jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
	png: { contentType: 'image/png', extension: 'png' },
	gif: { contentType: 'image/gif', extension: 'gif' },
	webp: { contentType: 'image/webp', extension: 'webp' },
} as const satisfies Record<ImageFormat, { contentType: string; extension: string }>;

export interface CleanImage {
	format: ImageFormat;
	contentType: (typeof IMAGE_TYPES)[ImageFormat]['contentType'];
	extension: (typeof IMAGE_TYPES)[ImageFormat]['extension'];
	/** As displayed, after a JPEG's orientation. */
	width: number;
	height: number;
	/** The image without metadata and without anything after its end. */
	bytes: Uint8Array;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The format the bytes start like, by magic number alone; null for anything else. */
export function sniffImageFormat(b: Uint8Array): ImageFormat | null {
	if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
	if (b.length >= 8 && PNG_SIGNATURE.every((byte, i) => b[i] === byte)) return 'png';
	if (hasAscii(b, 0, 'GIF87a') || hasAscii(b, 0, 'GIF89a')) return 'gif';
	if (hasAscii(b, 0, 'RIFF') && hasAscii(b, 8, 'WEBP')) return 'webp';
	return null;
}

/**
 * The image in `bytes`, checked and cleaned.
 * @throws AppError InvalidImage for anything that is not a whole JPEG, PNG, GIF or WebP of at least
 *   one pixel a side (HTML, SVG, a renamed file, zero bytes, a truncated file)
 * @throws AppError ImageResolutionTooHigh for an image over IMAGE_MAX_DIMENSION a side or
 *   IMAGE_MAX_PIXELS (checkResolution)
 */
export function cleanImage(bytes: Uint8Array): CleanImage {
	const format = sniffImageFormat(bytes);
	if (!format) invalid();
	const walked = WALKERS[format](bytes);
	const { width, height } = walked;
	if (!(width >= 1 && height >= 1)) invalid();
	checkResolution(width, height);
	return { format, ...IMAGE_TYPES[format], width, height, bytes: walked.bytes };
}

const WALKERS: Record<ImageFormat, (b: Uint8Array) => Walked> = { jpeg: walkJpeg, png: walkPng, gif: walkGif, webp: walkWebp };
