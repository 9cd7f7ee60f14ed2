/**
 * A comment's text as the page and the comments island render it: plain text with line breaks,
 * where web addresses become links. Both render the segments as elements, never as HTML, and the
 * line breaks stay in the text (shown with `white-space: pre-wrap`).
 *
 * An address is a run starting with `http://` or `https://` (not inside a word) up to white space,
 * a quote or angle bracket, or CJK punctuation; punctuation at its end that reads as the sentence's
 * (`.`, `,`, `!`, a closing bracket without its opening one) stays text. It becomes a link only when
 * the one URL rule (src/lib/safe-url.ts) accepts it as it is: https with a host and no credentials.
 * Anything else (http, `javascript:`, `data:`, `//host`, a look-alike) stays text.
 */
import { isSafeLink } from './safe-url';
import { mentionSegments, type Mention } from './mentions';

export type CommentSegment =
	| { type: 'text'; text: string }
	| { type: 'link'; href: string; text: string }
	| { type: 'mention'; userId: number; text: string };

/** Where an address may start and what it runs over (CJK punctuation U+3000–303F and full-width forms end it). */
const ADDRESS = /(?<![\p{L}\p{N}])https?:\/\/[^\s\p{Cc}<>"'`\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]+/giu;
/** Characters that end a sentence rather than an address. */
const TRAILING = /[.,;:!?*_~]$/;
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** The address without the punctuation of the sentence around it. */
function trimAddress(candidate: string): string {
	let address = candidate;
	for (;;) {
		const last = address.at(-1) ?? '';
		if (TRAILING.test(last)) {
			address = address.slice(0, -1);
			continue;
		}
		const opener = CLOSERS[last];
		// A closing bracket belongs to the address only when the address opened it (a wiki link).
		if (opener !== undefined && address.split(opener).length - 1 < address.split(last).length - 1) {
			address = address.slice(0, -1);
			continue;
		}
		return address;
	}
}

/**
 * The text cut into plain text, safe links and the @mentions the server resolved (`mentions`,
 * src/lib/mentions.ts), in order.
 */
export function commentSegments(text: string, mentions: readonly Mention[] = []): CommentSegment[] {
	return linkSegments(text).flatMap((segment): CommentSegment[] => (segment.type === 'text' ? mentionSegments(segment.text, mentions) : [segment]));
}

/** An address written out in a text: where it starts, the address, and whether it becomes a link. */
export interface WrittenAddress {
	start: number;
	address: string;
	link: boolean;
}

/**
 * Every address `text` writes out, in order, as the rendering cuts it: the one scan behind both the
 * links a comment shows and what a new member's link limit counts (src/server/spam/new-members.ts),
 * so that the two cannot end an address at different places.
 */
export function writtenAddresses(text: string): WrittenAddress[] {
	return [...text.matchAll(ADDRESS)].map((match) => {
		const address = trimAddress(match[0]);
		return { start: match.index, address, link: /^https:\/\//i.test(address) && isSafeLink(address) };
	});
}

/** The text cut into plain text and safe links, in order; adjacent text is one segment. */
function linkSegments(text: string): CommentSegment[] {
	const segments: CommentSegment[] = [];
	const pushText = (value: string) => {
		if (value === '') return;
		const previous = segments.at(-1);
		if (previous?.type === 'text') previous.text += value;
		else segments.push({ type: 'text', text: value });
	};
	let index = 0;
	for (const { start, address, link } of writtenAddresses(text)) {
		pushText(text.slice(index, start));
		if (link) segments.push({ type: 'link', href: address, text: address });
		else pushText(address);
		index = start + address.length;
	}
	pushText(text.slice(index));
	return segments;
}

/** What a link in a comment carries besides its href: it opens apart and vouches for nothing. */
export const COMMENT_LINK_ATTRIBUTES = { rel: 'nofollow ugc noopener', target: '_blank' } as const;
