/** The width and height a PNG (its IHDR) or JPEG (its first frame header, SOFn) says it has; read by the unit and browser tests of share images. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (String.fromCharCode(...bytes.subarray(1, 4)) === 'PNG') return { width: view.getUint32(16), height: view.getUint32(20) };
	if (view.getUint16(0) !== 0xffd8) throw new Error('Neither a PNG nor a JPEG');
	for (let at = 2; at + 9 < bytes.length; at += 2 + view.getUint16(at + 2)) {
		const marker = bytes[at + 1]!;
		if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
			return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
	}
	throw new Error('No frame header in the JPEG');
}
