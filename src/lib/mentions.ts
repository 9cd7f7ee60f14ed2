/**
 * @mentions in the text of a post or a comment (docs/reference/notifications.md#mentions). The text keeps what
 * the member wrote ("@NightWarden"); when it is written, the server resolves each @ to the member
 * whose current nickname it is and stores the pairs (`mentions`, [[memberId, "NightWarden"], …]),
 * so the mention stays a link to that member after a nickname change. Rendering finds the written
 * names again in the text. Shared by the server and the islands.
 *
 * A mention starts with @ not after a letter, digit, `_`, `.` or `@` (an email address is none) and
 * runs over the characters a nickname may hold (no white space, no brackets or braces), at most 30.
 * Punctuation that ends a sentence may follow it ("thanks @Nia!"), so the candidates of one @ are
 * the run and the run without its trailing punctuation.
 */

/** A member a text mentions, and the name as the text writes it (after the @). */
export interface Mention {
	userId: number;
	nickname: string;
}

const AT = /(?<![\p{L}\p{N}_.@])@([^\s@[\]{}\uff3b\uff3d\uff5b\uff5d]{1,30})/gu;
const TRAILING = /[.,!?:;'")>\u3001\u3002\uff01\uff1f\uff0c\u2026~]+$/u;
/** How many distinct names one text may ask the server to look up. */
export const MENTION_LOOKUPS = 20;

/** The names each @ of `text` may stand for, longest first, in text order. */
export function mentionCandidates(text: string): string[][] {
	const found: string[][] = [];
	for (const match of text.matchAll(AT)) {
		const run = match[1]!;
		const trimmed = run.replace(TRAILING, '');
		const names = trimmed !== run && trimmed !== '' ? [run, trimmed] : [run];
		found.push(names.filter((name) => [...name].length >= 2));
	}
	return found.filter((names) => names.length > 0);
}

export type MentionSegment = { type: 'text'; text: string } | { type: 'mention'; userId: number; text: string };

/**
 * `text` cut into plain text and the mentions that `mentions` resolved (each rendered "@name"); an
 * @ that resolved to nobody stays text.
 */
export function mentionSegments(text: string, mentions: readonly Mention[]): MentionSegment[] {
	if (mentions.length === 0 || !text.includes('@')) return [{ type: 'text', text }];
	const segments: MentionSegment[] = [];
	let index = 0;
	for (const match of text.matchAll(AT)) {
		const run = match[1]!;
		// The longest resolved name the run starts with.
		const mention = mentions.filter((candidate) => run.startsWith(candidate.nickname)).sort((a, b) => b.nickname.length - a.nickname.length)[0];
		if (!mention) continue;
		if (match.index > index) segments.push({ type: 'text', text: text.slice(index, match.index) });
		segments.push({ type: 'mention', userId: mention.userId, text: `@${mention.nickname}` });
		index = match.index + 1 + mention.nickname.length;
	}
	if (index < text.length) segments.push({ type: 'text', text: text.slice(index) });
	return segments;
}

/** The stored form of a text's mentions (`posts.mentions`, `comments.mentions`): null for none. */
export function storedMentions(mentions: readonly Mention[]): string | null {
	return mentions.length === 0 ? null : JSON.stringify(mentions.map(({ userId, nickname }) => [userId, nickname]));
}

/** The mentions stored with a post or comment; anything unreadable is none. */
export function parseMentions(stored: string | null | undefined): Mention[] {
	if (!stored) return [];
	try {
		const parsed: unknown = JSON.parse(stored);
		if (!Array.isArray(parsed)) return [];
		return parsed.flatMap((pair: unknown) =>
			Array.isArray(pair) && typeof pair[0] === 'number' && typeof pair[1] === 'string' ? [{ userId: pair[0], nickname: pair[1] }] : [],
		);
	} catch {
		return [];
	}
}
