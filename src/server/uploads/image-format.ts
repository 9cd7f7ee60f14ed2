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
import { AppError } from '@/server/platform/errors';
import { IMAGE_MAX_MEGAPIXELS, IMAGE_MAX_SIDE } from '@/schemas/post-limits';

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

/** The type an upload is served with and the extension of its key, by format. */
export const IMAGE_TYPES = {
	jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
	png: { contentType: 'image/png', extension: 'png' },
	gif: { contentType: 'image/gif', extension: 'gif' },
	webp: { contentType: 'image/webp', extension: 'webp' },
} as const satisfies Record<ImageFormat, { contentType: string; extension: string }>;

/** The largest width or height accepted, in pixels (a larger one is a decompression bomb, not a photo). */
export const IMAGE_MAX_DIMENSION = IMAGE_MAX_SIDE;
/**
 * The most pixels accepted (width × height). A browser holds a decoded image at 4 bytes a pixel, so
 * 40 megapixels is 160 MB in a reader's tab: an 8K screenshot (33 MP) and a phone's photo (12 to
 * 24 MP as it saves them) fit; a 10,000 × 10,000 image (400 MB decoded, from a 12 KB PNG) does not.
 */
export const IMAGE_MAX_PIXELS = IMAGE_MAX_MEGAPIXELS * 1_000_000;

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

function invalid(): never {
	throw new AppError('InvalidImage');
}

/**
 * Refuses a size a browser would need too much memory to draw (a decompression bomb: a few KB of
 * file, hundreds of MB decoded), read from the header before any pixel data.
 * @throws AppError ImageResolutionTooHigh over IMAGE_MAX_DIMENSION a side or IMAGE_MAX_PIXELS in all
 */
function checkResolution(width: number, height: number): void {
	if (width > IMAGE_MAX_DIMENSION || height > IMAGE_MAX_DIMENSION || width * height > IMAGE_MAX_PIXELS) throw new AppError('ImageResolutionTooHigh');
}

function u16be(b: Uint8Array, at: number): number {
	if (at + 2 > b.length) invalid();
	return (b[at]! << 8) | b[at + 1]!;
}

function u32be(b: Uint8Array, at: number): number {
	if (at + 4 > b.length) invalid();
	return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

function u16le(b: Uint8Array, at: number): number {
	if (at + 2 > b.length) invalid();
	return b[at]! | (b[at + 1]! << 8);
}

function u24le(b: Uint8Array, at: number): number {
	if (at + 3 > b.length) invalid();
	return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
}

function u32le(b: Uint8Array, at: number): number {
	if (at + 4 > b.length) invalid();
	return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** Whether `b` holds the ASCII text `text` at `at`. */
function hasAscii(b: Uint8Array, at: number, text: string): boolean {
	if (at + text.length > b.length) return false;
	for (let i = 0; i < text.length; i += 1) if (b[at + i] !== text.charCodeAt(i)) return false;
	return true;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
	const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
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

interface Walked {
	width: number;
	height: number;
	bytes: Uint8Array;
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

// ---------------------------------------------------------------------------------------------
// JPEG (ITU T.81): markers FF xx; every segment but SOI, EOI, RSTn and TEM has a 16-bit length
// that counts itself. SOS is followed by entropy-coded data up to the next marker that is not a
// stuffed FF 00 or a restart marker.

/** Start-of-frame markers: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Segments kept besides frames, scans and the APPn kept below: tables, restart interval, number of lines, hierarchical. */
const JPEG_KEPT = new Set([0xc4, 0xcc, 0xdb, 0xdc, 0xdd, 0xde, 0xdf]);

/** The orientation (1–8) of an EXIF APP1 payload (after "Exif\0\0"); 1 when it has none or cannot be read. */
function exifOrientation(tiff: Uint8Array): number {
	if (tiff.length < 8) return 1;
	const little = tiff[0] === 0x49 && tiff[1] === 0x49;
	if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return 1;
	const read16 = (at: number) => (at + 2 <= tiff.length ? (little ? u16le(tiff, at) : u16be(tiff, at)) : -1);
	const read32 = (at: number) => (at + 4 <= tiff.length ? (little ? u32le(tiff, at) : u32be(tiff, at)) : -1);
	if (read16(2) !== 42) return 1;
	const ifd = read32(4);
	const count = ifd < 0 ? -1 : read16(ifd);
	for (let i = 0; i < count; i += 1) {
		const entry = ifd + 2 + i * 12;
		if (entry + 12 > tiff.length) break;
		// Orientation: tag 0x0112, type SHORT (3), its value in the entry's first two value bytes.
		if (read16(entry) === 0x0112 && read16(entry + 2) === 3) {
			const value = read16(entry + 8);
			return value >= 1 && value <= 8 ? value : 1;
		}
	}
	return 1;
}

/** An APP1 segment holding an EXIF block with only the orientation tag (big-endian TIFF, one IFD entry). */
function orientationSegment(orientation: number): Uint8Array {
	return Uint8Array.of(
		0xff,
		0xe1,
		0x00,
		0x22, // APP1, length 34
		0x45,
		0x78,
		0x69,
		0x66,
		0x00,
		0x00, // "Exif\0\0"
		0x4d,
		0x4d,
		0x00,
		0x2a,
		0x00,
		0x00,
		0x00,
		0x08, // "MM", 42, IFD0 at 8
		0x00,
		0x01, // one entry
		0x01,
		0x12,
		0x00,
		0x03,
		0x00,
		0x00,
		0x00,
		0x01,
		0x00,
		orientation,
		0x00,
		0x00, // Orientation, SHORT, 1, value
		0x00,
		0x00,
		0x00,
		0x00, // no next IFD
	);
}

/** The offset of the marker that ends the entropy-coded data starting at `from`. */
function entropyEnd(b: Uint8Array, from: number): number {
	let at = from;
	for (;;) {
		at = b.indexOf(0xff, at);
		if (at < 0 || at + 1 >= b.length) invalid();
		const next = b[at + 1]!;
		// FF 00 is a stuffed FF byte and FF D0–D7 a restart marker: both belong to the data.
		if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at += 2;
		else return at;
	}
}

function walkJpeg(b: Uint8Array): Walked {
	let jfif: Uint8Array | null = null;
	let orientation: number | null = null;
	const kept: Uint8Array[] = [];
	let width = 0;
	let height = 0;
	let frame = false;
	let scan = false;
	let at = 2;
	for (;;) {
		if (b[at] !== 0xff) invalid();
		// Any number of FF fill bytes may precede a marker.
		while (b[at] === 0xff) at += 1;
		if (at >= b.length) invalid();
		const marker = b[at]!;
		at += 1;
		if (marker === 0xd9) {
			if (!frame || !scan) invalid();
			break;
		}
		// A second SOI, a restart or TEM outside a scan, or a stuffed byte here is not a JPEG's structure.
		if (marker === 0xd8 || marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) invalid();
		const length = u16be(b, at);
		if (length < 2 || at + length > b.length) invalid();
		const segment = b.subarray(at, at + length);
		const payload = segment.subarray(2);
		at += length;
		const keep = () => kept.push(Uint8Array.of(0xff, marker), segment);
		if (isStartOfFrame(marker)) {
			if (payload.length < 6) invalid();
			// A hierarchical JPEG has several frames: none may be larger than the limits.
			checkResolution(u16be(payload, 3), u16be(payload, 1));
			if (!frame) {
				height = u16be(payload, 1);
				width = u16be(payload, 3);
			}
			frame = true;
			keep();
		} else if (marker === 0xda) {
			if (!frame) invalid();
			keep();
			const end = entropyEnd(b, at);
			kept.push(b.subarray(at, end));
			at = end;
			scan = true;
		} else if (marker === 0xe0) {
			// JFIF is kept, rewritten without its thumbnail (which could show what a crop removed).
			if (jfif === null && payload.length >= 14 && hasAscii(payload, 0, 'JFIF\0')) {
				jfif = concat([Uint8Array.of(0xff, 0xe0, 0x00, 0x10), payload.subarray(0, 12), Uint8Array.of(0, 0)]);
			}
		} else if (marker === 0xe1) {
			if (orientation === null && hasAscii(payload, 0, 'Exif\0\0')) orientation = exifOrientation(payload.subarray(6));
		} else if (marker === 0xe2) {
			if (hasAscii(payload, 0, 'ICC_PROFILE\0')) keep();
		} else if (marker === 0xee) {
			// Adobe's APP14 says how CMYK and YCCK data is to be converted: colour, not metadata.
			if (hasAscii(payload, 0, 'Adobe')) keep();
		} else if (JPEG_KEPT.has(marker)) {
			keep();
		}
		// Everything else is left out: other APPn (EXIF, XMP, Photoshop, MPF…), COM, reserved markers.
	}
	const swapped = orientation !== null && orientation >= 5;
	const head = [b.subarray(0, 2), ...(jfif ? [jfif] : []), ...(orientation !== null && orientation > 1 ? [orientationSegment(orientation)] : [])];
	return {
		width: swapped ? height : width,
		height: swapped ? width : height,
		bytes: concat([...head, ...kept, Uint8Array.of(0xff, 0xd9)]),
	};
}

// ---------------------------------------------------------------------------------------------
// PNG: the signature, then chunks of length (4, big-endian), type (4 letters), data, CRC (4), from
// IHDR to IEND. Critical chunks other than the standard four make the file invalid (no browser
// can draw it); ancillary chunks are kept only when they affect how the pixels look.

const PNG_CRITICAL = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);
/** Colour, transparency and animation (APNG): everything else (tEXt, zTXt, iTXt, eXIf, tIME, private chunks) is left out. */
const PNG_KEPT_ANCILLARY = new Set([
	'tRNS',
	'gAMA',
	'cHRM',
	'sRGB',
	'iCCP',
	'sBIT',
	'bKGD',
	'pHYs',
	'hIST',
	'cICP',
	'mDCv',
	'cLLi',
	'acTL',
	'fcTL',
	'fdAT',
]);

function walkPng(b: Uint8Array): Walked {
	const kept: Uint8Array[] = [b.subarray(0, 8)];
	let at = 8;
	let width = 0;
	let height = 0;
	let data = false;
	for (let first = true; ; first = false) {
		const length = u32be(b, at);
		if (length > 0x7fffffff || at + 12 + length > b.length) invalid();
		const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
		if (!/^[A-Za-z]{4}$/.test(type)) invalid();
		if (first !== (type === 'IHDR')) invalid();
		const chunk = b.subarray(at, at + 12 + length);
		at += 12 + length;
		if (type === 'IHDR') {
			if (length !== 13) invalid();
			width = u32be(chunk, 8);
			height = u32be(chunk, 12);
		}
		if (type === 'IDAT') data = true;
		// An upper-case first letter marks a critical chunk.
		const critical = type.charCodeAt(0) < 0x61;
		if (critical && !PNG_CRITICAL.has(type)) invalid();
		if (critical || PNG_KEPT_ANCILLARY.has(type)) kept.push(chunk);
		if (type === 'IEND') break;
	}
	if (!data) invalid();
	return { width, height, bytes: concat(kept) };
}

// ---------------------------------------------------------------------------------------------
// GIF: header, logical screen descriptor (its size is the image's), optional global colour table,
// then images (2C) and extensions (21), each ending in a chain of sub-blocks, until the trailer (3B).

/** The offset after the sub-block chain starting at `at` (blocks of a length byte and data, ended by a 0). */
function subBlocksEnd(b: Uint8Array, at: number): number {
	let i = at;
	for (;;) {
		if (i >= b.length) invalid();
		const size = b[i]!;
		i += 1 + size;
		if (size === 0) return i;
	}
}

const colourTableSize = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

function walkGif(b: Uint8Array): Walked {
	if (b.length < 13) invalid();
	const width = u16le(b, 6);
	const height = u16le(b, 8);
	let at = 13 + colourTableSize(b[10]!);
	const kept: Uint8Array[] = [b.subarray(0, at)];
	let images = 0;
	for (;;) {
		if (at >= b.length) invalid();
		const introducer = b[at]!;
		if (introducer === 0x3b) break;
		if (introducer === 0x2c) {
			if (at + 11 > b.length) invalid();
			// A frame reaching past the logical screen enlarges the image in browsers (Chromium draws
			// the first frame whole): its far edges count against the limits too.
			checkResolution(u16le(b, at + 1) + u16le(b, at + 5), u16le(b, at + 3) + u16le(b, at + 7));
			// The descriptor (10 bytes), its local colour table, the LZW code size, then the data.
			const end = subBlocksEnd(b, at + 10 + colourTableSize(b[at + 9]!) + 1);
			kept.push(b.subarray(at, end));
			at = end;
			images += 1;
		} else if (introducer === 0x21) {
			if (at + 2 > b.length) invalid();
			const label = b[at + 1]!;
			const end = subBlocksEnd(b, at + 2);
			// Graphic control (frame timing, transparency) and NETSCAPE2.0 (looping) are kept;
			// comments, plain text and every other application extension (XMP, ICC…) are not.
			const looping = label === 0xff && b[at + 2] === 11 && hasAscii(b, at + 3, 'NETSCAPE2.0');
			if (label === 0xf9 || looping) kept.push(b.subarray(at, end));
			at = end;
		} else {
			invalid();
		}
	}
	if (images === 0) invalid();
	kept.push(Uint8Array.of(0x3b));
	return { width, height, bytes: concat(kept) };
}

// ---------------------------------------------------------------------------------------------
// WebP: a RIFF file ("RIFF", size, "WEBP") of chunks (four-character code, size, data, a pad byte
// when the size is odd). Simple files hold one VP8 (lossy) or VP8L (lossless) chunk; extended
// files start with VP8X, whose flags announce ICC, alpha, EXIF, XMP and animation.

/** The chunks an extended WebP keeps: the image, its alpha, animation and colour profile. */
const WEBP_KEPT = new Set(['VP8X', 'ICCP', 'ANIM', 'ANMF', 'ALPH', 'VP8 ', 'VP8L']);
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;
const VP8X_ICC = 0x20;
const VP8X_ANIMATION = 0x02;

interface RiffChunk {
	fourcc: string;
	data: Uint8Array;
}

function riffChunk(fourcc: string, data: Uint8Array): Uint8Array {
	const header = new Uint8Array(8);
	for (let i = 0; i < 4; i += 1) header[i] = fourcc.charCodeAt(i);
	new DataView(header.buffer).setUint32(4, data.length, true);
	return concat(data.length % 2 ? [header, data, Uint8Array.of(0)] : [header, data]);
}

/** Width and height of a VP8 key frame (RFC 6386 §9.1). */
function vp8Size(data: Uint8Array): [number, number] {
	if (data.length < 10 || (data[0]! & 1) !== 0 || data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) invalid();
	return [u16le(data, 6) & 0x3fff, u16le(data, 8) & 0x3fff];
}

/** Width and height of a VP8L image (its signature byte, then 14 bits each of width - 1 and height - 1). */
function vp8lSize(data: Uint8Array): [number, number] {
	if (data.length < 5 || data[0] !== 0x2f) invalid();
	const bits = u32le(data, 1);
	if (bits >>> 29 !== 0) invalid();
	return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
}

function walkWebp(b: Uint8Array): Walked {
	const riffSize = u32le(b, 4);
	const end = 8 + riffSize;
	if (riffSize < 4 || end > b.length) invalid();
	const chunks: RiffChunk[] = [];
	let at = 12;
	while (at < end) {
		if (at + 8 > end) invalid();
		const size = u32le(b, at + 4);
		const next = at + 8 + size + (size % 2);
		if (next > end) invalid();
		chunks.push({ fourcc: String.fromCharCode(...b.subarray(at, at + 4)), data: b.subarray(at + 8, at + 8 + size) });
		at = next;
	}
	const first = chunks[0];
	if (!first) invalid();
	let width: number;
	let height: number;
	let kept: Uint8Array[];
	if (first.fourcc === 'VP8 ' || first.fourcc === 'VP8L') {
		[width, height] = first.fourcc === 'VP8 ' ? vp8Size(first.data) : vp8lSize(first.data);
		kept = [riffChunk(first.fourcc, first.data)];
	} else if (first.fourcc === 'VP8X') {
		if (first.data.length < 10) invalid();
		width = u24le(first.data, 4) + 1;
		height = u24le(first.data, 7) + 1;
		checkResolution(width, height);
		const rest = chunks.slice(1).filter((chunk) => WEBP_KEPT.has(chunk.fourcc) && chunk.fourcc !== 'VP8X');
		const animated = (first.data[0]! & VP8X_ANIMATION) !== 0;
		const image = animated ? rest.find((chunk) => chunk.fourcc === 'ANMF') : rest.find((chunk) => chunk.fourcc === 'VP8 ' || chunk.fourcc === 'VP8L');
		if (!image) invalid();
		if (!animated) {
			const [frameWidth, frameHeight] = image.fourcc === 'VP8 ' ? vp8Size(image.data) : vp8lSize(image.data);
			if (frameWidth !== width || frameHeight !== height) invalid();
		}
		const header = first.data.slice(0, 10);
		header[0] = header[0]! & ~(VP8X_EXIF | VP8X_XMP);
		if (!rest.some((chunk) => chunk.fourcc === 'ICCP')) header[0] = header[0]! & ~VP8X_ICC;
		kept = [riffChunk('VP8X', header), ...rest.map((chunk) => riffChunk(chunk.fourcc, chunk.data))];
	} else {
		invalid();
	}
	const body = concat(kept);
	const head = new Uint8Array(12);
	head.set(b.subarray(0, 4));
	new DataView(head.buffer).setUint32(4, body.length + 4, true);
	head.set(b.subarray(8, 12), 8);
	return { width, height, bytes: concat([head, body]) };
}
