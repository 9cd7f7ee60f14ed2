/**
 * Resolving a text's @mentions when it is written (src/lib/mentions.ts says what a mention is): each
 * @ names the member whose current nickname it is in this channel, compared by nickname key, as
 * sign-up compares them. A withdrawn member's nickname is released, so it names nobody. One read,
 * only when the text has an @: the channel's nickname claims by primary key, at most
 * MENTION_LOOKUPS keys.
 */
import { MENTION_LOOKUPS, mentionCandidates, type Mention } from '@/lib/mentions';
import { nicknameKey } from '@/lib/nickname-key';
import { activeBanSql } from '@/server/members/bans';

/** The nickname keys `texts` ask to look up (at most MENTION_LOOKUPS). */
function mentionKeys(texts: readonly string[]): string[] {
	const candidates = texts.flatMap((text) => mentionCandidates(text));
	return [...new Set(candidates.flat().map((name) => nicknameKey(name.normalize('NFC'))))].slice(0, MENTION_LOOKUPS);
}

/**
 * The read of the members `texts` may mention, for mentionsOf: null when they have no @. One
 * statement, to send with a write's other reads.
 */
export function mentionsStatement(db: D1Database, channelId: number, texts: readonly string[]): D1PreparedStatement | null {
	const keys = mentionKeys(texts);
	if (keys.length === 0) return null;
	return db
		.prepare(
			`SELECT c.nickname_key AS key, c.member_id AS id FROM nickname_claims c JOIN members m ON m.id = c.member_id
			 WHERE c.channel_id = ?1 AND c.released_at IS NULL AND m.withdrawn_at IS NULL AND c.nickname_key IN (SELECT value FROM json_each(?2))`,
		)
		.bind(channelId, JSON.stringify(keys));
}

/** The members `texts` mention, from mentionsStatement's result: in the order they are first mentioned, each once per written name. */
export function mentionsOf(result: D1Result | undefined, texts: readonly string[]): Mention[] {
	const candidates = texts.flatMap((text) => mentionCandidates(text));
	if (candidates.length === 0) return [];
	const byKey = new Map(((result?.results ?? []) as { key: string; id: number }[]).map(({ key, id }) => [key, id]));
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

/** The members `texts` mention (mentionsOf), read now. */
export async function resolveMentions(db: D1Database, channelId: number, texts: readonly string[]): Promise<Mention[]> {
	const statement = mentionsStatement(db, channelId, texts);
	return mentionsOf(statement ? await statement.all() : undefined, texts);
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
 * SUGGESTIONS rows; withdrawn members and members under a ban in force left out (a mention of them
 * would tell them nothing, and the list must not advertise them).
 */
export async function suggestMembers(db: D1Database, channelId: number, prefix: string, now: number): Promise<Mention[]> {
	const key = nicknameKey(prefix.normalize('NFC'));
	if (key === '') return [];
	const { results } = await db
		.prepare(
			`SELECT c.member_id AS userId, c.nickname FROM nickname_claims c JOIN members m ON m.id = c.member_id
			 WHERE c.channel_id = ?1 AND c.nickname_key >= ?2 AND c.nickname_key < ?2 || char(1114111) AND c.released_at IS NULL AND m.withdrawn_at IS NULL
				AND NOT ${activeBanSql('m.id', '?3')}
			 ORDER BY c.nickname_key LIMIT ${SUGGESTIONS}`,
		)
		.bind(channelId, key, now)
		.all<Mention>();
	return results;
}
