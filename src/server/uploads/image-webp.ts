/**
 * The WebP walk for ./image-format.ts's cleanImage.
 *
 * WebP: a RIFF file ("RIFF", size, "WEBP") of chunks (four-character code, size, data, a pad byte
 * when the size is odd). Simple files hold one VP8 (lossy) or VP8L (lossless) chunk; extended
 * files start with VP8X, whose flags announce ICC, alpha, EXIF, XMP and animation.
 */
import { checkResolution, concat, invalid, u16le, u24le, u32le, type Walked } from './image-bytes';

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

export function walkWebp(b: Uint8Array): Walked {
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
