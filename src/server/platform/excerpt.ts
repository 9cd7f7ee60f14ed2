/** What previews show of a stored post body: its plain text, short excerpts of it, and its first image. */
import { documentText, isImageSrc, parseStoredDocument } from '@/schemas/content';

/** The length of a meta description that search results show whole. */
const EXCERPT_LENGTH = 150;

/**
 * The text of a stored post body as a preview reads it: its paragraphs, headings and lists, one
 * block a line, without the images and their alt text (a caption spliced between two sentences
 * would read as part of them). One that is not a content document is text already (the page shows
 * it as such).
 */
export function storedText(stored: string): string {
	const document = parseStoredDocument(stored);
	return document ? documentText(document, { imageAlts: false }) : stored;
}

/** The first image block of a stored post body that this site serves (a path on it), or null. */
export function storedFirstImageBlock(stored: string): { src: string; alt: string; width?: number | undefined; height?: number | undefined } | null {
	for (const block of parseStoredDocument(stored)?.blocks ?? []) if (block.type === 'image' && isImageSrc(block.src)) return block;
	return null;
}

/** The first image of a stored post body that this site serves (a path on it), or null. */
export function storedFirstImage(stored: string): string | null {
	return storedFirstImageBlock(stored)?.src ?? null;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Characters that are each a whole grapheme and never join the one before: printable ASCII and
 * Latin-1, CJK punctuation (without its combining tone marks), kana (without the combining sound
 * marks), CJK ideographs, Hangul syllables and full-width forms. Most posts are written in them
 * alone, and their graphemes are counted without segmenting.
 */
const SIMPLE = /^[\x20-\x7E\u00A0-\u00FF\u3000-\u3029\u3030-\u303F\u3041-\u3096\u309B-\u30FF\u4E00-\u9FFF\uAC00-\uD7A3\uFF01-\uFF5E]*$/;

/** How many of `line`'s first `count` graphemes there are (fewer when it is shorter), and their length in code units. */
function graphemePrefix(line: string, count: number): { graphemes: number; end: number } {
	// The character after the prefix is checked too: a combining one would join the prefix's last.
	if (SIMPLE.test(line.slice(0, count + 1))) {
		const end = Math.min(count, line.length);
		return { graphemes: end, end };
	}
	let graphemesSeen = 0;
	let end = 0;
	for (const { segment } of graphemes.segment(line)) {
		if (graphemesSeen === count) break;
		graphemesSeen += 1;
		end += segment.length;
	}
	return { graphemes: graphemesSeen, end };
}

/**
 * `text` on one line, at most `max` characters (graphemes, so no character is cut in half), ending
 * at a space when one is in the last third and with an ellipsis when it was cut. Only the head of
 * a long text is read: enough of it to hold `max` graphemes once its whitespace is collapsed.
 */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
	for (let size = 4 * max + 64; ; size *= 4) {
		const whole = size >= text.length;
		const line = (whole ? text : text.slice(0, size)).replace(/\s+/g, ' ').trim();
		// A head's last grapheme may be cut short (an emoji sequence, a pair): decide on those before it.
		const { graphemes: counted } = graphemePrefix(line, max + 2);
		if (!whole && counted < max + 2) continue;
		if (counted <= max) return line;
		const head = line.slice(0, graphemePrefix(line, max - 1).end);
		const space = head.lastIndexOf(' ');
		return `${space > (head.length * 2) / 3 ? head.slice(0, space) : head.trimEnd()}…`;
	}
}

/** The end of a sentence: a full stop, question or exclamation mark before a space, or a CJK one. */
const SENTENCE_END = /[.!?](?=\s)|[。！？]/g;

/**
 * A link preview's text (og:description): `excerpt`, but when the text had to be cut, it ends with
 * the last whole sentence that fits, if that keeps at least half of `max`; otherwise with a cut word
 * and an ellipsis as `excerpt` does.
 */
export function sentenceExcerpt(text: string, max: number): string {
	const cut = excerpt(text, max);
	if (!cut.endsWith('…')) return cut;
	let end = -1;
	for (const match of cut.matchAll(SENTENCE_END)) end = match.index + 1;
	return end >= max / 2 ? cut.slice(0, end) : cut;
}
