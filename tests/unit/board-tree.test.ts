/**
 * The board tree opens the categories that hold the board being read (src/server/boards/boards.ts,
 * `categoriesHolding`; docs/reference/product-rules.md#board-tree).
 */
import { describe, expect, it } from 'vitest';
import { categoriesHolding, type TreeNode } from '@/server/boards/boards';

function node(id: string, parent: string, type: TreeNode['data']['type'], boardId: number | null = null): TreeNode {
	return { id, parent, text: id, data: { type, boardId, publicFlag: 'Y', useShared: 'N', url: null, useCollapsed: 'Y' } };
}

const TREE: TreeNode[] = [
	node('all', '#', 'ALL'),
	node('community', '#', 'CATEGORY'),
	node('free', 'community', 'BOARD', 21),
	node('media', '#', 'CATEGORY'),
	node('art', 'media', 'BOARD', 24),
	node('clips', 'media', 'CATEGORY'),
	node('video', 'clips', 'BOARD', 25),
	node('notice', '#', 'BOARD', 20),
];

describe('categoriesHolding', () => {
	it('names the category of a board, and every category above a nested one', () => {
		expect([...categoriesHolding(TREE, 24)]).toEqual(['media']);
		expect([...categoriesHolding(TREE, 25)].toSorted()).toEqual(['clips', 'media']);
	});

	it('names none for a board at the root, a board not in the tree, or no board', () => {
		expect(categoriesHolding(TREE, 20).size).toBe(0);
		expect(categoriesHolding(TREE, 999).size).toBe(0);
		expect(categoriesHolding(TREE, null).size).toBe(0);
	});

	it('ends its walk in a hand-made tree whose categories hold each other', () => {
		const looped = [node('a', 'b', 'CATEGORY'), node('b', 'a', 'CATEGORY'), node('x', 'a', 'BOARD', 7)];
		expect([...categoriesHolding(looped, 7)].toSorted()).toEqual(['a', 'b']);
	});
});
