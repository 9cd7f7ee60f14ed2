/**
 * The search form (docs/reference/product-rules.md#search-box, docs/reference/product-rules.md#validation): keyword of 2 to 20 characters and a search type.
 * Written with zod/mini because the search island loads it: the full zod would add about 60 KB.
 */
import './zod-config';
import * as z from 'zod/mini';

export const SEARCH_TYPES = ['ALL', 'TITLE', 'CONTENT', 'TITLE_AND_CONTENT'] as const;
export const DEFAULT_SEARCH_TYPE = 'TITLE_AND_CONTENT';
const SEARCH_MIN = 2;
export const SEARCH_MAX = 20;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How many characters a person counts in `text` (grapheme clusters), counting no further than `stop`. */
function characterCount(text: string, stop: number): number {
	let count = 0;
	for (const _ of graphemes.segment(text)) if (++count >= stop) break;
	return count;
}

/**
 * What is wrong with a keyword (docs/reference/product-rules.md#validation), as the message key of docs/reference/product-rules.md#errors-and-texts, or null when it may be
 * searched: required after trimming, then 2 to 20 characters as a person counts them (a Korean
 * syllable, a kanji, an emoji with its skin tone are one each). The box and the results page
 * both ask this.
 */
export function searchKeywordProblem(raw: string): 'search.message.required' | 'alert.message.minLength' | null {
	const keyword = raw.trim();
	if (!keyword) return 'search.message.required';
	const count = characterCount(keyword, SEARCH_MAX + 1);
	return count < SEARCH_MIN || count > SEARCH_MAX ? 'alert.message.minLength' : null;
}

/** The keyword check, with the message keys of docs/reference/product-rules.md#validation as error messages. */
export const SearchKeywordSchema = z.pipe(
	z.string().check(z.trim()),
	z.string().check(
		z.minLength(1, 'search.message.required'),
		z.refine((keyword) => searchKeywordProblem(keyword) === null, 'alert.message.minLength'),
	),
);
