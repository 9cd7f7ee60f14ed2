/**
 * Sessions for the bench community's members (/bench/large, channel 9; not its administrator),
 * made the way the Worker makes them: a token minted under the state folder's SESSION_SECRET, its
 * hash in `sessions`. Used by the bench's mixed run and by scripts/write-probe.mjs; write them
 * before the server opens the database.
 */
import { communityDatabases, query } from './wrangler.mjs';
import { localSessionSecret } from './server.mjs';
import { hashToken } from '../../src/server/platform/tokens.ts';
import { mintSessionToken } from '../../src/server/sign-in/session-token.ts';

/**
 * @param {import('./local-d1.mjs').LocalD1} db the local D1 of `state`
 * @param {string} state
 * @param {number} count
 */
export async function memberSessions(db, state, count) {
	const members = (
		await db.rows(`SELECT id FROM members WHERE channel_id = 9 AND role = 'MEMBER' AND withdrawn_at IS NULL ORDER BY id LIMIT ${count}`)
	).map((row) => row.id);
	const secret = localSessionSecret(state);
	const now = Date.now();
	const sessions = [];
	for (const memberId of members) {
		const token = await mintSessionToken(secret, 9);
		sessions.push({ memberId, cookie: `__Host-session_bench_large=${token}`, hash: await hashToken(token) });
	}
	const rows = sessions.map(({ memberId, hash }) => `('${hash}', ${memberId}, 9, ${now}, ${now}, ${now + 86_400_000}, ${now + 86_400_000})`);
	await db.rows(
		`INSERT INTO sessions (token_hash, member_id, channel_id, created_at, last_seen_at, idle_expires_at, expires_at) VALUES ${rows.join(', ')}`,
	);
	return sessions;
}

/**
 * A session of one member (never banned) of each demo community, for Lighthouse's run of My Page:
 * the Cookie header that signs a request in, by the community's path.
 *
 * @param {string} state
 * @returns {Promise<Map<string, string>>}
 */
export async function demoMemberCookies(state) {
	const secret = localSessionSecret(state);
	const now = Date.now();
	const cookies = new Map();
	// Each session goes where the community's members are, as a sign-in writes it (docs/reference/databases.md).
	for (const database of communityDatabases(state)) {
		const members = query(
			`SELECT c.id AS channelId, c.domain, c.slug, min(m.id) AS memberId FROM channels c
			 JOIN members m ON m.channel_id = c.id AND m.role = 'MEMBER' AND m.withdrawn_at IS NULL
			 AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.member_id = m.id)
			 WHERE c.domain != 'bench' AND c.database = '${database}' GROUP BY c.id ORDER BY c.id`,
			state,
			database,
		);
		const rows = [];
		for (const { channelId, domain, slug, memberId } of members) {
			const token = await mintSessionToken(secret, channelId);
			cookies.set(`/${domain}/${slug}`, `__Host-session_${domain}_${slug}=${token}`);
			rows.push(`('${await hashToken(token)}', ${memberId}, ${channelId}, ${now}, ${now}, ${now + 86_400_000}, ${now + 86_400_000})`);
		}
		if (rows.length > 0) {
			query(
				`INSERT INTO sessions (token_hash, member_id, channel_id, created_at, last_seen_at, idle_expires_at, expires_at) VALUES ${rows.join(', ')}`,
				state,
				database,
			);
		}
	}
	return cookies;
}
