/**
 * My Page lists: the member's own posts, comments and liked posts, newest first. They show what
 * the member may read (src/server/visibility/visibility.ts): their own private posts too, nothing
 * deleted or hidden, and nothing from private boards (docs/reference/product-rules.md#roles).
 */
import { PAGE_SIZE } from '@/schemas/params';
import { countOf, pageOf, pageOffsetSql } from '@/server/platform/page-offset';
import { readGroup, run, type ReadGroup } from '@/server/platform/reads';
import { memberIdSql, memberIdValue, type MemberRef } from '@/server/sign-in/member-ref';
import { LISTABLE_COMMENT_SQL, listablePostSql } from '@/server/visibility/visibility';
import { SUMMARY_COLUMNS, toSummary, type PostSummary, type SummaryRow } from '@/server/posts/lists';

export interface ListPage<T> {
	items: T[];
	page: number;
	totalPages: number;
	totalCount: number;
}

export interface MyComment {
	commentId: number;
	postId: number;
	postTitle: string;
	content: string;
	createdAt: number;
}

/** My Page's lists, by their tab. */
export type MyList = 'posts' | 'comments' | 'likes';

interface ListItems {
	posts: PostSummary;
	comments: MyComment;
	likes: PostSummary;
}

/** A list's query: `me` is the SQL of the member's id (bound as ?1), the channel is ?2. */
interface ListQuery {
	columns: string;
	/** The rows' FROM, and the count's when it needs fewer joins. */
	from: string;
	countFrom?: string;
	where: (me: string) => string;
	order: string;
}

const QUERIES: Record<MyList, ListQuery> = {
	posts: {
		columns: SUMMARY_COLUMNS,
		from: 'posts p JOIN members m ON m.id = p.member_id JOIN boards b ON b.id = p.board_id',
		countFrom: 'posts p JOIN boards b ON b.id = p.board_id',
		where: (me) => `p.member_id = ${me} AND p.channel_id = ?2 AND ${listablePostSql(me)}`,
		order: 'p.id DESC',
	},
	comments: {
		columns: 'c.id, c.post_id, p.title, c.content, c.created_at',
		from: 'comments c JOIN posts p ON p.id = c.post_id JOIN boards b ON b.id = p.board_id',
		where: (me) => `c.member_id = ${me} AND c.channel_id = ?2 AND ${LISTABLE_COMMENT_SQL} AND ${listablePostSql(me)}`,
		order: 'c.id DESC',
	},
	likes: {
		columns: SUMMARY_COLUMNS,
		from: 'post_likes l JOIN posts p ON p.id = l.post_id JOIN members m ON m.id = p.member_id JOIN boards b ON b.id = p.board_id',
		where: (me) => `l.member_id = ${me} AND l.channel_id = ?2 AND ${listablePostSql(me)}`,
		order: 'l.created_at DESC',
	},
};

interface CommentRow {
	id: number;
	post_id: number;
	title: string;
	content: string;
	created_at: number;
}

function commentOf(row: CommentRow): MyComment {
	return { commentId: row.id, postId: row.post_id, postTitle: row.title, content: row.content, createdAt: row.created_at };
}

/**
 * A page of one of the member's lists, read with its count (two statements sent together): a page
 * past the end (an old link, a hand-typed number) reads the last page, as a board shows it. With
 * the member's session (`who` a token), My Page reads it in the session's round trip.
 */
export function myListRead<K extends MyList>(db: Db, channelId: number, who: MemberRef, list: K, page: number): ReadGroup<ListPage<ListItems[K]>> {
	const query = QUERIES[list];
	const where = query.where(memberIdSql(who, '?1'));
	const countSql = `SELECT count(*) AS count FROM ${query.countFrom ?? query.from} WHERE ${where}`;
	const offset = pageOffsetSql('?3', page > 1 ? countSql : undefined);
	const member = memberIdValue(who);
	const statements = [
		db
			.prepare(`SELECT ${query.columns} FROM ${query.from} WHERE ${where} ORDER BY ${query.order} LIMIT ${PAGE_SIZE} OFFSET ${offset}`)
			.bind(member, channelId, page),
		db.prepare(countSql).bind(member, channelId),
	];
	return readGroup(statements, ([rows, count]) => {
		const found = rows?.results ?? [];
		const items = list === 'comments' ? (found as CommentRow[]).map(commentOf) : (found as SummaryRow[]).map(toSummary);
		return pageOf({ items: items as ListItems[K][] }, countOf(count), page, true);
	});
}

async function listMine<K extends MyList>(db: Db, channelId: number, memberId: number, list: K, page: number): Promise<ListPage<ListItems[K]>> {
	return run(db, myListRead(db, channelId, memberId, list, page));
}

export function listMyComments(db: Db, channelId: number, memberId: number, page: number): Promise<ListPage<MyComment>> {
	return listMine(db, channelId, memberId, 'comments', page);
}

export function listMyPosts(db: Db, channelId: number, memberId: number, page: number): Promise<ListPage<PostSummary>> {
	return listMine(db, channelId, memberId, 'posts', page);
}

export function listMyLikes(db: Db, channelId: number, memberId: number, page: number): Promise<ListPage<PostSummary>> {
	return listMine(db, channelId, memberId, 'likes', page);
}
