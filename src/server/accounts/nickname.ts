/**
 * Nicknames: the rules of SPEC §5 (src/schemas/nickname.ts), who holds a name, and changing it.
 * Names compare by their key (src/lib/nickname-key.ts), and every name ever held in a channel
 * stays claimed, so a released one can never be taken again. A member may change their nickname
 * once every NICKNAME_CHANGE_COOLDOWN_DAYS days: a change releases a name for good and turns every
 * cached page of the community cold, so a member must not be able to do it dozens of times an hour.
 */
import { AppError } from '@/server/platform/errors';
import { bumpContentVersion } from '@/server/channels/channels';
import type { SessionMember } from '@/server/sign-in/sessions';
import { nicknameKey } from '@/lib/nickname-key';
import { nicknameProblem, type NicknameProblem } from '@/schemas/nickname';
import { memberSearchStatements } from '@/server/search/search-index';

export const NICKNAME_CHANGE_COOLDOWN_DAYS = 7;
const COOLDOWN_MS = NICKNAME_CHANGE_COOLDOWN_DAYS * 24 * 60 * 60 * 1000;

const PROBLEM_CODES = {
	required: 'NicknameRequired',
	length: 'NicknameLength',
	characters: 'NicknameCharacters',
	unusable: 'NicknameUnusable',
} as const satisfies Record<NicknameProblem, string>;

/** The nickname as stored (NFC); throws the result code of the rule of SPEC §5 it breaks. */
export function checkedNickname(input: string): string {
	const nickname = input.normalize('NFC');
	const problem = nicknameProblem(nickname);
	if (problem) throw new AppError(PROBLEM_CODES[problem]);
	return nickname;
}

/** Why a nickname cannot be claimed by `memberId` (null for a new member), or null when it can. */
export async function nicknameConflict(db: D1Database, channelId: number, key: string, memberId: number | null): Promise<'NicknameUnchanged' | 'NicknameTaken' | 'NicknameUnusable' | null> {
	const claim = await db
		.prepare('SELECT member_id, released_at FROM nickname_claims WHERE channel_id = ?1 AND nickname_key = ?2')
		.bind(channelId, key)
		.first<{ member_id: number; released_at: number | null }>();
	if (!claim) return null;
	if (claim.member_id !== memberId) return 'NicknameTaken';
	// One's own current nickname, or one retired by an earlier change: never again.
	return claim.released_at === null ? 'NicknameUnchanged' : 'NicknameUnusable';
}

/** Which uniqueness rule a failed D1 write broke, from SQLite's message. */
export function brokenUniqueRule(error: unknown): 'nickname' | 'active-claim' | 'membership' | null {
	const message = error instanceof Error ? error.message : '';
	if (!/UNIQUE constraint failed/i.test(message)) return null;
	if (/nickname_claims\.nickname_key/.test(message)) return 'nickname';
	if (/nickname_claims\.member_id/.test(message)) return 'active-claim';
	if (/members\./.test(message)) return 'membership';
	return null;
}

/** When the member may change their nickname next (epoch ms), or null when they may now. */
export async function nextNicknameChange(db: D1Database, memberId: number, now = Date.now()): Promise<number | null> {
	const last = await db
		.prepare('SELECT max(released_at) AS at FROM nickname_claims WHERE member_id = ?1 AND released_at IS NOT NULL')
		.bind(memberId)
		.first<{ at: number | null }>();
	const next = last?.at === null || last?.at === undefined ? null : last.at + COOLDOWN_MS;
	return next !== null && next > now ? next : null;
}

/** The refusal of a change before `nextAt`; `retryAfter` (seconds) also becomes the Retry-After header. */
function tooSoon(nextAt: number, now: number): AppError {
	return new AppError('NicknameChangeTooSoon', undefined, { retryAt: nextAt, retryAfter: Math.ceil((nextAt - now) / 1000) });
}

/**
 * Changes a member's nickname; the previous one stays claimed by them for good. Names appear on
 * cached pages, so the channel's content version moves with it. The cooldown holds inside the
 * batch too: two changes racing each other cannot both release a name.
 * @throws AppError a nickname code, NicknameTaken, or NicknameChangeTooSoon with `retryAt`
 */
export async function changeNickname(db: D1Database, channelId: number, member: SessionMember, input: string, now = Date.now()): Promise<string> {
	const nickname = checkedNickname(input);
	const key = nicknameKey(nickname);
	if (key === nicknameKey(member.nickname)) throw new AppError('NicknameUnchanged');
	const conflict = await nicknameConflict(db, channelId, key, member.userId);
	if (conflict) throw new AppError(conflict);
	const nextAt = await nextNicknameChange(db, member.userId, now);
	if (nextAt !== null) throw tooSoon(nextAt, now);
	try {
		await db.batch([
			// Releases the current name only outside the cooldown; otherwise the insert below meets the
			// member's still-active claim and the whole batch fails.
			db
				.prepare(
					`UPDATE nickname_claims SET released_at = ?3 WHERE channel_id = ?1 AND member_id = ?2 AND released_at IS NULL
					 AND NOT EXISTS (SELECT 1 FROM nickname_claims WHERE member_id = ?2 AND released_at > ?3 - ?4)`,
				)
				.bind(channelId, member.userId, now, COOLDOWN_MS),
			db.prepare('INSERT INTO nickname_claims (channel_id, nickname_key, nickname, member_id, claimed_at) VALUES (?1, ?2, ?3, ?4, ?5)').bind(channelId, key, nickname, member.userId, now),
			db.prepare('UPDATE members SET nickname = ?3 WHERE id = ?1 AND channel_id = ?2').bind(member.userId, channelId, nickname),
			...memberSearchStatements(db, channelId, member.userId, nickname),
			bumpContentVersion(db, channelId),
		]);
	} catch (error) {
		const rule = brokenUniqueRule(error);
		if (rule === 'nickname') throw new AppError('NicknameTaken');
		if (rule === 'active-claim') throw tooSoon((await nextNicknameChange(db, member.userId, now)) ?? now + COOLDOWN_MS, now);
		throw error;
	}
	return nickname;
}
