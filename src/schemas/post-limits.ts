/**
 * The limits of writing (titles, drafts, images), shared by the write screen's island and the
 * server. No zod here: the island loads this module, and the schemas of ./post-write.ts re-export it.
 */

/**
 * The longest title, in characters (code points). 100 fits a list row on a desktop and two lines on
 * a phone; peers that allow 300 (Reddit) get paragraphs as titles, and 40 (DCInside) cuts ordinary
 * Korean and Japanese titles short.
 */
export const TITLE_MAX_LENGTH = 100;

/** How many drafts a member keeps in one community; saving one more is refused (DraftLimitReached). */
export const DRAFT_LIMIT = 100;

/** The largest image upload, in bytes (10 MB: a phone photo at full size fits). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_MAX_SIZE_LABEL = { size: 10, unit: 'MB' } as const;

/** The title's length as a person counts it: code points, so an emoji or a CJK character is one. */
export function titleLength(title: string): number {
	return [...title].length;
}
