/** What previews show of a stored post body: its plain text, short excerpts of it, and its first image. */
import { documentText, isImageSrc, parseStoredDocument } from '@/schemas/content';

/** The length of a meta description that search results show whole. */
const EXCERPT_LENGTH = 150;

/** The text of a stored post body; one that is not a content document is text already (the page shows it as such). */
export function storedText(stored: string): string {
	const document = parseStoredDocument(stored);
	return document ? documentText(document) : stored;
}

/** The first image of a stored post body that this site serves (a path on it), or null. */
export function storedFirstImage(stored: string): string | null {
	for (const block of parseStoredDocument(stored)?.blocks ?? []) if (block.type === 'image' && isImageSrc(block.src)) return block.src;
	return null;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` on one line, at most `max` characters (graphemes, so no character is cut in half), ending
 * at a space when one is in the last third and with an ellipsis when it was cut.
 */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
	const line = text.replace(/\s+/g, ' ').trim();
	// Only the first `max` graphemes matter: stop there rather than segment a long body whole.
	const characters: string[] = [];
	for (const { segment } of graphemes.segment(line)) {
		if (characters.length === max) break;
		characters.push(segment);
	}
	if (characters.length < max || characters.join('').length === line.length) return line;
	const head = characters.slice(0, max - 1).join('');
	const space = head.lastIndexOf(' ');
	return `${space > (head.length * 2) / 3 ? head.slice(0, space) : head.trimEnd()}…`;
}
