/**
 * The JPEG walk for ./image-format.ts's cleanImage.
 *
 * JPEG (ITU T.81): markers FF xx; every segment but SOI, EOI, RSTn and TEM has a 16-bit length
 * that counts itself. SOS is followed by entropy-coded data up to the next marker that is not a
 * stuffed FF 00 or a restart marker.
 */
import { checkResolution, concat, hasAscii, invalid, u16be, u16le, u32be, u32le, type Walked } from './image-bytes';

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

export function walkJpeg(b: Uint8Array): Walked {
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
