/**
 * The members an @ being typed may mention, from the member API (GET members/suggest?q=,
 * docs/reference/notifications.md): nicknames that start with the query, compared by nickname key (case and
 * full-width forms fold), at most SUGGESTIONS. The read limit is 60 a minute per member, so one
 * source per island remembers every answer for the island's life, and a longer query whose shorter
 * prefix already had fewer than SUGGESTIONS answers is answered here, from those, without asking.
 * The comment box and the editor share it; callers debounce and abort stale requests.
 */
import { createApiClient } from '@/lib/api-client';
import { nicknameKey } from '@/lib/nickname-key';
import type { Mention } from '@/lib/mentions';
import type { ChannelRef } from '@/lib/urls';

/** How many members the API suggests at most (src/server/notifications/mentions.ts SUGGESTIONS). */
const SUGGESTIONS = 8;

const keyOf = (text: string) => nicknameKey(text.normalize('NFC'));

/** The members of `members` whose nickname starts with `query` (by nickname key, as the API compares). */
export function filterMembers(members: readonly Mention[], query: string): Mention[] {
	const key = keyOf(query);
	return members.filter((member) => keyOf(member.nickname).startsWith(key));
}

export interface MentionSource {
	/** The answer for `query` without asking, when an earlier answer holds it; else null. */
	known(query: string): Mention[] | null;
	/** Asks the API (the caller waits out the debounce and aborts what is stale). */
	ask(query: string, signal: AbortSignal): Promise<Mention[]>;
}

/**
 * A source that asks the member API of `channel` (members/suggest) with the member's user-id header.
 * `fetch` is for the unit tests.
 */
export function mentionSource(channel: ChannelRef, getUserId: () => string | null, fetchImpl?: typeof fetch): MentionSource {
	const api = createApiClient({ channel, getUserId, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
	/** Answers by the query's nickname key. */
	const answers = new Map<string, Mention[]>();
	return {
		known(query) {
			const key = keyOf(query);
			if (key === '') return [];
			const exact = answers.get(key);
			if (exact) return exact;
			for (const [prefix, members] of answers) if (members.length < SUGGESTIONS && key.startsWith(prefix)) return filterMembers(members, query);
			return null;
		},
		async ask(query, signal) {
			const { members } = await api.member.get('/members/suggest', { query: { q: query }, signal });
			answers.set(keyOf(query), members);
			return members;
		},
	};
}
