/**
 * Where a guest's page takes a member's parts, found once when the page is stored (the edge cache's
 * entry: functions/shell/edge-cache.ts), so that each member's answer splices their parts in at
 * those offsets (functions/shell/splice.ts) instead of parsing the page again.
 *
 * The places are found by HTMLRewriter itself, with the parts' own selectors: a pass over the page
 * puts a marker before, at the start of, at the end of and after every element a selector matches;
 * the markers' offsets, less the markers before them, are the element's start tag and end tag in
 * the page's bytes. A page that holds the marker's character already, or whose bytes the pass does
 * not give back unchanged, gets no places: its members' answers are rewritten by HTMLRewriter.
 *
 * Kept with the Cache API's copy of the entry as a header (encodeSpots), which says the selector
 * list it was found with and the page's length: a header of another list or length is not read.
 */
import type { PageSpots, Spot } from './splice';

/** The marker's first and last characters: noncharacters (U+FDD0, U+FDD1), which no page of ours holds. */
const OPEN = '\uFDD0';
const CLOSE = '\uFDD1';
/** Their bytes in UTF-8. */
const OPEN_BYTES = [0xef, 0xb7, 0x90];
const CLOSE_BYTES = [0xef, 0xb7, 0x91];
const decoder = new TextDecoder();

/** The four markers of an element: before its start tag, after it, before its end tag, after it. */
const EDGES = 4;

/** Where `pattern` starts in `bytes` from `from` on, or -1. */
function indexOfBytes(bytes: Uint8Array, pattern: number[], from: number): number {
	for (let at = bytes.indexOf(pattern[0]!, from); at >= 0; at = bytes.indexOf(pattern[0]!, at + 1)) {
		if (pattern.every((byte, i) => bytes[at + i] === byte)) return at;
	}
	return -1;
}

/** Whether `a` and `b` hold the same bytes. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
	if (a.byteLength !== b.byteLength) return false;
	for (let i = 0; i < a.byteLength; i += 1) if (a[i] !== b[i]) return false;
	return true;
}

/**
 * The places in the page `body` of the elements `selectors` match, each element once with the
 * selectors that match it; null when the page cannot be marked (above).
 */
export async function locateSpots(body: ArrayBuffer, selectors: readonly string[]): Promise<PageSpots | null> {
	const page = new Uint8Array(body);
	if (indexOfBytes(page, OPEN_BYTES, 0) >= 0) return null;
	const selectorOf: number[] = [];
	let rewriter = new HTMLRewriter();
	selectors.forEach((selector, index) => {
		rewriter = rewriter.on(selector, {
			element(element) {
				const id = selectorOf.push(index) - 1;
				const marker = (edge: number) => `${OPEN}${id * EDGES + edge}${CLOSE}`;
				element.before(marker(0), { html: true });
				element.prepend(marker(1), { html: true });
				element.append(marker(2), { html: true });
				element.after(marker(3), { html: true });
			},
		});
	});
	let marked: Uint8Array;
	try {
		marked = new Uint8Array(await rewriter.transform(new Response(body)).arrayBuffer());
	} catch {
		return null;
	}
	// Each marker's offset in the page, and the page's bytes without the markers, to check against it.
	const offsets = new Array<number>(selectorOf.length * EDGES).fill(-1);
	const unmarked = new Uint8Array(page.byteLength);
	let written = 0;
	let read = 0;
	for (let open = indexOfBytes(marked, OPEN_BYTES, 0); open >= 0; open = indexOfBytes(marked, OPEN_BYTES, read)) {
		const close = indexOfBytes(marked, CLOSE_BYTES, open);
		if (close < 0 || written + open - read > unmarked.byteLength) return null;
		unmarked.set(marked.subarray(read, open), written);
		written += open - read;
		offsets[Number(decoder.decode(marked.subarray(open + OPEN_BYTES.length, close)))] = written;
		read = close + CLOSE_BYTES.length;
	}
	if (written + marked.byteLength - read !== page.byteLength) return null;
	unmarked.set(marked.subarray(read), written);
	if (!sameBytes(unmarked, page)) return null;
	// One spot per element: the elements several selectors match have one start offset.
	const byStart = new Map<number, Spot>();
	selectorOf.forEach((index, id) => {
		const [start, startEnd, endStart, end] = offsets.slice(id * EDGES, id * EDGES + EDGES) as [number, number, number, number];
		if (start < 0 || startEnd < 0) return;
		const spot = byStart.get(start);
		if (spot) spot.selectors |= 1 << index;
		else {
			const ended = endStart >= 0 && end > endStart;
			byStart.set(start, { start, startEnd, endStart: ended ? endStart : -1, end: ended ? end : -1, selectors: 1 << index });
		}
	});
	return { length: page.byteLength, spots: [...byStart.values()].sort((a, b) => a.start - b.start) };
}

/** A short name of the selector list, kept with the places found with it. */
function listName(selectors: readonly string[]): string {
	let hash = 0x811c9dc5;
	for (const character of selectors.join('\n')) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193) >>> 0;
	return hash.toString(36);
}

/**
 * `spots` as a header's value: the list's name, the page's length, then each spot's start (from the
 * previous one's), start tag, content and end tag lengths and selectors, base 36.
 */
export function encodeSpots(spots: PageSpots, selectors: readonly string[]): string {
	let previous = 0;
	const each = spots.spots.map((spot) => {
		const fields = [spot.start - previous, spot.startEnd - spot.start];
		if (spot.endStart >= 0) fields.push(spot.endStart - spot.startEnd, spot.end - spot.endStart);
		else fields.push(-1, -1);
		previous = spot.start;
		return [...fields, spot.selectors].map((field) => field.toString(36)).join('.');
	});
	return [listName(selectors), spots.length.toString(36), ...each].join(',');
}

/** The spots of a header encodeSpots wrote for `selectors` and a page of `length` bytes; null for any other. */
export function decodeSpots(header: string | null, selectors: readonly string[], length: number): PageSpots | null {
	const [name, lengthText, ...each] = header?.split(',') ?? [];
	if (name !== listName(selectors) || lengthText === undefined || parseInt(lengthText, 36) !== length) return null;
	let previous = 0;
	const spots: Spot[] = [];
	for (const text of each) {
		const fields = text.split('.').map((field) => parseInt(field, 36));
		if (fields.length !== 5 || fields.some((field) => !Number.isInteger(field))) return null;
		const [delta, startTag, content, endTag, bits] = fields as [number, number, number, number, number];
		const start = previous + delta;
		const startEnd = start + startTag;
		const ended = content >= 0 && endTag > 0;
		spots.push({
			start,
			startEnd,
			endStart: ended ? startEnd + content : -1,
			end: ended ? startEnd + content + endTag : -1,
			selectors: bits,
		});
		previous = start;
	}
	return { length, spots };
}
