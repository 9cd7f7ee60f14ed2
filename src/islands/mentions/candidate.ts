/**
 * The @mention being typed, for the suggestions of the comment box and the editor: which @ the
 * caret is in (or at the end of), what has been typed after it, and the text once a member is
 * picked. What a mention is comes from src/lib/mentions.ts: an @ not after a letter, digit, `_`,
 * `.` or `@`, then 1 to 30 characters that are not white space, `@`, brackets or braces.
 */

/** The mention before the caret: the text before it ends in one (its `AT`, anchored at the caret). */
const BEFORE_CARET = /(?<![\p{L}\p{N}_.@])@([^\s@[\]{}\uff3b\uff3d\uff5b\uff5d]{1,30})$/u;

/** The longest query the member API takes (`q` of GET members/suggest). */
const QUERY_MAX = 120;

/** An @ being typed: where it starts in the text, and what follows it up to the caret. */
export interface MentionCandidate {
	/** The index of the @. */
	start: number;
	/** The index of the caret: the candidate is the text from `start` to here. */
	end: number;
	/** The text after the @, up to the caret (what the suggestions match). */
	query: string;
}

/** The mention the caret at `caret` is typing in `text`, or null. */
export function mentionAt(text: string, caret: number): MentionCandidate | null {
	if (caret < 2 || caret > text.length) return null;
	const match = BEFORE_CARET.exec(text.slice(0, caret));
	const query = match?.[1];
	if (!match || !query || query.length > QUERY_MAX) return null;
	return { start: match.index, end: caret, query };
}

/**
 * `text` with the candidate replaced by "@nickname " and the caret after that space. A space
 * already after the caret is used rather than doubled.
 */
export function withMention(text: string, candidate: MentionCandidate, nickname: string): { text: string; caret: number } {
	const after = text.slice(candidate.end);
	const inserted = `@${nickname} `;
	return {
		text: text.slice(0, candidate.start) + inserted + (after.startsWith(' ') ? after.slice(1) : after),
		caret: candidate.start + inserted.length,
	};
}
