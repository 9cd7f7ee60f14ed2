/**
 * The GIF walk for ./image-format.ts's cleanImage.
 *
 * GIF: header, logical screen descriptor (its size is the image's), optional global colour table,
 * then images (2C) and extensions (21), each ending in a chain of sub-blocks, until the trailer (3B).
 */
import { checkResolution, concat, hasAscii, invalid, u16le, type Walked } from './image-bytes';

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

export function walkGif(b: Uint8Array): Walked {
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
