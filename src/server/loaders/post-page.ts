/**
 * The post page (src/pages/[domain]/[slug]/posts/[postId].astro): its one read, the post
 * (src/server/posts/detail.ts) and a page of its comments (src/server/comments/comments.ts) in one
 * D1 query, which the page makes in its session's round trip (its view model:
 * src/server/loaders/post-page-view.ts).
 */
import { AppError } from '@/server/platform/errors';
import { read, run, type Read } from '@/server/platform/reads';
import type { Viewer } from '@/server/visibility/visibility';
import { POST_FROM, POST_SQL, toView, type PostRow, type PostView } from '@/server/posts/detail';
import { commentPageParams, orderOf, type CommentItem, type CommentOrder, type CommentPageStart } from '@/server/comments/comments';
import { commentColumns, commentsOf, type CommentColumns } from '@/server/comments/pages';

/** The post page's data: the post and one page of its comments. */
export interface PostWithComments {
	post: PostView;
	/** Flat, in thread order (src/server/comments/comments.ts); empty for a post the reader may not read. */
	comments: CommentItem[];
	/** The last item's id when more comments follow. */
	nextAfter: number | null;
	/** Whether the page is the first one (no comment precedes it). */
	startsAtBeginning: boolean;
	/** Whether the comment the page starts at or after (`from`, `after`) is one of the post's; true for the first page. */
	anchorFound: boolean;
	/** The post's Best comments (src/server/comments/best.ts), on a first page; none otherwise. */
	best: CommentItem[];
}

/**
 * Where a page of comments starts: the first page, the page holding a comment (`from`, oldest first),
 * or the page after one (`after`), in `order` (oldest first when none).
 */
function commentPageStartOf(options: { from?: number; after?: number; order?: CommentOrder }): CommentPageStart {
	const order = options.order ?? 'oldest';
	return options.from !== undefined
		? { kind: 'from', commentId: options.from }
		: options.after !== undefined
			? { kind: 'after', commentId: options.after, order }
			: { kind: 'first', order };
}

/** The row of postWithCommentsRead: the post's columns and its page of comments'. */
type PostWithCommentsRow = PostRow & CommentColumns;

/**
 * The post page's one read: the post's row with a page of its comments, or null when there is no
 * such post (postWithCommentsOf makes it what a viewer sees); with the member's session token, each
 * comment also says whether they reported it.
 */
export function postWithCommentsRead(
	db: Db,
	channelId: number,
	postId: number,
	start: CommentPageStart,
	tokenHash: string | null = null,
): Read<PostWithCommentsRow | null> {
	const statement = db
		.prepare(`${POST_SQL}, ${commentColumns(orderOf(start))} ${POST_FROM}`)
		.bind(postId, channelId, ...commentPageParams(start, tokenHash));
	return read(statement, (result) => (result.results[0] as PostWithCommentsRow | undefined) ?? null);
}

/** The post and its page of comments as `viewer` may see them, from postWithCommentsRead's row; null when there is no such post. */
export function postWithCommentsOf(row: PostWithCommentsRow | null, viewer: Viewer, start: CommentPageStart): PostWithComments | null {
	if (!row) return null;
	const post = toView(row, viewer);
	const anchorFound = start.kind === 'first' || row.anchor_thread !== null;
	if (!post.readable) return { post, comments: [], nextAfter: null, startsAtBeginning: true, anchorFound, best: [] };
	const { comments, nextAfter, best } = commentsOf(row, viewer, orderOf(start));
	// After a comment of the post, the page never starts at the beginning.
	const startsAtBeginning = start.kind === 'after' ? row.anchor_thread === null : row.has_earlier !== 1;
	return { post, comments, nextAfter, startsAtBeginning, anchorFound, best };
}

/**
 * The post and a page of its comments in one D1 query (the post page makes it in the session's
 * round trip): the first page, with `from` the page that starts at that comment's top-level
 * comment (a link to a comment), or with `after` the page after that comment (the next page,
 * without JavaScript); an id that names no comment of the post gives the first page. A post the
 * reader may not read comes without comments.
 * @throws AppError PostNotFound
 */
export async function getPostWithComments(
	db: Db,
	channelId: number,
	postId: number,
	viewer: Viewer,
	options: { from?: number; after?: number } = {},
): Promise<PostWithComments> {
	const start = commentPageStartOf(options);
	const found = postWithCommentsOf(await run(db, postWithCommentsRead(db, channelId, postId, start)), viewer, start);
	if (!found) throw new AppError('PostNotFound');
	return found;
}
