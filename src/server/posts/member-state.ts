/**
 * What a member's post page shows of them, read by their session token's hash in the session's own
 * round trip: by the full render (src/server/loaders/post-page-view.ts) with the post, and by a
 * member's page made from the guest's (functions/shell/member-pages.ts) with the session. The same
 * reads, so the same parts.
 */
import { read, type Read } from '@/server/platform/reads';

/** Where a post is and who wrote it, whoever reads it: what a member's page made from the guest's needs to know of it. */
export interface PostPlace {
	boardId: number;
	authorId: number;
	/** The author's nickname, null once they withdrew (their Block: docs/reference/blocking.md). */
	authorNickname: string | null;
}

/** The post's board and author (null when the channel has no such post): one row by its primary key, and its author's. */
export function postPlaceRead(db: Db, channelId: number, postId: number): Read<PostPlace | null> {
	const statement = db
		.prepare(
			`SELECT p.board_id AS boardId, p.member_id AS authorId, CASE WHEN m.withdrawn_at IS NULL THEN m.nickname END AS authorNickname
			 FROM posts p JOIN members m ON m.id = p.member_id WHERE p.id = ?1 AND p.channel_id = ?2`,
		)
		.bind(postId, channelId);
	return read(statement, (result) => (result.results[0] as PostPlace | undefined) ?? null);
}

/** A member's own state of a post: their like, report, watch and save of it and the comments of it they reported. */
export interface MemberPostState {
	liked: boolean;
	reported: boolean;
	watching: boolean;
	saved: boolean;
	/** The post's comments they reported, ascending. */
	reportedComments: number[];
	/** Where the post is and who wrote it (null when the channel has no such post). */
	place: PostPlace | null;
	/** Whether they blocked anyone (docs/reference/blocking.md): their page is then rendered in full. */
	blocksAnyone: boolean;
}

interface MemberPostRow {
	boardId: number;
	authorId: number;
	authorNickname: string | null;
	liked: number;
	reported: number;
	watching: number;
	saved: number;
	reportedComments: number[];
	blocksAnyone: number;
}

/**
 * SQL of one value, a JSON object (MemberPostRow) or null when the channel has no such post: the
 * state of the post `post` of the channel `channel` (SQL) of the member `member` (SQL: a session's
 * `s.member_id`, null without one, which reads as a member with nothing, every answer false or empty).
 */
export function memberPostStateSql(member: string, channel: string, post: string): string {
	return `(SELECT json_object('boardId', p.board_id, 'authorId', p.member_id,
		 'authorNickname', CASE WHEN author.withdrawn_at IS NULL THEN author.nickname END,
		 'liked', EXISTS (SELECT 1 FROM post_likes l WHERE l.member_id = ${member} AND l.post_id = p.id AND l.channel_id = ${channel}),
		 'reported', EXISTS (SELECT 1 FROM reports r WHERE r.reporter_id = ${member} AND r.target_type = 'POST' AND r.target_id = p.id AND r.channel_id = ${channel}),
		 'watching', coalesce((SELECT w.watching FROM watches w WHERE w.member_id = ${member} AND w.target = 'POST' AND w.target_id = p.id), p.member_id = ${member}, 0),
		 'saved', EXISTS (SELECT 1 FROM saved_posts v WHERE v.member_id = ${member} AND v.post_id = p.id),
		 'reportedComments', json((SELECT json_group_array(r.target_id) FROM reports r JOIN comments c ON c.id = r.target_id AND c.post_id = p.id
		  WHERE r.reporter_id = ${member} AND r.target_type = 'COMMENT' AND r.channel_id = ${channel})),
		 'blocksAnyone', EXISTS (SELECT 1 FROM member_blocks WHERE blocker_id = ${member}))
		 FROM posts p JOIN members author ON author.id = p.member_id WHERE p.id = ${post} AND p.channel_id = ${channel})`;
}

/** The member's state of the post from the value of memberPostStateSql. */
export function memberPostStateOf(json: string | null | undefined): MemberPostState {
	const row = json ? (JSON.parse(json) as MemberPostRow) : null;
	if (!row) return { liked: false, reported: false, watching: false, saved: false, reportedComments: [], place: null, blocksAnyone: false };
	return {
		liked: row.liked === 1,
		reported: row.reported === 1,
		watching: row.watching === 1,
		saved: row.saved === 1,
		reportedComments: row.reportedComments.sort((a, b) => a - b),
		place: { boardId: row.boardId, authorId: row.authorId, authorNickname: row.authorNickname },
		blocksAnyone: row.blocksAnyone === 1,
	};
}

/**
 * The member's own state of a post's page, by their session token's hash, in ONE statement (one
 * value: memberPostStateSql, with the session's member): their like, report, watch and save of the
 * post, the comments of it they reported, the post's place and whether they blocked anyone. The
 * full render (src/server/loaders/post-page-view.ts) reads it with the post, and a member's page
 * made from the guest's (functions/shell/member-pages.ts) in the session's own row: the same SQL,
 * so the same parts. One statement instead of one per answer: local D1 runs each statement of a
 * batch in the Worker's process, and each costs its own CPU (docs/decisions/performance.md). A
 * token with no session row reads as a member with nothing (every answer false or empty).
 */
export function memberPostStateRead(db: Db, channelId: number, tokenHash: string, postId: number): Read<MemberPostState> {
	const statement = db
		.prepare(
			`SELECT ${memberPostStateSql('s.member_id', '?2', '?3')} AS state
			 FROM (SELECT 1) LEFT JOIN sessions s ON s.token_hash = ?1 AND s.channel_id = ?2`,
		)
		.bind(tokenHash, channelId, postId);
	return read(statement, (result) => memberPostStateOf((result.results[0] as { state: string | null } | undefined)?.state));
}
