/**
 * The rows a channel file (channel-file.ts) stands for: the channel, its providers, boards,
 * categories and board tree, with database ids given by the caller. Both the apply service
 * (apply.ts, which diffs them against the stored rows) and the demo seed (scripts/seed/demo.mjs,
 * which inserts them) build them here, so a demo community is exactly what applying its file
 * makes. No runtime imports: the seed loads this file with Node's own TypeScript support.
 */
import type { BoardEntry, ChannelFile, TreeEntry } from './channel-file';

export interface ChannelRow {
	id: number;
	domain: string;
	slug: string;
	title: string;
	language: string;
	theme_type: 'LIGHT' | 'DARK';
	key_color: string;
	background_color: string;
	pc_header_color: string | null;
	pc_header_image: string | null;
	exposure_type: string;
	exposure_board_id: number | null;
	header_config: string;
	footer_config: string;
	banner: string | null;
	auto_hide_reports: number | null;
	/** The file's `moderation.contact` (migration 0032), NULL when it names none. */
	moderation_contact: string | null;
	/** The file's `newMembers`, as JSON (NULL, the defaults, for a community not applied since migration 0018). */
	new_member_limits: string | null;
}

/**
 * The columns of a channel's row that its file sets, in the order the apply service reads and writes them
 * (stored-channel.ts, apply.ts) and the demo seed inserts them (scripts/seed/demo.mjs): the one list of them.
 */
export const CHANNEL_COLUMNS = [
	'domain',
	'slug',
	'title',
	'language',
	'theme_type',
	'key_color',
	'background_color',
	'pc_header_color',
	'pc_header_image',
	'exposure_type',
	'exposure_board_id',
	'header_config',
	'footer_config',
	'banner',
	'auto_hide_reports',
	'moderation_contact',
	'new_member_limits',
] as const satisfies readonly Exclude<keyof ChannelRow, 'id'>[];

export interface BoardRow {
	id: number;
	key: string;
	name: string;
	description: string;
	is_public: number;
	use_subjects: number;
	write_template: string | null;
	notice_only: number;
}

export interface SubjectRow {
	id: number;
	/** The file's key for the category, `category-{id}` when it gives none (migration 0021). */
	key: string;
	board_id: number;
	name: string;
	sort_order: number;
	enabled: number;
}

export interface NodeRow {
	id: number;
	parent_id: number | null;
	sort_order: number;
	text: string;
	type: string;
	board_id: number | null;
	public_flag: number;
	url: string | null;
	use_collapsed: number;
}

export interface ConfigRows {
	channel: ChannelRow;
	/** In order: the first is offered first. */
	providers: string[];
	boards: BoardRow[];
	subjects: SubjectRow[];
	nodes: NodeRow[];
}

/** How rows get their ids: the channel's, and each board's, category's and tree node's. */
export interface IdSource {
	channel: number;
	board: (board: BoardEntry) => number;
	subject: (board: BoardEntry, boardId: number, index: number) => number;
	/** `index` counts the nodes in the order they are written, children after their category. */
	node: (node: { id?: number | undefined }, index: number) => number;
}

/** The rows of `file`, with ids from `ids`. */
export function configRows(file: ChannelFile, ids: IdSource): ConfigRows {
	const boardIds = new Map<string, number>();
	const boards = file.boards.map((board): BoardRow => {
		const id = ids.board(board);
		boardIds.set(board.key, id);
		return {
			id,
			key: board.key,
			name: board.name,
			description: board.description,
			is_public: board.public ? 1 : 0,
			use_subjects: board.categories.length > 0 ? 1 : 0,
			write_template: board.template === null ? null : JSON.stringify(board.template),
			notice_only: board.noticeOnly ? 1 : 0,
		};
	});
	const boardOf = (key: string) => {
		const id = boardIds.get(key);
		if (id === undefined) throw new Error(`No board "${key}"`);
		return id;
	};
	const subjects = file.boards.flatMap((board) =>
		board.categories.map((category, index): SubjectRow => {
			const id = ids.subject(board, boardOf(board.key), index);
			return {
				id,
				key: category.key ?? `category-${id}`,
				board_id: boardOf(board.key),
				name: category.name,
				sort_order: index + 1,
				enabled: category.enabled ? 1 : 0,
			};
		}),
	);
	const publicOf = new Map(file.boards.map((board) => [board.key, board.public]));
	const nodes: NodeRow[] = [];
	const add = (node: TreeEntry, parent: number | null) => {
		const id = ids.node(node, nodes.length);
		const board = node.type === 'BOARD' ? file.boards.find((candidate) => candidate.key === node.board) : undefined;
		nodes.push({
			id,
			parent_id: parent,
			sort_order: nodes.length + 1,
			text: node.type === 'DIVIDER' ? '' : node.type === 'BOARD' ? (node.text ?? board?.name ?? node.board) : node.text,
			type: node.type,
			board_id: node.type === 'BOARD' ? boardOf(node.board) : null,
			public_flag: node.type === 'BOARD' && publicOf.get(node.board) === false ? 0 : 1,
			url: node.type === 'LINK' ? node.url : null,
			use_collapsed: node.type === 'CATEGORY' && !node.collapsed ? 0 : 1,
		});
		if (node.type === 'CATEGORY') for (const child of node.children) add(child, id);
	};
	for (const node of file.tree) add(node, null);
	const { headerConfig, header } = file;
	return {
		channel: {
			id: ids.channel,
			domain: file.domain,
			slug: file.slug,
			title: header.title,
			language: header.language,
			theme_type: header.themeType,
			key_color: header.keyColor,
			background_color: header.backgroundColor,
			pc_header_color: header.pcHeaderColor,
			pc_header_image: header.pcHeaderImage,
			exposure_type: file.content.exposureType,
			exposure_board_id: file.content.exposureBoard === null ? null : boardOf(file.content.exposureBoard),
			header_config: JSON.stringify({ ...headerConfig, topPinnedTargetBoards: headerConfig.topPinnedTargetBoards.map(boardOf) }),
			footer_config: JSON.stringify(file.footer),
			banner: file.banner === null ? null : JSON.stringify(file.banner),
			auto_hide_reports: file.moderation.autoHideReports,
			moderation_contact: file.moderation.contact,
			new_member_limits: JSON.stringify(file.newMembers),
		},
		providers: file.providers,
		boards,
		subjects,
		nodes,
	};
}
