/**
 * Resolving a text's @mentions when it is written (src/lib/mentions.ts says what a mention is): each
 * @ names the member whose current nickname it is in this channel, compared by nickname key, as
 * sign-up compares them. A withdrawn member's nickname is released, so it names nobody. One read,
 * only when the text has an @: the channel's nickname claims by primary key, at most
 * MENTION_LOOKUPS keys.
 */
import { MENTION_LOOKUPS, mentionCandidates, type Mention } from '@/lib/mentions';
import { nicknameKey } from '@/lib/nickname-key';

/** The members `texts` mention, in the order they are first mentioned, each once per written name. */
export async function resolveMentions(db: D1Database, channelId: number, texts: readonly string[]): Promise<Mention[]> {
	const candidates = texts.flatMap((text) => mentionCandidates(text));
	if (candidates.length === 0) return [];
	const keys = [...new Set(candidates.flat().map((name) => nicknameKey(name.normalize('NFC'))))].slice(0, MENTION_LOOKUPS);
	const { results } = await db
		.prepare(
			`SELECT c.nickname_key AS key, c.member_id AS id FROM nickname_claims c JOIN members m ON m.id = c.member_id
			 WHERE c.channel_id = ?1 AND c.released_at IS NULL AND m.withdrawn_at IS NULL AND c.nickname_key IN (SELECT value FROM json_each(?2))`,
		)
		.bind(channelId, JSON.stringify(keys))
		.all<{ key: string; id: number }>();
	const byKey = new Map(results.map(({ key, id }) => [key, id]));
	const mentions: Mention[] = [];
	const seen = new Set<string>();
	for (const names of candidates) {
		for (const name of names) {
			const userId = byKey.get(nicknameKey(name.normalize('NFC')));
			if (userId === undefined) continue;
			if (!seen.has(name)) mentions.push({ userId, nickname: name });
			seen.add(name);
			break;
		}
	}
	return mentions;
}

/** The distinct members of `mentions` that a mention notifies: at most MENTIONS_NOTIFIED, the first ones written. */
export function mentionedMembers(mentions: readonly Mention[], limit: number): number[] {
	return [...new Set(mentions.map((mention) => mention.userId))].slice(0, limit);
}

/** How many nicknames the @ suggestions offer. */
const SUGGESTIONS = 8;

/**
 * The members whose current nickname starts with `prefix` (compared by nickname key, so case and
 * full-width forms do not matter; Korean, Japanese and Chinese nicknames alike), for the @
 * suggestions of the comment box and the editor: a range of the claims' primary key, at most
 * SUGGESTIONS rows, withdrawn members left out.
 */
export async function suggestMembers(db: D1Database, channelId: number, prefix: string): Promise<Mention[]> {
	const key = nicknameKey(prefix.normalize('NFC'));
	if (key === '') return [];
	const { results } = await db
		.prepare(
			`SELECT c.member_id AS userId, c.nickname FROM nickname_claims c JOIN members m ON m.id = c.member_id
			 WHERE c.channel_id = ?1 AND c.nickname_key >= ?2 AND c.nickname_key < ?2 || char(1114111) AND c.released_at IS NULL AND m.withdrawn_at IS NULL
			 ORDER BY c.nickname_key LIMIT ${SUGGESTIONS}`,
		)
		.bind(channelId, key)
		.all<Mention>();
	return results;
}
