/**
 * A board's list, the one home of its query: which board, category and page a request shows, and
 * the read of that page. The board page and the edge cache's key for it (functions/shell/cache-routes.ts)
 * read the URL as planBoardPage does, leniently: an unknown category shows the whole board and a
 * page past the last shows the last, so a mistyped link still leads somewhere. The API
 * (functions/api/routers/boards.ts) takes boardListing's answer as it is: what names no board or category
 * is refused.
 */
import { AppError, isAppError } from '@/server/platform/errors';
import type { Board, BoardSubject } from '@/server/boards/boards';
import { canReadBoard, GUEST, type Viewer } from '@/server/visibility/visibility';
import { IdSchema, PAGE_SIZE, lenientPage } from '@/schemas/params';
import { shownPage } from '@/server/platform/paging';
import { boardPostsRead, listBoardPosts, type PostPage } from './lists';
import type { Read, ReadGroup } from '@/server/platform/reads';
import { popularPostsRead, type PopularPage } from './popular';

/** The boards and categories of a channel with their post counts, as its layout holds them (src/server/channels/layout.ts). */
export interface BoardCatalog {
	boards: readonly Board[];
	subjects: readonly BoardSubject[];
}

interface BoardListing {
	board: Board;
	subject: BoardSubject | null;
	/** How many posts the list holds (the board's or the category's listed posts). */
	listedCount: number;
}

/**
 * The list a reader asks for: a board of the channel from the layout, optionally one of its
 * categories. @throws AppError BoardNotFound, BoardPrivate (to anyone but an administrator), SubjectNotFound
 */
export function boardListing(layout: BoardCatalog, boardId: number, subjectId: number | undefined, viewer: Viewer): BoardListing {
	const board = layout.boards.find((candidate) => candidate.boardId === boardId);
	if (!board) throw new AppError('BoardNotFound');
	if (!canReadBoard(board, viewer)) throw new AppError('BoardPrivate');
	if (subjectId === undefined) return { board, subject: null, listedCount: board.postCount };
	const subject = layout.subjects.find((candidate) => candidate.boardId === boardId && candidate.subjectId === subjectId);
	if (!subject) throw new AppError('SubjectNotFound');
	return { board, subject, listedCount: subject.postCount };
}

/** What a board page's URL names: the board id of its path (null when it is none), and its first `subjectId` and `page` query values. */
export interface BoardPageAddress {
	boardId: number | null;
	subjectId: string | null;
	page: string | null;
}

/** What a board page shows its reader. */
interface BoardPagePlan {
	/** The board, or null when the URL names none (the page is not found). */
	board: Board | null;
	/** The board's categories. */
	subjects: BoardSubject[];
	/** The list it shows, or null for a private board (to anyone but an administrator). */
	listing: BoardListing | null;
	/** The page shown: the one asked for, or the last when it is past the end. */
	page: number;
}

/** What the board page at `address` shows `viewer`, from the layout (read for the channel's content version). */
export function planBoardPage(layout: BoardCatalog, address: BoardPageAddress, viewer: Viewer): BoardPagePlan {
	const board = address.boardId === null ? null : (layout.boards.find((candidate) => candidate.boardId === address.boardId) ?? null);
	const subjects = board ? layout.subjects.filter((subject) => subject.boardId === board.boardId) : [];
	const subjectParam = IdSchema.safeParse(address.subjectId);
	// An unknown category shows the whole board rather than an error: the link still leads somewhere.
	const subjectId = subjectParam.success && subjects.some((subject) => subject.subjectId === subjectParam.data) ? subjectParam.data : undefined;
	let listing: BoardListing | null = null;
	if (board) {
		try {
			listing = boardListing(layout, board.boardId, subjectId, viewer);
		} catch (error) {
			if (!isAppError(error) || error.codeName !== 'BoardPrivate') throw error;
		}
	}
	return { board, subjects, listing, page: shownPage(lenientPage(address.page), listing?.listedCount ?? 0, PAGE_SIZE) };
}

/** The page `page` of a listing: the board's, or its category's, posts with the board's notices. */
export function listBoardPage(db: Db, channelId: number, listing: BoardListing, page: number): Promise<PostPage> {
	return listBoardPosts(db, channelId, listing.board.boardId, page, listing.listedCount, listing.subject?.subjectId);
}

/** Whoever may read every board: the reader a signed-in request's list is read for before its session says who is asking. */
const ANY_ADMINISTRATOR: Viewer = { kind: 'member', memberId: 0, admin: true };

/**
 * The board page's read at `address`, for its session's batch, made before the session says who
 * is asking (none when the page shows no list): the list a guest may read or, for a request with
 * a session (`signedIn`), the list an administrator may, a private board's too. A list is the same
 * for every reader who may read it, so the page shows the result to whoever its own plan lists it
 * for (boardPageList), and to nobody else.
 */
export function boardPageRead(
	db: Db,
	channelId: number,
	layout: BoardCatalog,
	address: BoardPageAddress,
	signedIn: boolean,
): Read<PostPage> | undefined {
	const { listing, page } = planBoardPage(layout, address, signedIn ? ANY_ADMINISTRATOR : GUEST);
	return listing ? boardPostsRead(db, channelId, listing.board.boardId, page, listing.listedCount, listing.subject?.subjectId) : undefined;
}

/**
 * The list the plan shows: `batched`, the value of boardPageRead at the same address (the same
 * page of the same listing), or read now when there is none; null when the plan shows no list.
 */
export async function boardPageList(db: Db, channelId: number, plan: BoardPagePlan, batched: PostPage | undefined): Promise<PostPage | null> {
	const { listing } = plan;
	if (!listing) return null;
	return batched ?? listBoardPage(db, channelId, listing, plan.page);
}

/** The board's Popular page after post `after` (src/server/posts/popular.ts), read for the same readers as boardPageRead's list. */
export function boardPopularRead(
	db: Db,
	channelId: number,
	layout: BoardCatalog,
	address: BoardPageAddress,
	signedIn: boolean,
	after: number | null,
): ReadGroup<PopularPage> | undefined {
	const { listing } = planBoardPage(layout, address, signedIn ? ANY_ADMINISTRATOR : GUEST);
	return listing ? popularPostsRead(db, channelId, { kind: 'board', boardId: listing.board.boardId }, after) : undefined;
}
