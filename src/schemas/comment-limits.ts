/**
 * The limits of comments, shared by the comments island and the server. No zod here: the island
 * loads this module, and the schemas of ./comment.ts re-export it.
 */

/**
 * The longest comment, in characters (code points) after trimming. 1,000 holds a few paragraphs,
 * a build list or a bug's steps; longer belongs in a post. (Peers: NodeBB's default 8,000 is a post,
 * Naver Cafe and DCInside cap comments at 300 to 400 characters, which cuts ordinary Korean and
 * Japanese replies with a quote short.)
 */
export const COMMENT_MAX_LENGTH = 1000;

/** How many comments (flat items, top-level and replies together) one page of a post's comments holds. */
export const COMMENT_PAGE_SIZE = 100;

/** A comment as it is stored: line breaks as `\n`, without white space around it. */
export function normalizeComment(text: string): string {
	return text.replace(/\r\n?/g, '\n').trim();
}

/** The length of a comment as the box counts it: code points of its stored form, so an emoji is one. */
export function commentLength(text: string): number {
	let length = 0;
	for (const _ of normalizeComment(text)) length += 1;
	return length;
}
