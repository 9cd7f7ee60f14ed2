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
import { blockedSql } from '@/server/members/blocks';

/** The nickname keys `texts` ask to look up (at most MENTION_LOOKUPS). */
function mentionKeys(texts: readonly string[]): string[] {
	const candidates = texts.flatMap((text) => mentionCandidates(text));
	return [...new Set(candidates.flat().map((name) => nicknameKey(name.normalize('NFC'))))].slice(0, MENTION_LOOKUPS);
}

/**
 * The read of the members `texts` may mention, for mentionsOf: null when they have no @. One
 * statement, to send with a write's other reads.
 */
export function mentionsStatement(db: Db, channelId: number, texts: readonly string[]): D1PreparedStatement | null {
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

/**
 * SQL whose value is what storedMentions (src/lib/mentions.ts) stores for the members `text`
 * mentions in the channel `channelSql`, or NULL: mentionsOf's rule inside a statement, for a write
 * that stores them in the batch that resolves them (src/server/comments/create.ts). Each @'s names
 * go in as JSON with their keys (only the keys mentionKeys looks up); the first of an @'s names that
 * a live claim holds is its mention, and a name written twice is stored once, where first written.
 * `param` binds a value into the statement. 'NULL' when the text has no @.
 */
export function storedMentionsSql(text: string, channelSql: string, param: (value: unknown) => string): string {
	const looked = new Set(mentionKeys([text]));
	const candidates = mentionCandidates(text)
		.map((names) => names.map((name) => [name, nicknameKey(name.normalize('NFC'))]).filter(([, key]) => looked.has(key!)))
		.filter((names) => names.length > 0);
	if (candidates.length === 0) return 'NULL';
	return `(SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_group_array(json_array(id, name)) END FROM (
		SELECT id, name FROM (
			SELECT c.key AS i, json_extract(a.value, '$[0]') AS name, n.member_id AS id, row_number() OVER (PARTITION BY c.key ORDER BY a.key) AS pick
			FROM json_each(${param(JSON.stringify(candidates))}) c JOIN json_each(c.value) a
			JOIN nickname_claims n ON n.channel_id = ${channelSql} AND n.nickname_key = json_extract(a.value, '$[1]') AND n.released_at IS NULL
			JOIN members m ON m.id = n.member_id AND m.withdrawn_at IS NULL
		) WHERE pick = 1 GROUP BY name ORDER BY min(i)))`;
}

/** The members `texts` mention (mentionsOf), read now. */
export async function resolveMentions(db: Db, channelId: number, texts: readonly string[]): Promise<Mention[]> {
	const statement = mentionsStatement(db, channelId, texts);
	return mentionsOf(statement ? await statement.all() : undefined, texts);
}

/** The distinct members of `mentions` that a mention notifies: at most MENTIONS_NOTIFIED, the first ones written. */
export function mentionedMembers(mentions: readonly Mention[], limit: number): number[] {
	return [...new Set(mentions.map((mention) => mention.userId))].slice(0, limit);
}

/** How many nicknames the @ suggestions offer. */
const SUGGESTIONS = 8;
/** How many live claims of the prefix one suggestion reads at most, before leaving out members under a ban. */
export const SUGGESTION_WINDOW = 32;

/**
 * The members whose current nickname starts with `prefix` (compared by nickname key, so case and
 * full-width forms do not matter; Korean, Japanese and Chinese nicknames alike), for the @
 * suggestions of the comment box and the editor; withdrawn members and members under a ban in force
 * left out (a mention of them would tell them nothing, and the list must not advertise them), and
 * so are the members who blocked the one asking (docs/reference/blocking.md: never offered, and a
 * typed mention of them tells them nothing).
 * Bounded whatever the prefix (one character matches much of a large community): the first
 * SUGGESTION_WINDOW live claims of the prefix's range of the live-claims index (migration 0035; the
 * released claims every rename and withdrawal leaves are not in it), then at most SUGGESTIONS of
 * their members. So at most 32 index entries, 32 claims, 32 members, 32 ban probes and 32 block probes are read; were
 * more than 24 of those 32 members under a ban, fewer than 8 names would be offered, and a longer
 * prefix finds the others.
 */
export async function suggestMembers(db: Db, channelId: number, askerId: number, prefix: string, now: number): Promise<Mention[]> {
	const key = nicknameKey(prefix.normalize('NFC'));
	if (key === '') return [];
	const { results } = await db
		.prepare(
			`SELECT c.member_id AS userId, c.nickname FROM (
				SELECT member_id, nickname, nickname_key FROM nickname_claims INDEXED BY nickname_claims_live
				WHERE channel_id = ?1 AND nickname_key >= ?2 AND nickname_key < ?2 || char(1114111) AND released_at IS NULL
				ORDER BY nickname_key LIMIT ${SUGGESTION_WINDOW}
			 ) c JOIN members m ON m.id = c.member_id
			 WHERE m.withdrawn_at IS NULL AND NOT ${activeBanSql('m.id', '?3')} AND NOT ${blockedSql('m.id', '?4')}
			 ORDER BY c.nickname_key LIMIT ${SUGGESTIONS}`,
		)
		.bind(channelId, key, now, askerId)
		.all<Mention>();
	return results;
}
