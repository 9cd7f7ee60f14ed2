/**
 * Post lists. A page is one read of the rows it shows and their authors, newest first from the
 * position src/server/list-positions/ finds for it: at page 1 as at page 2,000, whatever was removed.
 */
import { PAGE_SIZE } from '@/schemas/params';
import { pageCount } from '@/server/platform/paging';
import { read, run, type Read } from '@/server/platform/reads';
import { isImageSrc } from '@/schemas/content';
import { thumbnailUrl } from '@/lib/thumbnails';
import { authorOf, type PostAuthor } from '@/server/visibility/author';
import { rankPositionSql, type PostListKind } from '@/server/list-positions/list-positions';

export interface PostSummary {
	postId: number;
	boardId: number;
	subjectId: number | null;
	title: string;
	author: PostAuthor;
	createdAt: number;
	viewCount: number;
	likeCount: number;
	commentCount: number;
	isNotice: boolean;
	hasImage: boolean;
	hasVideo: boolean;
	/**
	 * The URL of the small picture the row shows for its first image or video (posts.thumbnail read by
	 * thumbnailUrl, src/lib/thumbnails.ts): an upload's variant, a demo image or a YouTube poster;
	 * null for a post without one, whose row shows ▣ or ▶.
	 */
	thumbnail: string | null;
	/** Only on the author's own lists (My Page): a post the owner made private. */
	isPrivate: boolean;
}

export interface PostPage {
	notices: PostSummary[];
	posts: PostSummary[];
	page: number;
	pageSize: number;
	totalCount: number;
	totalPages: number;
}

export interface SummaryRow {
	id: number;
	board_id: number;
	subject_id: number | null;
	title: string;
	member_id: number;
	nickname: string | null;
	withdrawn_at: number | null;
	role: string;
	created_at: number;
	view_count: number;
	like_count: number;
	comment_count: number;
	is_notice: number;
	has_image: number;
	has_video: number;
	thumbnail: string | null;
	is_private: number;
}

/** The columns of a list row, over posts p joined with members m. */
export const SUMMARY_COLUMNS = `p.id, p.board_id, p.subject_id, p.title, p.member_id, m.nickname, m.withdrawn_at, m.role,
	p.created_at, p.view_count, p.like_count, p.comment_count, p.is_notice, p.has_image, p.has_video, p.thumbnail, p.is_private`;

export function toSummary(row: SummaryRow): PostSummary {
	return {
		postId: row.id,
		boardId: row.board_id,
		subjectId: row.subject_id,
		title: row.title,
		author: authorOf(row.member_id, row.nickname, row.withdrawn_at, row.role),
		createdAt: row.created_at,
		viewCount: row.view_count,
		likeCount: row.like_count,
		commentCount: row.comment_count,
		isNotice: row.is_notice === 1,
		hasImage: row.has_image === 1,
		hasVideo: row.has_video === 1,
		thumbnail: thumbnailUrl(row.thumbnail, isImageSrc),
		isPrivate: row.is_private === 1,
	};
}

function pageOf(total: number, page: number) {
	return { page, pageSize: PAGE_SIZE, totalCount: total, totalPages: pageCount(total, PAGE_SIZE) };
}

/**
 * The rank (1 = the oldest) of the newest post on page `page` of a list of `total` listed posts,
 * newest first; 0 when the page is past the end.
 */
export function newestRankOf(total: number, page: number, pageSize = PAGE_SIZE): number {
	return Math.max(0, total - (page - 1) * pageSize);
}

/**
 * The condition that picks a page of a list, newest first, over its position column: page 1 is the
 * top of the list; a deeper page starts at the position of its newest post, found by the Fenwick
 * descent of src/server/list-positions/ inside the same query. `rankParam` holds newestRankOf(…).
 */
function pageWhere(kind: PostListKind, seqColumn: string, listParam: string, rankParam: string, page: number): string {
	// A rank of 0 is a page past the end: nothing, whatever the descent would find.
	const from = page === 1 ? `${seqColumn} IS NOT NULL` : `${seqColumn} <= ${rankPositionSql(kind, listParam, rankParam)}`;
	return `${rankParam} > 0 AND ${from} ORDER BY ${seqColumn} DESC LIMIT ${PAGE_SIZE}`;
}

const NOTICE_LIMIT = 5;

/**
 * A page of a board's posts, optionally of one subject, with the pinned notices, in one D1 query.
 * `listedCount` is the board's or the subject's count of listed posts, which the caller holds.
 */
export async function listBoardPosts(
	db: Db,
	channelId: number,
	boardId: number,
	page: number,
	listedCount: number,
	subjectId?: number,
): Promise<PostPage> {
	return run(db, boardPostsRead(db, channelId, boardId, page, listedCount, subjectId));
}

/** listBoardPosts' one read, for a page that batches it with its session's. */
export function boardPostsRead(db: Db, channelId: number, boardId: number, page: number, listedCount: number, subjectId?: number): Read<PostPage> {
	const rank = newestRankOf(listedCount, page);
	const range =
		subjectId === undefined
			? `p.board_id = ?1 AND p.channel_id = ?2 AND ${pageWhere('board', 'p.board_seq', '?1', '?3', page)}`
			: `p.subject_id = ?4 AND p.channel_id = ?2 AND ${pageWhere('subject', 'p.subject_seq', '?4', '?3', page)}`;
	const statement = db
		.prepare(
			`SELECT * FROM (SELECT ${SUMMARY_COLUMNS}, 1 AS pinned FROM posts p JOIN members m ON m.id = p.member_id
				WHERE p.board_id = ?1 AND p.channel_id = ?2 AND p.is_notice = 1 AND p.deleted_at IS NULL
				  AND p.hidden_by_admin = 0 AND p.is_private = 0
				ORDER BY p.id DESC LIMIT ${NOTICE_LIMIT})
			 UNION ALL
			 SELECT * FROM (SELECT ${SUMMARY_COLUMNS}, 0 AS pinned FROM posts p JOIN members m ON m.id = p.member_id
				WHERE ${range})`,
		)
		.bind(...[boardId, channelId, rank], ...(subjectId === undefined ? [] : [subjectId]));
	return read(statement, (result) => {
		const rows = result.results as (SummaryRow & { pinned: number })[];
		const notices = rows.filter((row) => row.pinned === 1).map(toSummary);
		const posts = rows.filter((row) => row.pinned === 0).map(toSummary);
		return { notices, posts, ...pageOf(listedCount, page) };
	});
}

/** The read of a page of "All Posts", for a page that batches it with its session's. */
export function channelPostsRead(db: Db, channelId: number, page: number, listedCount: number): Read<PostPage> {
	const statement = db
		.prepare(
			`SELECT ${SUMMARY_COLUMNS} FROM posts p JOIN members m ON m.id = p.member_id
			 WHERE p.channel_id = ?1 AND ${pageWhere('channel', 'p.channel_seq', '?1', '?2', page)}`,
		)
		.bind(channelId, newestRankOf(listedCount, page));
	return read(statement, (result) => ({ notices: [], posts: (result.results as SummaryRow[]).map(toSummary), ...pageOf(listedCount, page) }));
}

/** A page of "All Posts": every listed post of the channel's public boards. */
export async function listChannelPosts(db: Db, channelId: number, page: number, listedCount: number): Promise<PostPage> {
	return run(db, channelPostsRead(db, channelId, page, listedCount));
}
