/**
 * What a member's post page shows of them, read by their session token's hash in the session's own
 * round trip: by the full render (src/server/loaders/post-page-view.ts) with the post, and by a
 * member's page made from the guest's (functions/shell/member-pages.ts) with the session. The same
 * reads, so the same parts.
 */
import { read, type Read } from '@/server/platform/reads';
import { likedByTokenRead } from '@/server/likes/likes';
import { watchingByTokenRead } from '@/server/notifications/watches';
import { reportedByTokenRead, reportedCommentsByTokenRead } from '@/server/reports/reports';
import { savedByTokenRead } from '@/server/saved/saved';

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

/**
 * The member's own state of a post's page, by their session token's hash: their like, report,
 * watch and save of the post and the comments of it they reported. The full render reads them with the post,
 * and a member's page made from the guest's (functions/shell/member-pages.ts) with the session: the
 * same reads, so the same parts.
 */
export function memberPostReads(db: Db, channelId: number, tokenHash: string, postId: number) {
	return {
		liked: likedByTokenRead(db, channelId, tokenHash, postId),
		reported: reportedByTokenRead(db, channelId, tokenHash, postId),
		watching: watchingByTokenRead(db, channelId, tokenHash, 'POST', postId),
		saved: savedByTokenRead(db, channelId, tokenHash, postId),
		reportedComments: reportedCommentsByTokenRead(db, channelId, tokenHash, postId),
	};
}
