/**
 * Search text: the one normalisation of searched text and queries, the index's terms, and the
 * highlighting of matches. Search is substring search as a reader expects it, in every script:
 * a post is found when its searched fields contain the query after both are normalised (NFKC, so
 * full-width and half-width forms are alike; lower case; runs of white space as one space).
 *
 * The index (migrations/0010) holds every character bigram of a field as one term, at its
 * position: "검색어" is indexed as the terms of "검색" and "색어" at positions 0 and 1. A query of
 * n ≥ 2 characters is the phrase of its n − 1 bigrams at consecutive positions, which a field
 * matches exactly when it contains the query: two characters are one term (the common length of
 * a Korean or Chinese word), longer queries a phrase. So one FTS5 table answers every length with
 * no false positive and no miss. A term is its two characters as they are, except those FTS5's
 * ascii tokenizer would split at or fold (ASCII other than digits and small letters), a lone
 * surrogate, and those of the private-use planes 15 and 16: each of these is written as ESCAPE and 4 base-36 digits of
 * its code point. Every other character is part of a token to that tokenizer, and a term reads
 * back as exactly one pair of characters.
 */

const ESCAPE = String.fromCodePoint(0xf0000);

/** The normalised form of searched text and of a query. */
export function normalizeSearchText(text: string): string {
	return text.normalize('NFKC').toLowerCase().normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/** A character as a term writes it. */
function termCharacter(character: string): string {
	const point = character.codePointAt(0) ?? 0;
	const kept =
		(point >= 0x30 && point <= 0x39) || (point >= 0x61 && point <= 0x7a) || (point >= 0x80 && point < 0xf0000 && (point < 0xd800 || point > 0xdfff));
	return kept ? character : ESCAPE + point.toString(36).padStart(4, '0');
}

function bigramTerms(normalized: string): string[] {
	const characters = Array.from(normalized, termCharacter);
	const terms: string[] = [];
	for (let index = 0; index + 1 < characters.length; index += 1) terms.push(characters[index]! + characters[index + 1]!);
	return terms;
}

/** A field as the index stores it: its bigram terms in order, separated by spaces. */
export function searchDocument(text: string): string {
	return bigramTerms(normalizeSearchText(text)).join(' ');
}

/**
 * The FTS5 phrase that finds `query` (already checked: 2 to 20 characters), or null when its
 * normalised form has fewer than two characters and so cannot be in any bigram.
 */
export function searchPhrase(query: string): string | null {
	const terms = bigramTerms(normalizeSearchText(query));
	// No term holds a double quote (ASCII punctuation is escaped): nothing in the phrase is FTS5 syntax.
	return terms.length === 0 ? null : `"${terms.join(' ')}"`;
}

/** A run of text, marked when it is part of a match. */
export interface TextPart {
	text: string;
	mark: boolean;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` split into the parts that match `query` and the rest, for highlighting. Matching is done
 * on the normalised text grapheme by grapheme, so a highlight never cuts a character in half and
 * covers what the reader sees (a full-width "Ａ" for the query "a").
 */
export function highlightParts(text: string, query: string): TextPart[] {
	const needle = normalizeSearchText(query);
	if (!needle) return [{ text, mark: false }];
	// The normalised text, and for each of its UTF-16 units the grapheme of `text` it came from.
	let normalized = '';
	const owner: number[] = [];
	const pieces: string[] = [];
	let lastWasSpace = true;
	for (const { segment } of graphemes.segment(text)) {
		const index = pieces.length;
		pieces.push(segment);
		let form = segment.normalize('NFKC').toLowerCase().normalize('NFKC');
		const space = /^\s+$/u.test(form);
		if (space) form = lastWasSpace ? '' : ' ';
		lastWasSpace = space;
		normalized += form;
		for (let unit = 0; unit < form.length; unit += 1) owner.push(index);
	}
	const marked = new Array<boolean>(pieces.length).fill(false);
	let found = false;
	for (let at = normalized.indexOf(needle); at !== -1; at = normalized.indexOf(needle, at + needle.length)) {
		found = true;
		for (let unit = at; unit < at + needle.length; unit += 1) marked[owner[unit]!] = true;
	}
	if (!found) return [{ text, mark: false }];
	const parts: TextPart[] = [];
	pieces.forEach((piece, index) => {
		const mark = marked[index]!;
		const last = parts.at(-1);
		if (last && last.mark === mark) last.text += piece;
		else parts.push({ text: piece, mark });
	});
	return parts;
}

/**
 * A short excerpt of `text` around its first match of `query`, highlighted: about `before`
 * characters ahead of the match and up to `length` in all, with ellipses where it was cut. Null
 * when the text does not contain the query (the match was in the title only).
 */
export function matchExcerpt(text: string, query: string, length = 120, before = 40): TextPart[] | null {
	const line = text.replace(/\s+/gu, ' ').trim();
	const parts = highlightParts(line, query);
	if (!parts.some((part) => part.mark)) return null;
	const characters = Array.from(graphemes.segment(line), ({ segment }) => segment);
	let offset = 0;
	for (const part of parts) {
		if (part.mark) break;
		offset += Array.from(graphemes.segment(part.text)).length;
	}
	let start = Math.max(0, Math.min(offset - before, characters.length - length));
	// In text with spaces, begin at a word rather than inside one.
	if (start > 0) {
		const space = characters.slice(start, offset).indexOf(' ');
		if (space !== -1 && space < before / 2) start += space + 1;
	}
	const end = Math.min(characters.length, start + length);
	const window = characters.slice(start, end).join('');
	const result = highlightParts(window, query);
	if (start > 0) result.unshift({ text: '…', mark: false });
	if (end < characters.length) result.push({ text: '…', mark: false });
	return result;
}
