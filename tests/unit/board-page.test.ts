/**
 * The board page's query (src/server/posts/board-page.ts), which the board page and the edge
 * cache's key for it both read: the board, the category and the page a URL shows.
 */
import { describe, expect, it } from 'vitest';
import { boardListing, planBoardPage, type BoardCatalog } from '@/server/posts/board-page';
import { GUEST, type Viewer } from '@/server/visibility/visibility';
import type { Board } from '@/server/boards/boards';

const board = (boardId: number, publicFlag: 'Y' | 'N', postCount: number): Board => ({
	boardId,
	name: `Board ${boardId}`,
	description: '',
	publicFlag,
	useShared: 'N',
	useSubjects: 'Y',
	noticeOnly: false,
	postCount,
});
const CATALOG: BoardCatalog = {
	boards: [board(1, 'Y', 45), board(2, 'N', 30)],
	subjects: [
		{ subjectId: 11, boardId: 1, name: 'Guides', postCount: 5 },
		{ subjectId: 21, boardId: 2, name: 'Staff', postCount: 3 },
	],
};
const ADMIN: Viewer = { kind: 'member', memberId: 1, admin: true };
const address = (boardId: number | null, subjectId: string | null = null, page: string | null = null) => ({ boardId, subjectId, page });

describe('the board page query', () => {
	it('shows the page asked for, the last one past the end, and page 1 for anything that is no page', () => {
		expect(planBoardPage(CATALOG, address(1, null, '2'), GUEST).page).toBe(2);
		expect(planBoardPage(CATALOG, address(1, null, '9'), GUEST).page).toBe(3);
		expect(planBoardPage(CATALOG, address(1, null, 'x'), GUEST).page).toBe(1);
	});

	it("lists a category of the board by its own count, and shows the whole board for another board's or an unknown category", () => {
		const category = planBoardPage(CATALOG, address(1, '11', '2'), GUEST);
		expect(category.listing?.subject?.subjectId).toBe(11);
		expect(category.page).toBe(1);
		for (const subjectId of ['21', '99', 'x']) {
			const whole = planBoardPage(CATALOG, address(1, subjectId, '2'), GUEST);
			expect(whole.listing).toMatchObject({ subject: null, listedCount: 45 });
			expect(whole.page).toBe(2);
		}
	});

	it('shows a private board without its list, except to administrators, and no board for an unknown id', () => {
		const guest = planBoardPage(CATALOG, address(2, null, '2'), GUEST);
		expect(guest.board?.boardId).toBe(2);
		expect(guest.listing).toBeNull();
		expect(guest.page).toBe(1);
		expect(planBoardPage(CATALOG, address(2, null, '2'), ADMIN).listing?.listedCount).toBe(30);
		expect(planBoardPage(CATALOG, address(3), ADMIN)).toMatchObject({ board: null, subjects: [], listing: null, page: 1 });
		expect(planBoardPage(CATALOG, address(null), ADMIN).board).toBeNull();
	});

	it('refuses, for the API, what the page reads leniently', () => {
		expect(() => boardListing(CATALOG, 3, undefined, ADMIN)).toThrow(expect.objectContaining({ codeName: 'BoardNotFound' }));
		expect(() => boardListing(CATALOG, 2, undefined, GUEST)).toThrow(expect.objectContaining({ codeName: 'BoardPrivate' }));
		expect(() => boardListing(CATALOG, 1, 21, GUEST)).toThrow(expect.objectContaining({ codeName: 'SubjectNotFound' }));
	});
});
