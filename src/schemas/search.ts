/**
 * The search form (SPEC §2 Search box, §5): keyword of 2 to 20 characters and a search type.
 * Written with zod/mini because the search island loads it: the full zod would add about 60 KB.
 */
import './zod-config';
import * as z from 'zod/mini';

export const SEARCH_TYPES = ['ALL', 'TITLE', 'CONTENT', 'TITLE_AND_CONTENT'] as const;
export const DEFAULT_SEARCH_TYPE = 'TITLE_AND_CONTENT';
export const SEARCH_MIN = 2;
export const SEARCH_MAX = 20;

export const SearchTypeSchema = z.enum(SEARCH_TYPES);

/** The keyword check, with the SPEC's message keys as error messages. */
export const SearchKeywordSchema = z.pipe(
	z.string().check(z.trim()),
	z.string().check(
		z.minLength(1, 'search.message.required'),
		z.minLength(SEARCH_MIN, 'alert.message.minLength'),
		z.maxLength(SEARCH_MAX, 'alert.message.minLength'),
	),
);
