/** Short plain-text excerpts of posts, for a page's meta description. */
import { StoredDocumentSchema, documentText } from '@/schemas/content';

/** The length of a meta description that search results show whole. */
export const EXCERPT_LENGTH = 150;

/** The text of a stored post body; one that is not a content document is text already (the page shows it as such). */
export function storedText(stored: string): string {
	let json: unknown;
	try {
		json = JSON.parse(stored);
	} catch {
		return stored;
	}
	const parsed = StoredDocumentSchema.safeParse(json);
	return parsed.success ? documentText(parsed.data) : stored;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` on one line, at most `max` characters (graphemes, so no character is cut in half), ending
 * at a space when one is in the last third and with an ellipsis when it was cut.
 */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
	const line = text.replace(/\s+/g, ' ').trim();
	const characters = Array.from(graphemes.segment(line), (segment) => segment.segment);
	if (characters.length <= max) return line;
	const head = characters.slice(0, max - 1).join('');
	const space = head.lastIndexOf(' ');
	return `${space > (head.length * 2) / 3 ? head.slice(0, space) : head.trimEnd()}…`;
}
