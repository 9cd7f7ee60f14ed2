/**
 * Nicknames: the rules of docs/reference/product-rules.md#validation (src/schemas/nickname.ts), who holds a name, and changing it.
 * Names compare by their key (src/lib/nickname-key.ts), by their confusable skeleton and by that
 * skeleton without accents and invisible characters (src/server/accounts/nickname-skeleton.ts), so a look-alike
 * of a claimed name is that name; every name ever
 * held in a channel stays claimed, so a released one (or a look-alike of it) can never be taken
 * again. A member may change their nickname once every NICKNAME_CHANGE_COOLDOWN_DAYS days: a change releases a name for good and turns every
 * cached page of the community cold, so a member must not be able to do it dozens of times an hour.
 */
import { AppError, isAppError } from '@/server/platform/errors';
import { bumpContentVersion } from '@/server/content-versions/versions';
import type { SessionMember } from '@/server/sign-in/sessions';
import { nicknameKey } from '@/lib/nickname-key';
import { bareSkeleton, nicknameBareSkeleton, nicknameSkeleton } from '@/server/accounts/nickname-skeleton';
import { nicknameProblem, RESERVED_NICKNAMES, type NicknameProblem } from '@/schemas/nickname';
import { memberSearchStatements } from '@/server/search-index/search-index';

export const NICKNAME_CHANGE_COOLDOWN_DAYS = 7;
const COOLDOWN_MS = NICKNAME_CHANGE_COOLDOWN_DAYS * 24 * 60 * 60 * 1000;

const PROBLEM_CODES = {
	required: 'NicknameRequired',
	length: 'NicknameLength',
	characters: 'NicknameCharacters',
	unusable: 'NicknameUnusable',
} as const satisfies Record<NicknameProblem, string>;

/**
 * The bare skeletons of the reserved staff words as they may be written (admin, ADMIN, Admin): a
 * look-alike of one (Adm1n, ADMlN, Adrnin, Ádmin) is a reserved word too. Server only, as the
 * skeleton's table is too large for the islands, which check the words themselves.
 */
const RESERVED_SKELETONS = new Set(
	RESERVED_NICKNAMES.flatMap((word) => [word, word.toUpperCase(), word.charAt(0).toUpperCase() + word.slice(1)].map(nicknameBareSkeleton)),
);

/** The nickname as stored (NFC); throws the result code of the rule of docs/reference/product-rules.md#validation it breaks. */
export function checkedNickname(input: string): string {
	const nickname = input.normalize('NFC');
	const problem = nicknameProblem(nickname);
	if (problem) throw new AppError(PROBLEM_CODES[problem]);
	if (RESERVED_SKELETONS.has(nicknameBareSkeleton(nickname))) throw new AppError('NicknameUnusable');
	return nickname;
}

/** The three forms a nickname is compared by: its key, its confusable skeleton, and that skeleton bare of accents and invisible characters. */
export interface NicknameForms {
	key: string;
	skeleton: string;
	bareSkeleton: string;
}

export function nicknameForms(nickname: string): NicknameForms {
	const skeleton = nicknameSkeleton(nickname);
	return { key: nicknameKey(nickname), skeleton, bareSkeleton: bareSkeleton(skeleton) };
}

/**
 * Why a nickname cannot be claimed by `memberId` (null for a new member), or null when it can: a
 * claim with the same key, skeleton or bare skeleton (at most one of each, all indexed) held by another
 * member is NicknameTaken, whichever name it is; one's own current name is NicknameUnchanged, one's
 * own earlier name NicknameUnusable.
 */
export async function nicknameConflict(
	db: Db,
	channelId: number,
	forms: NicknameForms,
	memberId: number | null,
): Promise<'NicknameUnchanged' | 'NicknameTaken' | 'NicknameUnusable' | null> {
	const { results: claims } = await db
		.prepare(
			'SELECT member_id, released_at FROM nickname_claims WHERE channel_id = ?1 AND (nickname_key = ?2 OR nickname_skeleton = ?3 OR nickname_bare_skeleton = ?4)',
		)
		.bind(channelId, forms.key, forms.skeleton, forms.bareSkeleton)
		.all<{ member_id: number; released_at: number | null }>();
	if (claims.length === 0) return null;
	if (claims.some((claim) => claim.member_id !== memberId)) return 'NicknameTaken';
	// One's own current nickname (or a look-alike of it), or one retired by an earlier change: never again.
	return claims.some((claim) => claim.released_at === null) ? 'NicknameUnchanged' : 'NicknameUnusable';
}

/** Which uniqueness rule a failed D1 write broke, from SQLite's message. */
export function brokenUniqueRule(error: unknown): 'nickname' | 'active-claim' | 'membership' | null {
	const message = error instanceof Error ? error.message : '';
	if (!/UNIQUE constraint failed/i.test(message)) return null;
	if (/nickname_claims\.nickname_(key|skeleton|bare_skeleton)/.test(message)) return 'nickname';
	if (/nickname_claims\.member_id/.test(message)) return 'active-claim';
	if (/members\./.test(message)) return 'membership';
	return null;
}

/** When the member may change their nickname next (epoch ms), or null when they may now. */
async function nextNicknameChange(db: Db, memberId: number, now = Date.now()): Promise<number | null> {
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
 * cached pages, so the channel's content version moves with it. The batch itself holds the rules
 * of claims and cooldown (a name claimed before, or a change inside the cooldown, breaks a
 * uniqueness rule and the batch changes nothing), so an accepted change takes no read before it;
 * a refused one takes one read to say why, in the order of the rules: the name, then the cooldown.
 * Two changes racing each other cannot both release a name.
 * @throws AppError a nickname code, NicknameTaken, or NicknameChangeTooSoon with `retryAt`
 */
export async function changeNickname(db: Db, channelId: number, member: SessionMember, input: string, now = Date.now()): Promise<string> {
	const nickname = checkedNickname(input);
	const forms = nicknameForms(nickname);
	if (forms.key === nicknameKey(member.nickname)) throw new AppError('NicknameUnchanged');
	try {
		await db.batch([
			// Releases the current name only outside the cooldown; otherwise the insert below meets the
			// member's still-active claim (every member holds one) and the whole batch fails.
			db
				.prepare(
					`UPDATE nickname_claims SET released_at = ?3 WHERE channel_id = ?1 AND member_id = ?2 AND released_at IS NULL
					 AND NOT EXISTS (SELECT 1 FROM nickname_claims WHERE member_id = ?2 AND released_at > ?3 - ?4)`,
				)
				.bind(channelId, member.userId, now, COOLDOWN_MS),
			// Meets any claim of the name's key or skeletons, current or retired, of anyone: the primary key,
			// nickname_claims_by_skeleton and nickname_claims_by_bare_skeleton are the rules nicknameConflict reads.
			db
				.prepare(
					`INSERT INTO nickname_claims (channel_id, nickname_key, nickname_skeleton, nickname_bare_skeleton, nickname, member_id, claimed_at)
					 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
				)
				.bind(channelId, forms.key, forms.skeleton, forms.bareSkeleton, nickname, member.userId, now),
			db.prepare('UPDATE members SET nickname = ?3 WHERE id = ?1 AND channel_id = ?2').bind(member.userId, channelId, nickname),
			...memberSearchStatements(db, channelId, member.userId, nickname),
			bumpContentVersion(db, channelId),
		]);
	} catch (error) {
		const rule = brokenUniqueRule(error);
		if (rule !== 'nickname' && rule !== 'active-claim') throw error;
		const [conflict, nextAt] = await Promise.all([nicknameConflict(db, channelId, forms, member.userId), nextNicknameChange(db, member.userId, now)]);
		if (conflict) throw new AppError(conflict);
		if (nextAt !== null) throw tooSoon(nextAt, now);
		// What broke the rule changed meanwhile (a racing change): say which rule it was.
		if (rule === 'nickname') throw new AppError('NicknameTaken');
		throw tooSoon(now + COOLDOWN_MS, now);
	}
	return nickname;
}

/** A claim the skeleton backfill left without a skeleton: its name looks like a name claimed before it. */
export interface SkeletonCollision {
	channelId: number;
	nickname: string;
	memberId: number;
	lookAlikeOf: { nickname: string; memberId: number } | null;
}

/** How many claims one batch of the backfill and of the rules' review reads. */
const CLAIMS_PAGE = 100;

/** The columns a claim keeps a skeleton in (migrations 0017 and 0028), each under a UNIQUE index with the channel. */
const SKELETON_COLUMNS = { nickname_skeleton: 'skeleton', nickname_bare_skeleton: 'bareSkeleton' } as const;

/**
 * Fills in the skeleton of the claims made before migration 0017 and the bare skeleton of those made
 * before migration 0028 (SQL can compute neither), in claim order (rowid) and pages of CLAIMS_PAGE,
 * so that the earlier of two look-alike claims keeps the skeleton. The later one is left without
 * (its look-alikes still meet the earlier claim's skeleton) and is returned for the operator to
 * review: such a name was accepted before look-alikes were refused, and may be an impersonation.
 * Running it again fills nothing twice and reports the same collisions.
 */
export async function backfillNicknameSkeletons(db: Db): Promise<{ filled: number; collisions: SkeletonCollision[] }> {
	const columns = Object.keys(SKELETON_COLUMNS) as (keyof typeof SKELETON_COLUMNS)[];
	let after = 0;
	let filled = 0;
	const collisions: SkeletonCollision[] = [];
	for (;;) {
		const { results: claims } = await db
			.prepare(
				`SELECT rowid AS row, channel_id, nickname, member_id, ${columns.map((column) => `${column} IS NULL AS ${column}`).join(', ')}
				 FROM nickname_claims WHERE rowid > ?1 AND (${columns.map((column) => `${column} IS NULL`).join(' OR ')}) ORDER BY rowid LIMIT ?2`,
			)
			.bind(after, CLAIMS_PAGE)
			.all<{ row: number; channel_id: number; nickname: string; member_id: number } & Record<(typeof columns)[number], number>>();
		if (claims.length === 0) break;
		after = claims[claims.length - 1]!.row;
		const forms = claims.map((claim) => nicknameForms(claim.nickname));
		const updates = claims.flatMap((claim, i) =>
			columns
				.filter((column) => claim[column] === 1)
				.map((column) => ({
					claim: i,
					statement: db
						.prepare(
							`UPDATE nickname_claims SET ${column} = ?2 WHERE rowid = ?1
							 AND NOT EXISTS (SELECT 1 FROM nickname_claims WHERE channel_id = ?3 AND ${column} = ?2)`,
						)
						.bind(claim.row, forms[i]![SKELETON_COLUMNS[column]], claim.channel_id),
				})),
		);
		// Within the batch the statements run in order, so of two look-alikes in one page the first wins.
		const results = await db.batch(updates.map((update) => update.statement));
		const leftOut = new Set(updates.filter((_, k) => results[k]?.meta.changes !== 1).map((update) => update.claim));
		for (const [i, claim] of claims.entries()) {
			if (!leftOut.has(i)) {
				filled += 1;
				continue;
			}
			const holder = await db
				.prepare(
					'SELECT nickname, member_id FROM nickname_claims WHERE channel_id = ?1 AND rowid <> ?2 AND (nickname_skeleton = ?3 OR nickname_bare_skeleton = ?4) ORDER BY rowid LIMIT 1',
				)
				.bind(claim.channel_id, claim.row, forms[i]!.skeleton, forms[i]!.bareSkeleton)
				.first<{ nickname: string; member_id: number }>();
			collisions.push({
				channelId: claim.channel_id,
				nickname: claim.nickname,
				memberId: claim.member_id,
				lookAlikeOf: holder && { nickname: holder.nickname, memberId: holder.member_id },
			});
		}
	}
	return { filled, collisions };
}

/** A name in use that today's rules refuse: it was accepted before the rule that refuses it. */
export interface RefusedNickname {
	channelId: number;
	nickname: string;
	memberId: number;
	/** The result code a sign-up with the name gets now (NicknameUnusable for an ignorable character or a stray mark). */
	code: string;
}

/**
 * The names members hold now (claims not released) that checkedNickname refuses today, such as a
 * name with an invisible character or a stray combining mark accepted before migration 0028. Reads
 * only, in pages of CLAIMS_PAGE claims; for the operator to review (ask for a change, or ban).
 */
export async function nicknamesRefusedNow(db: Db): Promise<RefusedNickname[]> {
	const refused: RefusedNickname[] = [];
	let after = 0;
	for (;;) {
		const { results: claims } = await db
			.prepare(
				'SELECT rowid AS row, channel_id, nickname, member_id FROM nickname_claims WHERE rowid > ?1 AND released_at IS NULL ORDER BY rowid LIMIT ?2',
			)
			.bind(after, CLAIMS_PAGE)
			.all<{ row: number; channel_id: number; nickname: string; member_id: number }>();
		if (claims.length === 0) break;
		after = claims[claims.length - 1]!.row;
		for (const claim of claims) {
			try {
				checkedNickname(claim.nickname);
			} catch (error) {
				if (!isAppError(error)) throw error;
				refused.push({ channelId: claim.channel_id, nickname: claim.nickname, memberId: claim.member_id, code: error.codeName });
			}
		}
	}
	return refused;
}
