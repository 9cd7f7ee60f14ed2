/** Boards of a channel: the list, one board, the sidebar tree and the subjects (categories). */
import { all, yn } from '@/server/platform/db';
import { isSafeLink } from '@/lib/safe-url';

interface BoardRow {
	id: number;
	name: string;
	description: string;
	is_public: number;
	use_shared: number;
	use_subjects: number;
	notice_only: number;
	listed_count: number;
}

export interface Board {
	boardId: number;
	name: string;
	description: string;
	publicFlag: 'Y' | 'N';
	useShared: 'Y' | 'N';
	useSubjects: 'Y' | 'N';
	/** Announcements: only administrators write here. */
	noticeOnly: boolean;
	postCount: number;
}

function toBoard(row: BoardRow): Board {
	return {
		boardId: row.id,
		name: row.name,
		description: row.description,
		publicFlag: yn(row.is_public),
		useShared: yn(row.use_shared),
		useSubjects: yn(row.use_subjects),
		noticeOnly: row.notice_only === 1,
		postCount: row.listed_count,
	};
}

const BOARD_COLUMNS = 'id, name, description, is_public, use_shared, use_subjects, notice_only, listed_count';

export async function listBoards(db: Db, channelId: number): Promise<Board[]> {
	const rows = await all<BoardRow>(db.prepare(`SELECT ${BOARD_COLUMNS} FROM boards WHERE channel_id = ?1 ORDER BY id`).bind(channelId));
	return rows.map(toBoard);
}

type TreeNodeType = 'ALL' | 'CATEGORY' | 'BOARD' | 'LINK' | 'DIVIDER';

/** A node in the jsTree-like shape docs/reference/product-rules.md#data names: parent is '#' at the root. */
export interface TreeNode {
	id: string;
	parent: string;
	text: string;
	data: {
		type: TreeNodeType;
		boardId: number | null;
		publicFlag: 'Y' | 'N';
		useShared: 'Y' | 'N';
		url: string | null;
		useCollapsed: 'Y' | 'N';
	};
}

/**
 * The categories that hold board `boardId` at any depth: the tree opens them, whatever their
 * useCollapsed, so that the board being read shows where it sits (a reader of a board in a collapsed
 * category otherwise sees neither the board nor that it is the current one).
 */
export function categoriesHolding(nodes: readonly TreeNode[], boardId: number | null): Set<string> {
	const held = new Set<string>();
	if (boardId === null) return held;
	const byId = new Map(nodes.map((node) => [node.id, node]));
	for (const node of nodes) {
		if (node.data.type !== 'BOARD' || node.data.boardId !== boardId) continue;
		// Up to the root; a parent met twice (a cycle in a hand-made tree) ends the walk.
		for (let parent = byId.get(node.parent); parent && !held.has(parent.id); parent = byId.get(parent.parent)) {
			if (parent.data.type === 'CATEGORY') held.add(parent.id);
			else break;
		}
	}
	return held;
}

interface TreeRow {
	id: number;
	parent_id: number | null;
	text: string;
	type: TreeNodeType;
	board_id: number | null;
	public_flag: number;
	use_shared: number;
	url: string | null;
	use_collapsed: number;
}

export async function boardTree(db: Db, channelId: number): Promise<TreeNode[]> {
	const rows = await all<TreeRow>(
		db
			.prepare(
				`SELECT id, parent_id, text, type, board_id, public_flag, use_shared, url, use_collapsed
				 FROM board_tree_nodes WHERE channel_id = ?1 ORDER BY sort_order`,
			)
			.bind(channelId),
	);
	return rows.map((row) => ({
		id: String(row.id),
		parent: row.parent_id === null ? '#' : String(row.parent_id),
		text: row.text,
		data: {
			type: row.type,
			boardId: row.board_id,
			publicFlag: yn(row.public_flag),
			useShared: yn(row.use_shared),
			// A link of the tree follows the URL rule of post bodies; one that breaks it is shown as none.
			url: row.url !== null && isSafeLink(row.url) ? row.url : null,
			useCollapsed: yn(row.use_collapsed),
		},
	}));
}

export interface BoardSubject {
	subjectId: number;
	boardId: number;
	name: string;
	postCount: number;
}

/** Enabled subjects of the channel's boards, in display order. */
export async function listSubjects(db: Db, channelId: number): Promise<BoardSubject[]> {
	const rows = await all<{ id: number; board_id: number; name: string; listed_count: number }>(
		db
			.prepare(
				`SELECT id, board_id, name, listed_count FROM board_subjects
				 WHERE channel_id = ?1 AND enabled = 1 ORDER BY board_id, sort_order`,
			)
			.bind(channelId),
	);
	return rows.map((row) => ({ subjectId: row.id, boardId: row.board_id, name: row.name, postCount: row.listed_count }));
}
