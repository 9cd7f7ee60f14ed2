/**
 * My Page lists: the member's own posts, comments and liked posts, newest first. They show what
 * the member may read (src/server/visibility/visibility.ts): their own private posts too, nothing
 * deleted or hidden, and nothing from private boards (docs/product-rules.md#roles).
 */
import { all } from '@/server/platform/db';
import { PAGE_SIZE } from '@/schemas/params';
import { pageCount } from '@/lib/paging';
import { LISTABLE_COMMENT_SQL, listablePostSql } from '@/server/visibility/visibility';
import { SUMMARY_COLUMNS, toSummary, type PostSummary, type SummaryRow } from '@/server/posts/lists';

export interface ListPage<T> {
	items: T[];
	page: number;
	totalPages: number;
	totalCount: number;
}

/** Every query below binds the member's id as ?1. */
const READABLE_POST = listablePostSql('?1');

export interface MyComment {
	commentId: number;
	postId: number;
	postTitle: string;
	content: string;
	createdAt: number;
}

/**
 * A page of a list read with its count at once; a page past the end (an old link, a hand-typed
 * number) shows the last page, as a board does, at the cost of a second read.
 */
async function pageOf<T>(page: number, read: (page: number) => Promise<T[]>, count: Promise<{ count: number } | null>): Promise<ListPage<T>> {
	const [first, counted] = await Promise.all([read(page), count]);
	const totalCount = counted?.count ?? 0;
	const totalPages = pageCount(totalCount, PAGE_SIZE);
	if (page > totalPages) return { items: await read(totalPages), page: totalPages, totalCount, totalPages };
	return { items: first, page, totalCount, totalPages };
}

export async function listMyComments(db: D1Database, channelId: number, memberId: number, page: number): Promise<ListPage<MyComment>> {
	const where = `c.member_id = ?1 AND c.channel_id = ?2 AND ${LISTABLE_COMMENT_SQL} AND ${READABLE_POST}`;
	const from = 'comments c JOIN posts p ON p.id = c.post_id JOIN boards b ON b.id = p.board_id';
	const read = async (at: number) =>
		(
			await all<{ id: number; post_id: number; title: string; content: string; created_at: number }>(
				db
					.prepare(`SELECT c.id, c.post_id, p.title, c.content, c.created_at FROM ${from} WHERE ${where} ORDER BY c.id DESC LIMIT ?3 OFFSET ?4`)
					.bind(memberId, channelId, PAGE_SIZE, (at - 1) * PAGE_SIZE),
			)
		).map((row) => ({ commentId: row.id, postId: row.post_id, postTitle: row.title, content: row.content, createdAt: row.created_at }));
	return pageOf(page, read, db.prepare(`SELECT count(*) AS count FROM ${from} WHERE ${where}`).bind(memberId, channelId).first<{ count: number }>());
}

export async function listMyPosts(db: D1Database, channelId: number, memberId: number, page: number): Promise<ListPage<PostSummary>> {
	const where = `p.member_id = ?1 AND p.channel_id = ?2 AND ${READABLE_POST}`;
	const read = async (at: number) =>
		(
			await all<SummaryRow>(
				db
					.prepare(
						`SELECT ${SUMMARY_COLUMNS} FROM posts p JOIN members m ON m.id = p.member_id JOIN boards b ON b.id = p.board_id WHERE ${where} ORDER BY p.id DESC LIMIT ?3 OFFSET ?4`,
					)
					.bind(memberId, channelId, PAGE_SIZE, (at - 1) * PAGE_SIZE),
			)
		).map(toSummary);
	return pageOf(
		page,
		read,
		db
			.prepare(`SELECT count(*) AS count FROM posts p JOIN boards b ON b.id = p.board_id WHERE ${where}`)
			.bind(memberId, channelId)
			.first<{ count: number }>(),
	);
}

export async function listMyLikes(db: D1Database, channelId: number, memberId: number, page: number): Promise<ListPage<PostSummary>> {
	const from = 'post_likes l JOIN posts p ON p.id = l.post_id JOIN members m ON m.id = p.member_id JOIN boards b ON b.id = p.board_id';
	const where = `l.member_id = ?1 AND l.channel_id = ?2 AND ${READABLE_POST}`;
	const read = async (at: number) =>
		(
			await all<SummaryRow>(
				db
					.prepare(`SELECT ${SUMMARY_COLUMNS} FROM ${from} WHERE ${where} ORDER BY l.created_at DESC LIMIT ?3 OFFSET ?4`)
					.bind(memberId, channelId, PAGE_SIZE, (at - 1) * PAGE_SIZE),
			)
		).map(toSummary);
	return pageOf(page, read, db.prepare(`SELECT count(*) AS count FROM ${from} WHERE ${where}`).bind(memberId, channelId).first<{ count: number }>());
}
