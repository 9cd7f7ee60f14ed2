/**
 * What the format walkers of ./image-format.ts share: bounds-checked readers of integers and text in
 * the bytes (a read past the end is an invalid image, never a wrong value), the size limits checked
 * from a header before any pixel data, and what a walk answers.
 */
import { AppError } from '@/server/platform/errors';
import { IMAGE_MAX_MEGAPIXELS, IMAGE_MAX_SIDE } from '@/schemas/post-limits';

/** The largest width or height accepted, in pixels (a larger one is a decompression bomb, not a photo). */
export const IMAGE_MAX_DIMENSION = IMAGE_MAX_SIDE;
/**
 * The most pixels accepted (width × height). A browser holds a decoded image at 4 bytes a pixel, so
 * 40 megapixels is 160 MB in a reader's tab: an 8K screenshot (33 MP) and a phone's photo (12 to
 * 24 MP as it saves them) fit; a 10,000 × 10,000 image (400 MB decoded, from a 12 KB PNG) does not.
 */
export const IMAGE_MAX_PIXELS = IMAGE_MAX_MEGAPIXELS * 1_000_000;

export function invalid(): never {
	throw new AppError('InvalidImage');
}

/**
 * Refuses a size a browser would need too much memory to draw (a decompression bomb: a few KB of
 * file, hundreds of MB decoded), read from the header before any pixel data.
 * @throws AppError ImageResolutionTooHigh over IMAGE_MAX_DIMENSION a side or IMAGE_MAX_PIXELS in all
 */
export function checkResolution(width: number, height: number): void {
	if (width > IMAGE_MAX_DIMENSION || height > IMAGE_MAX_DIMENSION || width * height > IMAGE_MAX_PIXELS) throw new AppError('ImageResolutionTooHigh');
}

export function u16be(b: Uint8Array, at: number): number {
	if (at + 2 > b.length) invalid();
	return (b[at]! << 8) | b[at + 1]!;
}

export function u32be(b: Uint8Array, at: number): number {
	if (at + 4 > b.length) invalid();
	return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

export function u16le(b: Uint8Array, at: number): number {
	if (at + 2 > b.length) invalid();
	return b[at]! | (b[at + 1]! << 8);
}

export function u24le(b: Uint8Array, at: number): number {
	if (at + 3 > b.length) invalid();
	return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
}

export function u32le(b: Uint8Array, at: number): number {
	if (at + 4 > b.length) invalid();
	return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** Whether `b` holds the ASCII text `text` at `at`. */
export function hasAscii(b: Uint8Array, at: number, text: string): boolean {
	if (at + text.length > b.length) return false;
	for (let i = 0; i < text.length; i += 1) if (b[at + i] !== text.charCodeAt(i)) return false;
	return true;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
	const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}

export interface Walked {
	width: number;
	height: number;
	bytes: Uint8Array;
}
