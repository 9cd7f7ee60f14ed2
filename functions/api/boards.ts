/** GET boards, boards/tree, boards/{boardId}, board-subjects and board post lists (SPEC §7). */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/context';
import type { Board } from '@/server/boards/boards';
import type { Channel } from '@/server/channels/channels';
import { loadLayout } from '@/server/channels/layout';
import { listBoardPosts, listChannelPosts } from '@/server/posts/lists';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { IdSchema, PageSchema } from '@/schemas/params';
import { NoQuerySchema, parseInput } from '@functions/validate';

const SubjectsQuerySchema = z.strictObject({ boardId: IdSchema.optional() });
const PostsQuerySchema = z.strictObject({
	boardId: IdSchema.optional(),
	subjectId: IdSchema.optional(),
	page: PageSchema.default(1),
});

/** A board of the channel from the layout memo. @throws AppError BoardNotFound */
async function boardOf(db: D1Database, channel: Channel, boardId: number): Promise<Board> {
	const board = (await loadLayout(db, channel)).boards.find((candidate) => candidate.boardId === boardId);
	if (!board) throw new AppError('BoardNotFound');
	return board;
}

// Boards, the tree and categories come from the layout memo, read once per content version.
export const boardsRouter = new Hono<ApiEnv>()
	.get('/boards', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		return c.json(ok({ content: (await loadLayout(c.var.db, c.var.channel)).boards }));
	})
	.get('/boards/tree', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		return c.json(ok({ content: (await loadLayout(c.var.db, c.var.channel)).tree }));
	})
	.get('/boards/:boardId', async (c) => {
		parseInput(NoQuerySchema, c.req.query(), 'query');
		const boardId = parseInput(IdSchema, c.req.param('boardId'), 'boardId');
		return c.json(ok({ content: await boardOf(c.var.db, c.var.channel, boardId) }));
	})
	.get('/board-subjects', async (c) => {
		const { boardId } = parseInput(SubjectsQuerySchema, c.req.query(), 'query');
		if (boardId !== undefined) await boardOf(c.var.db, c.var.channel, boardId);
		const { subjects } = await loadLayout(c.var.db, c.var.channel);
		return c.json(ok({ boardSubjects: boardId === undefined ? subjects : subjects.filter((subject) => subject.boardId === boardId) }));
	})
	.get('/posts', async (c) => {
		const query = parseInput(PostsQuerySchema, c.req.query(), 'query');
		const { db, channel } = c.var;
		if (query.boardId === undefined) {
			if (query.subjectId !== undefined) throw new AppError('InvalidParameter', 'The request has an invalid parameter: subjectId needs a boardId.');
			return c.json(ok({ content: await listChannelPosts(db, channel.id, query.page, channel.listedCount) }));
		}
		const board = await boardOf(db, channel, query.boardId);
		let listed = board.postCount;
		if (query.subjectId !== undefined) {
			const subject = (await loadLayout(db, channel)).subjects.find((s) => s.boardId === board.boardId && s.subjectId === query.subjectId);
			if (!subject) throw new AppError('SubjectNotFound');
			listed = subject.postCount;
		}
		return c.json(ok({ content: await listBoardPosts(db, channel.id, board.boardId, query.page, listed, query.subjectId) }));
	});
