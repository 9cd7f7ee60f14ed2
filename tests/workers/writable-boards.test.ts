/**
 * The boards the write screen offers (src/server/boards/writable.ts): public boards to members,
 * private and notice-only boards to administrators alone, each with its enabled categories and its
 * template; a broken template is left out rather than breaking the screen. One query.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { recordingDb } from './harness';
import { offersWrite, parseTemplate, writableBoards, writeRefusal } from '@/server/boards/writable';
import { listBoards } from '@/server/boards/boards';
import { DocumentSchema } from '@/schemas/content';

const BOARDS = { notice: 11, general: 12, guides: 13, fanart: 14, videos: 15, bugs: 16, staff: 17 };

describe('writable boards', () => {
	afterEach(async () => {
		await env.DB.prepare('UPDATE board_subjects SET enabled = 1 WHERE id = 121').run();
	});

	it('offers members the public boards that are not notice-only, administrators every board', async () => {
		const member = await writableBoards(env.DB, 1, false);
		expect(member.map((board) => board.boardId)).toEqual([BOARDS.general, BOARDS.guides, BOARDS.fanart, BOARDS.videos, BOARDS.bugs]);
		const admin = await writableBoards(env.DB, 1, true);
		expect(admin.map((board) => board.boardId)).toEqual(Object.values(BOARDS));
		expect(admin.find((board) => board.boardId === BOARDS.notice)?.noticeOnly).toBe(true);
	});

	it("keeps an edited post's board even where the member could not start a new post", async () => {
		const boards = await writableBoards(env.DB, 1, false, BOARDS.notice);
		expect(boards.map((board) => board.boardId)).toContain(BOARDS.notice);
		expect(boards.map((board) => board.boardId)).not.toContain(BOARDS.staff);
	});

	it('lists the enabled categories of boards that use them, none for boards that do not', async () => {
		await env.DB.prepare('UPDATE board_subjects SET enabled = 0 WHERE id = 121').run();
		const boards = await writableBoards(env.DB, 1, true);
		const general = boards.find((board) => board.boardId === BOARDS.general);
		expect(general?.usesSubjects).toBe(true);
		expect(general?.subjects.map((subject) => subject.subjectId)).toEqual([122, 123, 124]);
		const notice = boards.find((board) => board.boardId === BOARDS.notice);
		expect(notice).toMatchObject({ usesSubjects: false, subjects: [] });
	});

	it('gives each board its template as a valid document, and none where there is none', async () => {
		const boards = await writableBoards(env.DB, 1, false);
		const bugs = boards.find((board) => board.boardId === BOARDS.bugs);
		expect(DocumentSchema.safeParse(bugs?.template).success).toBe(true);
		expect(bugs?.template?.blocks.length).toBeGreaterThan(0);
		expect(boards.find((board) => board.boardId === BOARDS.general)?.template).toBeNull();
	});

	it('leaves out a template that is broken JSON, fails the schema or is empty', () => {
		expect(parseTemplate('{"type":"doc","blocks":[')).toBeNull();
		expect(parseTemplate(JSON.stringify({ type: 'doc', blocks: [{ type: 'script', src: 'x' }] }))).toBeNull();
		expect(parseTemplate(JSON.stringify({ type: 'doc', blocks: [] }))).toBeNull();
		expect(parseTemplate(null)).toBeNull();
		expect(parseTemplate(JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Hi' }] }] }))).toEqual({
			type: 'doc',
			blocks: [{ type: 'paragraph', children: [{ text: 'Hi' }] }],
		});
	});

	it("reads every board's subjects and template in one query, whatever the number of boards", async () => {
		const { db, statements } = recordingDb();
		await writableBoards(db, 1, true);
		expect(statements).toHaveLength(1);
	});

	it("never offers another community's boards", async () => {
		const boards = await writableBoards(env.DB, 2, true);
		expect(boards.every((board) => board.boardId >= 21 && board.boardId <= 27)).toBe(true);
	});

	it('offers Write on a board page only where the one looking could write', async () => {
		const boards = new Map(
			(await listBoards(env.DB, 1)).map((board) => [board.boardId, { isPublic: board.publicFlag === 'Y', noticeOnly: board.noticeOnly }]),
		);
		const notice = boards.get(BOARDS.notice)!;
		const general = boards.get(BOARDS.general)!;
		expect(notice.noticeOnly).toBe(true);
		expect(general.noticeOnly).toBe(false);
		// A guest: where there is a sign-in and a member could write; never without providers.
		expect(offersWrite(general, true, null)).toBe(true);
		expect(offersWrite(null, true, null)).toBe(true);
		expect(offersWrite(notice, true, null)).toBe(false);
		expect(offersWrite(general, false, null)).toBe(false);
		expect(offersWrite(null, false, null)).toBe(false);
		// A member not on a notice-only board; the administrator everywhere.
		expect(offersWrite(general, true, { admin: false })).toBe(true);
		expect(offersWrite(notice, true, { admin: false })).toBe(false);
		expect(offersWrite(notice, true, { admin: true })).toBe(true);
		expect(offersWrite(boards.get(BOARDS.staff)!, true, { admin: true })).toBe(true);
	});

	it('refuses by one rule what the write screen leaves out and a write is refused for (writeRefusal)', () => {
		const board = (isPublic: boolean, noticeOnly: boolean) => ({ isPublic, noticeOnly });
		expect(writeRefusal(board(true, false), false)).toBeNull();
		expect(writeRefusal(board(false, false), false)).toBe('BoardPrivate');
		expect(writeRefusal(board(false, true), false)).toBe('BoardPrivate');
		expect(writeRefusal(board(true, true), false)).toBe('NoticeOnlyBoard');
		// A member's post already in a notice-only board is edited where it is.
		expect(writeRefusal(board(true, true), false, true)).toBeNull();
		expect(writeRefusal(board(false, false), false, true)).toBe('BoardPrivate');
		for (const [isPublic, noticeOnly] of [
			[true, false],
			[false, false],
			[true, true],
			[false, true],
		] as const) {
			expect(writeRefusal(board(isPublic, noticeOnly), true)).toBeNull();
		}
	});
});
