/**
 * Member profiles as readers see them, and a member's visible posts. The profile and a page of its
 * posts are read in one round trip, by the profile page (in its session's batch) and the API alike:
 * the named reads profileRead and memberPostsRead (memberPostPageOf makes the posts a page).
 */
import { AppError } from '@/server/platform/errors';
import { read, readGroup, readAll, run, type Read, type ReadGroup } from '@/server/platform/reads';
import { PAGE_SIZE } from '@/schemas/params';
import { pageCount } from '@/server/platform/paging';
import { SUMMARY_COLUMNS, toSummary, type PostSummary, type SummaryRow } from '@/server/posts/lists';
import { listablePostSql } from '@/server/visibility/visibility';
import { authorOf } from '@/server/visibility/author';

/** A profile lists what everyone may read of the member's posts (?1 the member, ?2 the channel). */
const PROFILE_POSTS_WHERE = `p.member_id = ?1 AND p.channel_id = ?2 AND ${listablePostSql('NULL')}`;

/** How many posts the profile lists (?1 the member, ?2 the channel). */
const PROFILE_POST_COUNT_SQL = `SELECT count(*) AS count FROM posts p JOIN boards b ON b.id = p.board_id WHERE ${PROFILE_POSTS_WHERE}`;

export interface MemberProfile {
	userId: number;
	/** null once the member has withdrawn. */
	nickname: string | null;
	joinedAt: number;
	withdrawn: boolean;
	/** An administrator of the community: the profile shows the role badge. */
	admin: boolean;
	postCount: number;
}

interface ProfileRow {
	id: number;
	nickname: string | null;
	joined_at: number;
	withdrawn_at: number | null;
	role: string;
}

/**
 * The profile, from two reads sent together: the member (of this channel only) and the count of
 * their listed posts; null when the channel has no such member.
 */
export function profileRead(db: Db, channelId: number, userId: number): ReadGroup<MemberProfile | null> {
	return readGroup(
		[
			db.prepare('SELECT id, nickname, joined_at, withdrawn_at, role FROM members WHERE id = ?1 AND channel_id = ?2').bind(userId, channelId),
			db.prepare(PROFILE_POST_COUNT_SQL).bind(userId, channelId),
		],
		([member, count]) => profileOf(member, count),
	);
}

function profileOf(member: D1Result | undefined, count: D1Result | undefined): MemberProfile | null {
	const row = member?.results[0] as ProfileRow | undefined;
	if (!row) return null;
	// The name and badge as readers see them beside the member's posts.
	const shown = authorOf(row.id, row.nickname, row.withdrawn_at, row.role);
	return {
		userId: row.id,
		nickname: shown.nickname,
		joinedAt: row.joined_at,
		withdrawn: shown.withdrawn,
		admin: shown.admin,
		postCount: (count?.results[0] as { count: number } | undefined)?.count ?? 0,
	};
}

/** @throws AppError UserNotFound, also for a member of another channel */
export async function getProfile(db: Db, channelId: number, userId: number): Promise<MemberProfile> {
	const profile = await run(db, profileRead(db, channelId, userId));
	if (!profile) throw new AppError('UserNotFound');
	return profile;
}

export interface MemberPostPage {
	posts: PostSummary[];
	page: number;
	pageSize: number;
	totalCount: number;
	totalPages: number;
}

/**
 * The read of a page of a member's visible posts (not deleted, hidden or private, and in public
 * boards), newest first, for the batch of profileRead (memberPostPageOf makes it a page). A member's list is short next to a
 * board's, so it pages by offset over the member's own index. `page` is the page asked for; with
 * `past: 'last'` a page past the end reads the last page instead (as the profile page shows it:
 * shownPage of src/server/platform/paging.ts, here from the count inside the same query), else nothing.
 */
export function memberPostsRead(db: Db, channelId: number, userId: number, page: number, past: 'last' | 'none' = 'none'): Read<PostSummary[]> {
	// Page 1 is never past the end; a deeper page may be, and then the last page's offset is read.
	const shown = past === 'last' && page > 1 ? `min(?3, max(1, ((${PROFILE_POST_COUNT_SQL}) + ${PAGE_SIZE - 1}) / ${PAGE_SIZE}))` : '?3';
	const statement = db
		.prepare(
			`SELECT ${SUMMARY_COLUMNS}
			 FROM posts p JOIN members m ON m.id = p.member_id JOIN boards b ON b.id = p.board_id
			 WHERE ${PROFILE_POSTS_WHERE}
			 ORDER BY p.id DESC LIMIT ${PAGE_SIZE} OFFSET (${shown} - 1) * ${PAGE_SIZE}`,
		)
		.bind(userId, channelId, page);
	return read(statement, (result) => (result.results as SummaryRow[]).map(toSummary));
}

/** The page `page` (the page shown) of the profile's posts, from memberPostsRead's posts. */
export function memberPostPageOf(posts: PostSummary[], profile: MemberProfile, page: number): MemberPostPage {
	return {
		posts,
		page,
		pageSize: PAGE_SIZE,
		totalCount: profile.postCount,
		totalPages: pageCount(profile.postCount, PAGE_SIZE),
	};
}

/** A page of the posts of a profile already read (page past the end: no posts). */
export async function listMemberPosts(db: Db, channelId: number, profile: MemberProfile, page: number): Promise<MemberPostPage> {
	return memberPostPageOf(await run(db, memberPostsRead(db, channelId, profile.userId, page)), profile, page);
}

/**
 * The member's profile and page `page` of their posts (a page past the end has none), in one round
 * trip. @throws AppError UserNotFound, also for a member of another channel
 */
export async function getMemberPosts(db: Db, channelId: number, userId: number, page: number): Promise<MemberPostPage> {
	const { profile, posts } = await readAll(db, { profile: profileRead(db, channelId, userId), posts: memberPostsRead(db, channelId, userId, page) });
	if (!profile) throw new AppError('UserNotFound');
	return memberPostPageOf(posts, profile, page);
}
