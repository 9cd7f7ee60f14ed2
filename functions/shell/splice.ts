/**
 * A member's parts spliced into the stored bytes of the guest's page: the same handlers as the
 * HTMLRewriter path (functions/shell/member-rewriters.ts), run on the elements whose places were
 * found once when the guest's page was stored (functions/shell/page-spots.ts), so that a member's
 * answer is string slices and the parts' few tags, not a parse of the whole page.
 *
 * What a handler does is applied as HTMLRewriter applies it, so that both paths give the same
 * bytes (tests/workers/member-splice.test.ts compares them): a changed start tag is written again
 * with its attributes one space apart, an unchanged attribute as it was and a set one as
 * `name="value"` (only `"` escaped); `before` and `append` add in call order, `prepend` and
 * `after` in reverse; an end tag's `after` comes before the element's; `replace` and `remove`
 * drop the element with everything in it (a handler of an element inside still runs); content is
 * HTML (`{ html: true }`), the only kind the parts put in.
 */

/** Content put in as HTML, as every member part is. */
type Html = { html: true };

/**
 * What a member part's handler may do with an element: a subset of HTMLRewriter's Element, which
 * the HTMLRewriter path passes as it is, and which the splice path plays on the stored bytes.
 */
interface PartElement {
	tagName: string;
	getAttribute(name: string): string | null;
	hasAttribute(name: string): boolean;
	setAttribute(name: string, value: string): unknown;
	removeAttribute(name: string): unknown;
	before(content: string, options: Html): unknown;
	after(content: string, options: Html): unknown;
	prepend(content: string, options: Html): unknown;
	append(content: string, options: Html): unknown;
	replace(content: string, options: Html): unknown;
	setInnerContent(content: string, options: Html): unknown;
	remove(): unknown;
	onEndTag(handler: (end: { after(content: string, options: Html): unknown }) => void): void;
}

/** A member part: what it does to each element `selector` matches. */
export interface MemberPart {
	selector: string;
	element(element: PartElement): void;
}

/**
 * One element of a stored page that a part's selector matched: byte offsets of its start tag
 * [start, startEnd) and end tag [endStart, end) (-1 when it has none), and which selectors of the
 * list it was found with matched it (bit i for the i-th).
 */
export interface Spot {
	start: number;
	startEnd: number;
	endStart: number;
	end: number;
	selectors: number;
}

/** The places of a stored page's member parts: the page's length in bytes, and its spots in the page's order. */
export interface PageSpots {
	length: number;
	spots: Spot[];
}

/** One change to the stored bytes: [at, end) becomes `text`; at one offset, the lower rank first. */
interface Edit {
	at: number;
	end: number;
	rank: number;
	text: string;
}

/**
 * The order of what lands on one offset, as HTMLRewriter emits it: an element's `after` (its end is
 * the offset), its parent's `prepend` or inner content (its start tag ends there), its parent's
 * `append` and end tag (its end tag starts there), then the next element's `before` and start tag.
 */
const RANK = { after: 0, prepend: 1, append: 2, endTag: 3, before: 4, startTag: 5 } as const;

interface Attribute {
	name: string;
	value: string;
	/** The attribute as the page has it; null once set. */
	raw: string | null;
}

const TAG_NAME = /^<([^\s/>]+)/;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A spot's start tag as the page has it: its text, and its attributes once a handler asked for them.
 * Read once per stored page and kept with its places (readTags): every member's answer made from the
 * page reads the same tags.
 */
interface PageTag {
	text: string;
	attributes: readonly Readonly<Attribute>[] | null;
}

/** The tags read of each stored page's spots, kept while its places are (with the bytes they were read from). */
const readTags = new WeakMap<PageSpots, { body: ArrayBuffer; tags: Map<Spot, PageTag> }>();

/** The element at `spot` of `bytes` as a handler sees it, keeping what the handlers do to it. */
class SplicedElement implements PartElement {
	#name: string;
	/** The length of the name the page gives it (a handler may rename it). */
	readonly #nameLength: number;
	/** The attributes as this member's handlers left them: a copy of the page's, made at the first change. */
	#attributes: Attribute[] | null = null;
	#tagChanged = false;
	#renamed = false;
	// What the handlers put in, each as one string in the order it lands (fewer allocations than lists).
	#before = '';
	#prepend = '';
	#append = '';
	#after = '';
	/** What the end tag's handlers put after it (before the element's own `after`). */
	#endAfter = '';
	#endHandlers: ((end: { after(content: string, options: Html): unknown }) => void)[] | null = null;
	#inner: string | null = null;
	#replacement: string | null = null;
	#removed = false;

	constructor(
		readonly spot: Spot,
		private readonly tag: PageTag,
	) {
		this.#name = TAG_NAME.exec(tag.text)?.[1] ?? '';
		this.#nameLength = this.#name.length;
	}

	/** The start tag's attributes as the page has them, read at the first ask for the page. */
	private pageAttributes(): readonly Readonly<Attribute>[] {
		if (this.tag.attributes === null) {
			const text = this.tag.text;
			const inside = text.slice(this.#nameLength + 1, text.endsWith('/>') ? -2 : -1);
			this.tag.attributes = [...inside.matchAll(ATTRIBUTE)].map(([raw, name, ...values]) => ({
				name: name!.toLowerCase(),
				value: values.find((value) => value !== undefined) ?? '',
				raw,
			}));
		}
		return this.tag.attributes;
	}

	/** The attributes as the handlers see them. */
	private current(): readonly Readonly<Attribute>[] {
		return this.#attributes ?? this.pageAttributes();
	}

	/** The attributes for a handler to change: this element's own copy. */
	private attributes(): Attribute[] {
		this.#attributes ??= this.pageAttributes().map((attribute) => ({ ...attribute }));
		return this.#attributes;
	}

	get tagName(): string {
		return this.#name.toLowerCase();
	}
	set tagName(name: string) {
		this.#name = name;
		this.#tagChanged = true;
		this.#renamed = true;
	}
	getAttribute(name: string): string | null {
		return this.current().find((attribute) => attribute.name === name.toLowerCase())?.value ?? null;
	}
	hasAttribute(name: string): boolean {
		return this.getAttribute(name) !== null;
	}
	setAttribute(name: string, value: string): void {
		const attributes = this.attributes();
		const found = attributes.find((attribute) => attribute.name === name.toLowerCase());
		if (found) Object.assign(found, { value, raw: null });
		else attributes.push({ name, value, raw: null });
		this.#tagChanged = true;
	}
	removeAttribute(name: string): void {
		const attributes = this.attributes();
		const at = attributes.findIndex((attribute) => attribute.name === name.toLowerCase());
		if (at < 0) return;
		attributes.splice(at, 1);
		this.#tagChanged = true;
	}
	before(content: string): void {
		this.#before += content;
	}
	after(content: string): void {
		this.#after = content + this.#after;
	}
	prepend(content: string): void {
		this.#prepend = content + this.#prepend;
	}
	append(content: string): void {
		this.#append += content;
	}
	replace(content: string): void {
		this.#replacement = content;
	}
	setInnerContent(content: string): void {
		this.#inner = content;
		this.#prepend = '';
		this.#append = '';
	}
	remove(): void {
		this.#removed = true;
	}
	onEndTag(handler: (end: { after(content: string, options: Html): unknown }) => void): void {
		(this.#endHandlers ??= []).push(handler);
	}

	/** Whether a handler waits for the end tag. */
	get waitsForEnd(): boolean {
		return this.#endHandlers !== null;
	}

	/** Runs the end tag's handlers (when the page reaches the end tag). */
	endTag(): void {
		for (const handler of this.#endHandlers ?? []) handler({ after: (content: string) => void (this.#endAfter += content) });
	}

	/** What the handlers did, as edits of the stored bytes added to `edits`; false where it needs an end tag the element has not. */
	addEdits(edits: Edit[]): boolean {
		const { start, startEnd, endStart, end } = this.spot;
		const hasEnd = endStart >= 0;
		const after = this.#endAfter + this.#after;
		const before = this.#before;
		if (this.#replacement !== null || this.#removed) {
			if (!hasEnd) return false;
			edits.push({ at: start, end, rank: RANK.before, text: before + (this.#replacement ?? '') + after });
			return true;
		}
		const needsEnd = this.#inner !== null || this.#append !== '' || this.#renamed || after !== '';
		if (needsEnd && !hasEnd) return false;
		if (before !== '') edits.push({ at: start, end: start, rank: RANK.before, text: before });
		if (this.#tagChanged) edits.push({ at: start, end: startEnd, rank: RANK.startTag, text: this.startTag() });
		if (this.#inner !== null) edits.push({ at: startEnd, end: endStart, rank: RANK.prepend, text: this.#prepend + this.#inner + this.#append });
		else {
			if (this.#prepend !== '') edits.push({ at: startEnd, end: startEnd, rank: RANK.prepend, text: this.#prepend });
			if (this.#append !== '') edits.push({ at: endStart, end: endStart, rank: RANK.append, text: this.#append });
		}
		if (this.#renamed) edits.push({ at: endStart, end, rank: RANK.endTag, text: `</${this.#name}>` });
		if (after !== '') edits.push({ at: end, end, rank: RANK.after, text: after });
		return true;
	}

	/** The start tag written again as HTMLRewriter writes a changed one. */
	private startTag(): string {
		const attributes = this.current().map((attribute) => ` ${attribute.raw ?? `${attribute.name}="${attribute.value.replace(/"/g, '&quot;')}"`}`);
		return `<${this.#name}${attributes.join('')}${this.tag.text.endsWith('/>') ? '/>' : '>'}`;
	}
}

/** Whether `spot` is where an element is in `bytes`: within them, a start tag, and an end tag where it has one. */
function fits(bytes: Uint8Array, spot: Spot): boolean {
	const LT = 0x3c;
	const GT = 0x3e;
	const SLASH = 0x2f;
	if (spot.start < 0 || spot.startEnd > bytes.byteLength || spot.end > bytes.byteLength) return false;
	if (bytes[spot.start] !== LT || bytes[spot.startEnd - 1] !== GT) return false;
	return spot.endStart < 0 || (bytes[spot.endStart] === LT && bytes[spot.endStart + 1] === SLASH && bytes[spot.end - 1] === GT);
}

/**
 * The stored page `body` with `parts` put in at `places` (found with `selectors`, the same list in
 * the same order), or null when the places do not fit the bytes (another build's, another page's)
 * or a part needs what the element has not: the caller then rewrites the page with HTMLRewriter.
 * The bytes are valid until the next splice (applyEdits): make the answer of them at once.
 */
export function splicePage(
	body: ArrayBuffer,
	places: PageSpots,
	selectors: readonly string[],
	parts: readonly MemberPart[],
): Uint8Array<ArrayBuffer> | null {
	const bytes = new Uint8Array(body);
	if (places.length !== bytes.byteLength) return null;
	const indexes = parts.map((part) => selectors.indexOf(part.selector));
	if (indexes.includes(-1)) return null;
	const bits = indexes.map((index) => 1 << index);
	// The selectors of these parts: a spot of no other's is passed by without a look.
	const wanted = bits.reduce((all, bit) => all | bit, 0);
	const tags = tagsOf(body, places);
	const touched: SplicedElement[] = [];
	// The elements whose end tag is still ahead, with handlers to run when the page reaches it.
	let open: SplicedElement[] = [];
	const closeBefore = (offset: number) => {
		const closing = open.filter((element) => element.spot.endStart < offset).sort((a, b) => a.spot.endStart - b.spot.endStart);
		open = open.filter((element) => element.spot.endStart >= offset);
		for (const element of closing) element.endTag();
	};
	for (const spot of places.spots) {
		if ((spot.selectors & wanted) === 0) continue;
		const mine = parts.filter((_, at) => (spot.selectors & bits[at]!) !== 0);
		if (mine.length === 0) continue;
		if (!fits(bytes, spot)) return null;
		closeBefore(spot.start);
		const element = new SplicedElement(spot, tagAt(tags, bytes, spot));
		for (const part of mine) part.element(element);
		touched.push(element);
		if (element.waitsForEnd) {
			if (spot.endStart < 0) return null;
			open.push(element);
		}
	}
	closeBefore(Infinity);
	const edits: Edit[] = [];
	for (const element of touched) if (!element.addEdits(edits)) return null;
	return applyEdits(bytes, edits);
}

/** The tags read of `places` in `body` (kept with its places, as splicePage keeps them). */
function tagsOf(body: ArrayBuffer, places: PageSpots): Map<Spot, PageTag> {
	let read = readTags.get(places);
	if (read?.body !== body) {
		read = { body, tags: new Map() };
		readTags.set(places, read);
	}
	return read.tags;
}

/** attributeValues' answers, kept with the places they were read at: each member's answer from a stored page asks the same. */
const valuesRead = new WeakMap<PageSpots, Map<string, readonly string[]>>();

/**
 * The values of attribute `name` of the elements `selector` (one of `selectors`, the list the places
 * were found with) matched in the stored page `body`, in the page's order (an element without it
 * left out); null when the places do not fit the bytes, as splicePage.
 */
export function attributeValues(
	body: ArrayBuffer,
	places: PageSpots,
	selectors: readonly string[],
	selector: string,
	name: string,
): readonly string[] | null {
	const bytes = new Uint8Array(body);
	const index = selectors.indexOf(selector);
	if (places.length !== bytes.byteLength || index < 0) return null;
	const key = `${index} ${name}`;
	const known = valuesRead.get(places)?.get(key);
	if (known) return known;
	const tags = tagsOf(body, places);
	const values: string[] = [];
	for (const spot of places.spots) {
		if ((spot.selectors & (1 << index)) === 0) continue;
		if (!fits(bytes, spot)) return null;
		const value = new SplicedElement(spot, tagAt(tags, bytes, spot)).getAttribute(name);
		if (value !== null) values.push(value);
	}
	let kept = valuesRead.get(places);
	if (!kept) valuesRead.set(places, (kept = new Map()));
	kept.set(key, values);
	return values;
}

/** The start tag at `spot`, read once per stored page. */
function tagAt(tags: Map<Spot, PageTag>, bytes: Uint8Array, spot: Spot): PageTag {
	let tag = tags.get(spot);
	if (!tag) {
		tag = { text: decoder.decode(bytes.subarray(spot.start, spot.startEnd)), attributes: null };
		tags.set(spot, tag);
	}
	return tag;
}

/**
 * The array each answer is assembled in, grown to the largest page spliced: a new one per answer
 * cost more than the copies themselves (an allocation of a page's size, zeroed, and the collector's
 * work). Valid until the next splice; the caller makes its Response at once, which copies it (the
 * Fetch standard's body of a BufferSource is a copy of its bytes).
 */
let scratch = new Uint8Array(0);

/** A character past ASCII (two bytes or more in UTF-8). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * `bytes` with `edits` made, in `scratch`: the stored bytes' slices copied, and the parts' markup put
 * in (an edit inside a range another replaced is dropped with it). The edits of ASCII text, most of
 * them (the start tags changed, the small marks), are encoded together in one call past the answer
 * and copied into place, a byte a character; each of the others (the dialogs and header parts with
 * words in them) is encoded in its place. A call of the encoder an edit cost more than the copies,
 * and a JavaScript count of each text's UTF-8 length more than both. Apart, a text's lone surrogate
 * is written as U+FFFD as the encoder writes it, never paired with the next text's.
 */
function applyEdits(bytes: Uint8Array<ArrayBuffer>, edits: Edit[]): Uint8Array<ArrayBuffer> {
	edits.sort((a, b) => a.at - b.at || a.rank - b.rank);
	const kept: Edit[] = [];
	const ascii: boolean[] = [];
	let asciiMarkup = '';
	let units = 0;
	let cursor = 0;
	for (const edit of edits) {
		if (edit.at < cursor) continue;
		kept.push(edit);
		const plain = !NON_ASCII.test(edit.text);
		ascii.push(plain);
		if (plain) asciiMarkup += edit.text;
		units += edit.text.length;
		cursor = edit.end;
	}
	// At most three bytes of UTF-8 for each UTF-16 unit: the answer fits below `room`, the ASCII markup past it.
	const room = bytes.byteLength + units * 3;
	if (scratch.byteLength < room + asciiMarkup.length) scratch = new Uint8Array(Math.max((room + asciiMarkup.length) * 2, scratch.byteLength * 2));
	const out = scratch;
	encoder.encodeInto(asciiMarkup, out.subarray(room));
	let from = room;
	let written = 0;
	cursor = 0;
	kept.forEach((edit, at) => {
		out.set(bytes.subarray(cursor, edit.at), written);
		written += edit.at - cursor;
		if (ascii[at]) {
			const length = edit.text.length;
			out.copyWithin(written, from, from + length);
			written += length;
			from += length;
		} else written += encoder.encodeInto(edit.text, out.subarray(written, room)).written;
		cursor = edit.end;
	});
	out.set(bytes.subarray(cursor), written);
	written += bytes.byteLength - cursor;
	return out.subarray(0, written);
}
