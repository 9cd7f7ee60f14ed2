/**
 * How many posts a board holds is part of what only its readers may know: the boards API (the
 * list, one board, the categories) gives a private board's count, and its categories' counts, to
 * those who can read it (administrators) and null to everyone else.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, publicApi, signIn } from './harness';

const PUBLIC = publicApi();
const ADMIN = 1001;

interface ShownBoard {
	boardId: number;
	publicFlag: 'Y' | 'N';
	postCount: number | null;
}

async function privateBoard(): Promise<{ id: number; count: number }> {
	const row = await env.DB.prepare('SELECT id, listed_count AS count FROM boards WHERE channel_id = 1 AND is_public = 0 ORDER BY id LIMIT 1').first<{
		id: number;
		count: number;
	}>();
	if (!row) throw new Error('no private board');
	return row;
}

describe('the post count of a private board', () => {
	it('is not told to a guest or a member who cannot read the board, in the list, the board or its categories', async () => {
		const board = await privateBoard();
		expect(board.count).toBeGreaterThan(0);
		// A category of the private board, with posts counted.
		await env.DB.prepare(
			"INSERT INTO board_subjects (channel_id, board_id, name, sort_order, enabled, listed_count) VALUES (1, ?1, 'Staff notes', 99, 1, 3)",
		)
			.bind(board.id)
			.run();
		for (const cookie of [undefined, await signIn(1002)]) {
			const ask = (path: string) => call(`${PUBLIC}${path}`, cookie ? { cookie } : {});
			const boards = (await ask('/boards')).body['content'] as ShownBoard[];
			expect(boards.find((shown) => shown.boardId === board.id)?.postCount).toBeNull();
			// Public boards keep theirs.
			expect(boards.filter((shown) => shown.publicFlag === 'Y').every((shown) => typeof shown.postCount === 'number')).toBe(true);
			expect(((await ask(`/boards/${board.id}`)).body['content'] as ShownBoard).postCount).toBeNull();
			const subjects = (await ask(`/board-subjects?boardId=${board.id}`)).body['boardSubjects'] as { postCount: number | null }[];
			expect(subjects.length).toBeGreaterThan(0);
			expect(subjects.every((subject) => subject.postCount === null)).toBe(true);
			const all = (await ask('/board-subjects')).body['boardSubjects'] as { boardId: number; postCount: number | null }[];
			expect(all.filter((subject) => subject.boardId === board.id).every((subject) => subject.postCount === null)).toBe(true);
			expect(all.filter((subject) => subject.boardId !== board.id).every((subject) => typeof subject.postCount === 'number')).toBe(true);
		}
	});

	it('is told to an administrator, who reads the board', async () => {
		const board = await privateBoard();
		const cookie = await signIn(ADMIN);
		const boards = (await call(`${PUBLIC}/boards`, { cookie })).body['content'] as ShownBoard[];
		expect(boards.find((shown) => shown.boardId === board.id)?.postCount).toBe(board.count);
		expect(((await call(`${PUBLIC}/boards/${board.id}`, { cookie })).body['content'] as ShownBoard).postCount).toBe(board.count);
	});
});
