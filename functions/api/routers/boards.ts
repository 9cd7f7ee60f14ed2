/** GET boards, boards/tree, boards/{boardId}, board-subjects and board post lists (docs/reference/product-rules.md#api-calls). */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { loadLayout } from '@/server/channels/layout';
import { listChannelPosts } from '@/server/posts/lists';
import { boardListing, listBoardPage } from '@/server/posts/board-page';
import { canReadBoard, viewerOf, type Viewer } from '@/server/visibility/visibility';
import type { Board, BoardSubject } from '@/server/boards/boards';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { IdSchema, PageSchema } from '@/schemas/params';
import { NoQuerySchema, zv } from '@functions/api/validate';

const BoardParamSchema = z.object({ boardId: IdSchema });
const SubjectsQuerySchema = z.strictObject({ boardId: IdSchema.optional() });
const PostsQuerySchema = z.strictObject({
	boardId: IdSchema.optional(),
	subjectId: IdSchema.optional(),
	page: PageSchema.default(1),
});

/** A board as `viewer` may see it: how many posts a board holds is not told to those who cannot read it. */
function shownBoard(board: Board, viewer: Viewer): Omit<Board, 'postCount'> & { postCount: number | null } {
	return canReadBoard(board, viewer) ? board : { ...board, postCount: null };
}

/** The categories as `viewer` may see them: no post count for a category of a board they cannot read. */
function shownSubjects(
	subjects: BoardSubject[],
	boards: Board[],
	viewer: Viewer,
): (Omit<BoardSubject, 'postCount'> & { postCount: number | null })[] {
	const unreadable = new Set(boards.filter((board) => !canReadBoard(board, viewer)).map((board) => board.boardId));
	return subjects.map((subject) => (unreadable.has(subject.boardId) ? { ...subject, postCount: null } : subject));
}

// Boards, the tree and categories come from the layout memo, read once per content version.
export const boardsRouter = new Hono<ApiEnv>()
	.get('/boards', zv('query', NoQuerySchema), async (c) => {
		const viewer = viewerOf(c.var.session);
		return c.json(ok({ content: (await loadLayout(c.var.db, c.var.channel)).boards.map((board) => shownBoard(board, viewer)) }));
	})
	.get('/boards/tree', zv('query', NoQuerySchema), async (c) => c.json(ok({ content: (await loadLayout(c.var.db, c.var.channel)).tree })))
	.get('/boards/:boardId', zv('param', BoardParamSchema), zv('query', NoQuerySchema), async (c) => {
		const { boardId } = c.req.valid('param');
		const board = (await loadLayout(c.var.db, c.var.channel)).boards.find((candidate) => candidate.boardId === boardId);
		if (!board) throw new AppError('BoardNotFound');
		return c.json(ok({ content: shownBoard(board, viewerOf(c.var.session)) }));
	})
	.get('/board-subjects', zv('query', SubjectsQuerySchema), async (c) => {
		const { boardId } = c.req.valid('query');
		const { boards, subjects } = await loadLayout(c.var.db, c.var.channel);
		if (boardId !== undefined && !boards.some((board) => board.boardId === boardId)) throw new AppError('BoardNotFound');
		const shown = shownSubjects(subjects, boards, viewerOf(c.var.session));
		return c.json(ok({ boardSubjects: boardId === undefined ? shown : shown.filter((subject) => subject.boardId === boardId) }));
	})
	.get('/posts', zv('query', PostsQuerySchema), async (c) => {
		const query = c.req.valid('query');
		const { db, channel } = c.var;
		if (query.boardId === undefined) {
			if (query.subjectId !== undefined) throw new AppError('InvalidParameter', 'The request has an invalid parameter: subjectId needs a boardId.');
			return c.json(ok({ content: await listChannelPosts(db, channel.id, query.page, channel.listedCount) }));
		}
		const listing = boardListing(await loadLayout(db, channel), query.boardId, query.subjectId, viewerOf(c.var.session));
		return c.json(ok({ content: await listBoardPage(db, channel.id, listing, query.page) }));
	});
