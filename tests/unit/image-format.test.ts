import { describe, expect, it } from 'vitest';
import { cleanImage, IMAGE_MAX_DIMENSION, IMAGE_MAX_PIXELS, sniffImageFormat } from '@/server/uploads/image-format';
import { AppError } from '@/server/platform/errors';
import {
	concatBytes,
	containsBytes,
	GIF,
	GIF_SCRIPT_POLYGLOT,
	GIF_WITH_COMMENT,
	HEIGHT,
	HTML_AS_PNG,
	JPEG,
	JPEG_POLYGLOT,
	JPEG_PROGRESSIVE,
	jpegWithMetadata,
	PNG,
	PNG_WITH_TEXT,
	SECRETS,
	SVG_AS_PNG,
	WEBP_EXTENDED,
	WEBP_LOSSLESS,
	WEBP_LOSSY,
	WIDTH,
	withSize,
} from '../fixtures/images';

function refusal(bytes: Uint8Array): string | undefined {
	try {
		cleanImage(bytes);
		return undefined;
	} catch (error) {
		return error instanceof AppError ? error.codeName : String(error);
	}
}

/** Every secret of the fixtures is gone from `bytes`. */
function expectNoSecrets(bytes: Uint8Array) {
	for (const secret of Object.values(SECRETS)) expect(containsBytes(bytes, secret), String(secret)).toBe(false);
	for (const marker of ['<script', '<html', 'EXIF', 'GPS', 'XMP', 'Photoshop', 'tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME', 'prVt'])
		expect(containsBytes(bytes, marker), marker).toBe(false);
}

describe('sniffing an image from its bytes', () => {
	it.each([
		['a baseline JPEG', JPEG, 'jpeg'],
		['a PNG', PNG, 'png'],
		['a GIF', GIF, 'gif'],
		['a lossy WebP', WEBP_LOSSY, 'webp'],
		['HTML', HTML_AS_PNG, null],
		['SVG', SVG_AS_PNG, null],
		['nothing', new Uint8Array(0), null],
	])('tells %s by its magic number', (_name, bytes, format) => {
		expect(sniffImageFormat(bytes)).toBe(format);
	});
});

describe('reading the dimensions', () => {
	it.each([
		['a baseline JPEG', JPEG, 'image/jpeg', 'jpg'],
		['a progressive JPEG', JPEG_PROGRESSIVE, 'image/jpeg', 'jpg'],
		['a PNG', PNG, 'image/png', 'png'],
		['a GIF', GIF, 'image/gif', 'gif'],
		['a lossy WebP (VP8)', WEBP_LOSSY, 'image/webp', 'webp'],
		['a lossless WebP (VP8L)', WEBP_LOSSLESS, 'image/webp', 'webp'],
		['an extended WebP (VP8X)', WEBP_EXTENDED, 'image/webp', 'webp'],
	])('reads %s', (_name, bytes, contentType, extension) => {
		expect(cleanImage(bytes)).toMatchObject({ width: WIDTH, height: HEIGHT, contentType, extension });
	});

	it('keeps a clean image as it is', () => {
		for (const bytes of [JPEG, JPEG_PROGRESSIVE, PNG, GIF, WEBP_LOSSY, WEBP_LOSSLESS]) expect(cleanImage(bytes).bytes).toEqual(bytes);
	});

	it('reports a JPEG turned by its EXIF orientation upright, as browsers show it', () => {
		expect(cleanImage(jpegWithMetadata(6))).toMatchObject({ width: HEIGHT, height: WIDTH });
		expect(cleanImage(jpegWithMetadata(3))).toMatchObject({ width: WIDTH, height: HEIGHT });
	});
});

describe('stripping metadata', () => {
	it('leaves a JPEG with JFIF (without its thumbnail), the ICC profile and a minimal EXIF holding only the orientation', () => {
		const { bytes } = cleanImage(jpegWithMetadata(6));
		expectNoSecrets(bytes);
		const jfif = [0xff, 0xe0, 0x00, 0x10, ...'JFIF\0'.split('').map((c) => c.charCodeAt(0)), 1, 2, 0, 0, 1, 0, 1, 0, 0];
		const orientation = [
			0xff, 0xe1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0, 0, 0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0,
			0,
		];
		const icc = [
			0xff,
			0xe2,
			0,
			23,
			...'ICC_PROFILE\0'.split('').map((c) => c.charCodeAt(0)),
			1,
			1,
			...'profile'.split('').map((c) => c.charCodeAt(0)),
		];
		expect([...bytes]).toEqual([0xff, 0xd8, ...jfif, ...orientation, ...icc, ...JPEG.subarray(2)]);
	});

	it('writes no EXIF at all for a JPEG that stands upright', () => {
		const { bytes } = cleanImage(jpegWithMetadata(1));
		expect(containsBytes(bytes, 'Exif')).toBe(false);
		expect(containsBytes(bytes, SECRETS.latitude)).toBe(false);
	});

	it('leaves a PNG without text, EXIF, time and private chunks', () => {
		const { bytes } = cleanImage(PNG_WITH_TEXT);
		expectNoSecrets(bytes);
		expect(bytes).toEqual(PNG);
	});

	it('leaves a GIF without comments and application extensions other than NETSCAPE2.0 looping', () => {
		const { bytes } = cleanImage(GIF_WITH_COMMENT);
		expectNoSecrets(bytes);
		expect(containsBytes(bytes, 'NETSCAPE2.0')).toBe(true);
		expect(bytes.length).toBe(GIF.length + 19);
	});

	it('leaves a WebP without its EXIF and XMP chunks and clears their VP8X flags', () => {
		const { bytes } = cleanImage(WEBP_EXTENDED);
		expectNoSecrets(bytes);
		// RIFF size, then VP8X with no flags, then the VP8 chunk of the simple file.
		expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true)).toBe(bytes.length - 8);
		expect(bytes[20]).toBe(0);
		expect(bytes.subarray(30)).toEqual(WEBP_LOSSY.subarray(12));
	});
});

describe('refusing what is not a whole image', () => {
	it.each([
		['HTML renamed .png', HTML_AS_PNG],
		['SVG renamed .png', SVG_AS_PNG],
		['zero bytes', new Uint8Array(0)],
		['the GIF/JavaScript polyglot', GIF_SCRIPT_POLYGLOT],
		['a PNG signature alone', PNG.subarray(0, 8)],
		['random bytes after a JPEG signature', concatBytes(JPEG.subarray(0, 3), Uint8Array.of(1, 2, 3, 4))],
	])('refuses %s', (_name, bytes) => {
		expect(refusal(bytes)).toBe('InvalidImage');
	});

	it.each([
		['JPEG', JPEG],
		['progressive JPEG', JPEG_PROGRESSIVE],
		['PNG', PNG],
		['GIF', GIF],
		['lossy WebP', WEBP_LOSSY],
		['lossless WebP', WEBP_LOSSLESS],
		['extended WebP', WEBP_EXTENDED.subarray(0, WEBP_EXTENDED.length - SECRETS.html.length)],
	])('refuses a %s cut short anywhere', (_name, bytes) => {
		for (let length = 0; length < bytes.length; length += 1) expect(refusal(bytes.subarray(0, length)), `cut at ${length}`).toBe('InvalidImage');
	});

	it('refuses dimensions of 0 or over the limit', () => {
		const resized = (width: number, height: number) => {
			const copy = GIF.slice();
			new DataView(copy.buffer).setUint16(6, width, true);
			new DataView(copy.buffer).setUint16(8, height, true);
			return copy;
		};
		expect(refusal(resized(0, 20))).toBe('InvalidImage');
		expect(refusal(resized(300, 0))).toBe('InvalidImage');
		expect(refusal(resized(IMAGE_MAX_DIMENSION + 1, 20))).toBe('ImageResolutionTooHigh');
		expect(cleanImage(resized(IMAGE_MAX_DIMENSION, 20)).width).toBe(IMAGE_MAX_DIMENSION);
	});

	it('refuses a PNG with an unknown critical chunk or a chunk length past the end', () => {
		const unknownCritical = concatBytes(
			PNG.subarray(0, 33),
			Uint8Array.of(0, 0, 0, 0),
			Uint8Array.from('HTML', (c) => c.charCodeAt(0)),
			Uint8Array.of(0, 0, 0, 0),
			PNG.subarray(33),
		);
		expect(refusal(unknownCritical)).toBe('InvalidImage');
		const overlong = PNG.slice();
		new DataView(overlong.buffer).setUint32(33, 0x7ffffff0);
		expect(refusal(overlong)).toBe('InvalidImage');
	});
});

describe('polyglots', () => {
	it('stores a JPEG that is also an HTML page without the page', () => {
		const { bytes } = cleanImage(JPEG_POLYGLOT);
		expectNoSecrets(bytes);
		expect(bytes).toEqual(JPEG);
	});

	it('stores a GIF with script in a comment and after its trailer without either', () => {
		const { bytes } = cleanImage(GIF_WITH_COMMENT);
		expect(bytes[bytes.length - 1]).toBe(0x3b);
		expectNoSecrets(bytes);
	});
});

describe('decompression bombs: the size in the header', () => {
	const FORMATS = ['png', 'jpeg', 'gif', 'webp-lossless', 'webp-lossy', 'webp-animated'] as const;

	it('holds the limits of post-limits.ts: 10,000 a side and 40 megapixels', () => {
		expect([IMAGE_MAX_DIMENSION, IMAGE_MAX_PIXELS]).toEqual([10_000, 40_000_000]);
	});

	it.each(FORMATS)('reads the size of a %s from its header', (format) => {
		const image = cleanImage(withSize(format, 6000, 4000));
		expect([image.width, image.height]).toEqual([6000, 4000]);
	});

	it.each(FORMATS)('refuses a %s of 10,000 × 10,000 (400 MB decoded) with ImageResolutionTooHigh', (format) => {
		expect(refusal(withSize(format, 10_000, 10_000))).toBe('ImageResolutionTooHigh');
	});

	it.each(FORMATS)('takes a %s of exactly 40 megapixels and refuses one pixel row more', (format) => {
		// 8,000 × 5,000 = 40,000,000; 8,000 × 5,001 is over.
		expect(refusal(withSize(format, 8000, 5000))).toBeUndefined();
		expect(refusal(withSize(format, 8000, 5001))).toBe('ImageResolutionTooHigh');
	});

	it.each(FORMATS)('refuses a %s over 10,000 pixels on one side even under 40 megapixels', (format) => {
		expect(refusal(withSize(format, 10_001, 100))).toBe('ImageResolutionTooHigh');
		expect(refusal(withSize(format, 100, 10_001))).toBe('ImageResolutionTooHigh');
	});

	it('refuses a GIF whose frame reaches past the limits from a small logical screen', () => {
		const bomb = withSize('gif', 10_000, 10_000);
		new DataView(bomb.buffer).setUint16(6, WIDTH, true);
		new DataView(bomb.buffer).setUint16(8, HEIGHT, true);
		expect(refusal(bomb)).toBe('ImageResolutionTooHigh');
	});

	it('refuses a hierarchical JPEG whose second frame is over the limits', () => {
		const sof = JPEG.indexOf(0xc0, 2) - 1;
		const length = (JPEG[sof + 2]! << 8) | JPEG[sof + 3]!;
		const big = withSize('jpeg', 10_000, 10_000).subarray(sof, sof + 2 + length);
		expect(refusal(concatBytes(JPEG.subarray(0, sof + 2 + length), big, JPEG.subarray(sof + 2 + length)))).toBe('ImageResolutionTooHigh');
	});
});
