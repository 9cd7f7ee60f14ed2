/** GET boards, boards/tree, boards/{boardId}, board-subjects and board post lists (SPEC §7). */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/context';
import { loadLayout } from '@/server/channels/layout';
import { boardListing, listBoardPosts, listChannelPosts } from '@/server/posts/lists';
import { viewerOf } from '@/server/posts/visibility';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { IdSchema, PageSchema } from '@/schemas/params';
import { NoQuerySchema, zv } from '@functions/validate';

const BoardParamSchema = z.object({ boardId: IdSchema });
const SubjectsQuerySchema = z.strictObject({ boardId: IdSchema.optional() });
const PostsQuerySchema = z.strictObject({
	boardId: IdSchema.optional(),
	subjectId: IdSchema.optional(),
	page: PageSchema.default(1),
});

// Boards, the tree and categories come from the layout memo, read once per content version.
export const boardsRouter = new Hono<ApiEnv>()
	.get('/boards', zv('query', NoQuerySchema), async (c) => c.json(ok({ content: (await loadLayout(c.var.db, c.var.channel)).boards })))
	.get('/boards/tree', zv('query', NoQuerySchema), async (c) => c.json(ok({ content: (await loadLayout(c.var.db, c.var.channel)).tree })))
	.get('/boards/:boardId', zv('param', BoardParamSchema), zv('query', NoQuerySchema), async (c) => {
		const { boardId } = c.req.valid('param');
		const board = (await loadLayout(c.var.db, c.var.channel)).boards.find((candidate) => candidate.boardId === boardId);
		if (!board) throw new AppError('BoardNotFound');
		return c.json(ok({ content: board }));
	})
	.get('/board-subjects', zv('query', SubjectsQuerySchema), async (c) => {
		const { boardId } = c.req.valid('query');
		const { boards, subjects } = await loadLayout(c.var.db, c.var.channel);
		if (boardId !== undefined && !boards.some((board) => board.boardId === boardId)) throw new AppError('BoardNotFound');
		return c.json(ok({ boardSubjects: boardId === undefined ? subjects : subjects.filter((subject) => subject.boardId === boardId) }));
	})
	.get('/posts', zv('query', PostsQuerySchema), async (c) => {
		const query = c.req.valid('query');
		const { db, channel } = c.var;
		if (query.boardId === undefined) {
			if (query.subjectId !== undefined) throw new AppError('InvalidParameter', 'The request has an invalid parameter: subjectId needs a boardId.');
			return c.json(ok({ content: await listChannelPosts(db, channel.id, query.page, channel.listedCount) }));
		}
		const listing = boardListing(await loadLayout(db, channel), query.boardId, query.subjectId, viewerOf(c.var.session));
		return c.json(ok({ content: await listBoardPosts(db, channel.id, listing.board.boardId, query.page, listing.listedCount, listing.subject?.subjectId) }));
	});
