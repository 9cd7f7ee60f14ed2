/** GET boards, boards/tree, boards/{boardId}, board-subjects and board post lists (SPEC §7). */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '../context';
import { boardTree, getBoard, listBoards, listSubjects } from '../../src/server/boards';
import { listBoardPosts, listChannelPosts } from '../../src/server/posts';
import { ok } from '../../src/server/envelope';
import { AppError } from '../../src/server/errors';
import { IdSchema, PageSchema } from '../../src/schemas/params';
import { parseInput } from '../validate';

const NoQuerySchema = z.strictObject({});
const SubjectsQuerySchema = z.strictObject({ boardId: IdSchema.optional() });
const PostsQuerySchema = z.strictObject({
	boardId: IdSchema.optional(),
	subjectId: IdSchema.optional(),
	page: PageSchema.default(1),
});

export const boardsRouter = new Hono<ApiEnv>()
	.get('/boards', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		return c.json(ok({ content: await listBoards(c.var.db, c.var.channel.id) }));
	})
	.get('/boards/tree', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		return c.json(ok({ content: await boardTree(c.var.db, c.var.channel.id) }));
	})
	.get('/boards/:boardId', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		const boardId = parseInput(IdSchema, c.req.param('boardId'), 'boardId');
		return c.json(ok({ content: await getBoard(c.var.db, c.var.channel.id, boardId) }));
	})
	.get('/board-subjects', async (c) => {
		const { boardId } = parseInput(SubjectsQuerySchema, c.req.query(), 'query');
		if (boardId !== undefined) await getBoard(c.var.db, c.var.channel.id, boardId);
		return c.json(ok({ boardSubjects: await listSubjects(c.var.db, c.var.channel.id, boardId) }));
	})
	.get('/posts', async (c) => {
		const query = parseInput(PostsQuerySchema, c.req.query(), 'query');
		const { db, channel } = c.var;
		if (query.boardId === undefined) {
			if (query.subjectId !== undefined) throw new AppError('InvalidParameter', 'The request has an invalid parameter: subjectId needs a boardId.');
			return c.json(ok({ content: await listChannelPosts(db, channel.id, query.page, channel.listedCount) }));
		}
		const board = await getBoard(db, channel.id, query.boardId);
		let listed = board.postCount;
		if (query.subjectId !== undefined) {
			const subject = (await listSubjects(db, channel.id, board.boardId)).find((s) => s.subjectId === query.subjectId);
			if (!subject) throw new AppError('SubjectNotFound');
			listed = subject.postCount;
		}
		return c.json(ok({ content: await listBoardPosts(db, channel.id, board.boardId, query.page, listed, query.subjectId) }));
	});
