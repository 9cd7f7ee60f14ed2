/**
 * The PNG walk for ./image-format.ts's cleanImage.
 *
 * PNG: the signature, then chunks of length (4, big-endian), type (4 letters), data, CRC (4), from
 * IHDR to IEND. Critical chunks other than the standard four make the file invalid (no browser
 * can draw it); ancillary chunks are kept only when they affect how the pixels look.
 */
import { concat, invalid, u32be, type Walked } from './image-bytes';

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

export function walkPng(b: Uint8Array): Walked {
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
