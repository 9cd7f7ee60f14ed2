/**
 * Creating or updating a community from its file (issue 12, `npm run channel -- apply FILE`).
 * `planChannel` compares the file's rows (channel-rows.ts) with the stored ones and says, line by
 * line, what would change, and which changes it refuses; `applyChannel` writes the plan: one
 * batch for the configuration (with the channel's content version, so no cached page outlives
 * it), then, for each board that turns private or public, its posts leave or rejoin "All Posts"
 * and search one at a time (each a batch of at most 3 × 25 list rows and the post's own, as a
 * hide does), so that a board of any size stays within D1's limits. Ids are kept: a board by its
 * key, a category by its id, its key (migration 0021; the plan prints both) or its name; a fixed
 * community id that is not the community's own is refused; the tree's changes are told node by
 * node. A category that posts or drafts use is disabled rather than
 * removed, and a board that has posts or drafts is not removed (the plan refuses). Applying the
 * same file again plans nothing and writes nothing.
 */
import { bumpContentVersion } from '@/server/content-versions/versions';
import { configRows, type BoardRow, type ChannelRow, type ConfigRows, type NodeRow, type SubjectRow } from './channel-rows';
import type { ChannelFile } from './channel-file';
import { planListChange } from '@/server/list-positions/list-positions';
import { postSearchStatements } from '@/server/search-index/search-index';
import { all } from '@/server/platform/db';

interface StoredBoard extends BoardRow {
	/** Posts and drafts on the board: a board with any is never removed. */
	uses: number;
}
interface StoredSubject extends SubjectRow {
	uses: number;
}

/** What is stored of a channel's configuration, or null when the channel does not exist. */
interface StoredChannel {
	rows: Omit<ConfigRows, 'boards' | 'subjects'> & { boards: StoredBoard[]; subjects: StoredSubject[] };
}

/** The highest ids in use, for new rows without a fixed id. */
interface NextIds {
	channel: number;
	board: number;
	subject: number;
	node: number;
}

export interface ChannelPlan {
	/** Whether the channel is new. */
	creates: boolean;
	channelId: number;
	/** What changes, one line each; empty when the file matches the community. */
	changes: string[];
	/** Changes the file asks for that are refused (the plan must not be applied then). */
	refusals: string[];
	statements: { sql: string; params: unknown[] }[];
	/** Boards whose posts move in or out of "All Posts" and search. */
	privacy: { boardId: number; public: boolean }[];
}

const CHANNEL_COLUMNS = [
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
] as const;
const BOARD_COLUMNS = ['key', 'name', 'description', 'is_public', 'use_subjects', 'write_template', 'notice_only'] as const;
const JSON_COLUMNS = new Set(['header_config', 'footer_config', 'banner', 'write_template', 'new_member_limits']);

/** A JSON column's value with its keys sorted, so that two spellings of one value compare equal. */
function canonical(value: unknown): string {
	const sort = (item: unknown): unknown =>
		Array.isArray(item)
			? item.map(sort)
			: item && typeof item === 'object'
				? Object.fromEntries(
						Object.entries(item)
							.sort(([a], [b]) => (a < b ? -1 : 1))
							.map(([k, v]) => [k, sort(v)]),
					)
				: item;
	return JSON.stringify(sort(value));
}

function same(column: string, a: unknown, b: unknown): boolean {
	if (JSON_COLUMNS.has(column) && typeof a === 'string' && typeof b === 'string') {
		try {
			return canonical(JSON.parse(a)) === canonical(JSON.parse(b));
		} catch {
			return a === b;
		}
	}
	return a === b;
}

const shown = (value: unknown) =>
	value === null ? 'null' : typeof value === 'string' && value.length > 60 ? `${JSON.stringify(value.slice(0, 57))}…` : JSON.stringify(value);

/** The stored configuration of `domain/slug`, with what uses each board and category. */
async function readStoredChannel(db: D1Database, domain: string, slug: string): Promise<StoredChannel | null> {
	const channel = await db
		.prepare(`SELECT id, ${CHANNEL_COLUMNS.join(', ')} FROM channels WHERE domain = ?1 AND slug = ?2`)
		.bind(domain, slug)
		.first<ChannelRow>();
	if (!channel) return null;
	const [providers, boards, subjects, nodes] = await Promise.all([
		all<{ provider: string }>(db.prepare('SELECT provider FROM channel_providers WHERE channel_id = ?1 ORDER BY sort_order').bind(channel.id)),
		all<StoredBoard>(
			db
				.prepare(
					`SELECT b.id, ${BOARD_COLUMNS.map((column) => `b.${column}`).join(', ')},
						(SELECT count(*) FROM posts p WHERE p.board_id = b.id) + (SELECT count(*) FROM drafts d WHERE d.board_id = b.id) AS uses
					 FROM boards b WHERE b.channel_id = ?1 ORDER BY b.id`,
				)
				.bind(channel.id),
		),
		all<StoredSubject>(
			db
				.prepare(
					`SELECT s.id, coalesce(s.key, 'category-' || s.id) AS key, s.board_id, s.name, s.sort_order, s.enabled,
						(SELECT count(*) FROM posts p WHERE p.subject_id = s.id) + (SELECT count(*) FROM drafts d WHERE d.subject_id = s.id) AS uses
					 FROM board_subjects s WHERE s.channel_id = ?1 ORDER BY s.board_id, s.sort_order, s.id`,
				)
				.bind(channel.id),
		),
		all<NodeRow>(
			db
				.prepare(
					'SELECT id, parent_id, sort_order, text, type, board_id, public_flag, url, use_collapsed FROM board_tree_nodes WHERE channel_id = ?1 ORDER BY sort_order, id',
				)
				.bind(channel.id),
		),
	]);
	return { rows: { channel, providers: providers.map((row) => row.provider), boards, subjects, nodes } };
}

async function nextIds(db: D1Database): Promise<NextIds> {
	const row = await db
		.prepare(
			`SELECT (SELECT coalesce(max(id), 0) FROM channels) AS channel, (SELECT coalesce(max(id), 0) FROM boards) AS board,
				(SELECT coalesce(max(id), 0) FROM board_subjects) AS subject, (SELECT coalesce(max(id), 0) FROM board_tree_nodes) AS node`,
		)
		.first<NextIds>();
	return row ?? { channel: 0, board: 0, subject: 0, node: 0 };
}

/** A tree as comparable text: everything but the nodes' own ids. */
function treeShape(nodes: NodeRow[]): string {
	const position = new Map(nodes.map((node, index) => [node.id, index]));
	return JSON.stringify(
		nodes.map((node) => [
			node.parent_id === null ? null : position.get(node.parent_id),
			node.text,
			node.type,
			node.board_id,
			node.public_flag,
			node.url,
			node.use_collapsed,
		]),
	);
}

/** How the plan names a category: its key and id, either of which a file can use to name it again. */
const categoryIds = (subject: Pick<SubjectRow, 'id' | 'key'>) => `key ${subject.key}, id ${subject.id}`;

const NODE_FIELDS = [
	['text', 'text'],
	['url', 'url'],
	['public_flag', 'public'],
	['use_collapsed', 'collapsed'],
] as const;

/**
 * What changed in the board tree, node by node: a node is itself across applies by what it stands
 * for (its board, its link, a category's or All Posts' place by type and text), so the plan says
 * "node "Guides" collapsed false → true" or "+ node LINK "Wiki"" rather than a count of nodes.
 */
function treeChanges(before: NodeRow[], after: NodeRow[], boardName: (id: number) => string): string[] {
	const label = (node: NodeRow) =>
		node.type === 'BOARD' ? `board ${boardName(node.board_id ?? 0)}` : node.type === 'DIVIDER' ? 'divider' : `${node.type} "${node.text}"`;
	// Who a node is: its board or link; a category, All Posts and a divider by type and place among their kind.
	const identities = (nodes: NodeRow[]) => {
		const seen = new Map<string, number>();
		return nodes.map((node) => {
			const base =
				node.type === 'BOARD' ? `B${node.board_id}` : node.type === 'LINK' ? `L${node.url}` : node.type === 'CATEGORY' ? `C${node.text}` : node.type;
			const count = (seen.get(base) ?? 0) + 1;
			seen.set(base, count);
			return `${base}#${count}`;
		});
	};
	const beforeIds = identities(before);
	const afterIds = identities(after);
	const parentOf = (nodes: NodeRow[], ids: string[], node: NodeRow) =>
		node.parent_id === null ? null : (ids[nodes.findIndex((other) => other.id === node.parent_id)] ?? null);
	const parentLabel = (nodes: NodeRow[], node: NodeRow) => {
		const parent = nodes.find((other) => other.id === node.parent_id);
		return parent ? `under ${label(parent)}` : 'at the top';
	};
	const value = (field: (typeof NODE_FIELDS)[number][0], node: NodeRow) =>
		field === 'public_flag' || field === 'use_collapsed' ? node[field] === 1 : node[field];
	const lines: string[] = [];
	before.forEach((node, index) => {
		if (!afterIds.includes(beforeIds[index]!)) lines.push(`- board tree: node ${label(node)} ${parentLabel(before, node)}`);
	});
	after.forEach((node, index) => {
		const at = beforeIds.indexOf(afterIds[index]!);
		if (at < 0) {
			lines.push(`+ board tree: node ${label(node)} ${parentLabel(after, node)}`);
			return;
		}
		const old = before[at]!;
		for (const [field, name] of NODE_FIELDS) {
			if (old[field] !== node[field])
				lines.push(`~ board tree: node ${label(old)} ${name} ${shown(value(field, old))} → ${shown(value(field, node))}`);
		}
		if (parentOf(before, beforeIds, old) !== parentOf(after, afterIds, node))
			lines.push(`~ board tree: node ${label(node)} moved ${parentLabel(after, node)}`);
	});
	// Only the order changed (or a node moved within its parent).
	const order = (ids: string[]) => ids.filter((id) => beforeIds.includes(id) && afterIds.includes(id)).join(' ');
	if (order(beforeIds) !== order(afterIds)) lines.push(`~ board tree: order ${after.map(label).join(', ')}`);
	return lines.length > 0 ? lines : [`~ board tree: ${before.length} nodes rewritten`];
}

/** What applying `file` would change, given the stored channel (`stored`, null for a new one). */
export async function planChannel(db: D1Database, file: ChannelFile, now = Date.now()): Promise<ChannelPlan> {
	const stored = await readStoredChannel(db, file.domain, file.slug);
	const next = await nextIds(db);
	const current = stored?.rows;
	const taken = { board: new Set(current?.boards.map((board) => board.id)), subject: new Set(current?.subjects.map((subject) => subject.id)) };
	const fresh = (kind: 'board' | 'subject' | 'node', fixed: number | undefined) => fixed ?? (next[kind] += 1);
	const channelId = current?.channel.id ?? file.id ?? next.channel + 1;
	const treeIds = new Map<number, number>();
	const wanted = configRows(file, {
		channel: channelId,
		// A board by its key; a board made before keys (`board-{id}`) by the fixed id the file gives it.
		board: (board) =>
			current?.boards.find((row) => row.key === board.key)?.id ??
			current?.boards.find((row) => row.id === board.id && !file.boards.some((other) => other.key === row.key))?.id ??
			fresh('board', board.id),
		subject: (board, boardId, index) => {
			const category = board.categories[index];
			const mine = current?.subjects.filter((row) => row.board_id === boardId) ?? [];
			const claimed = (row: SubjectRow) => board.categories.some((other) => other !== category && (other.id === row.id || other.key === row.key));
			const match =
				mine.find((row) => category?.id !== undefined && row.id === category.id) ??
				mine.find((row) => category?.key !== undefined && row.key === category.key) ??
				mine.find((row) => row.name === category?.name && !claimed(row));
			return match?.id ?? fresh('subject', category?.id);
		},
		node: (node, index) => {
			const id = current?.nodes[index]?.id ?? fresh('node', node.id);
			treeIds.set(index, id);
			return id;
		},
	});
	const plan: ChannelPlan = { creates: !current, channelId, changes: [], refusals: [], statements: [], privacy: [] };
	// Fixed ids of new rows must be free.
	if (file.id !== undefined && file.id !== current?.channel.id) {
		const owner = await db.prepare('SELECT domain, slug FROM channels WHERE id = ?1').bind(file.id).first<{ domain: string; slug: string }>();
		// The file's id must be this community's: an id that names another one is a mistake (a copied
		// file), never silently ignored.
		if (current)
			plan.refusals.push(
				`id: ${file.domain}/${file.slug} has the id ${current.channel.id}, not ${file.id}${owner ? ` (${file.id} is ${owner.domain}/${owner.slug}'s id)` : ''}; give its own id or none`,
			);
		else if (owner) plan.refusals.push(`id: ${file.id} is ${owner.domain}/${owner.slug}'s id; give a free id or none`);
	}
	const currentNodes = new Set(current?.nodes.map((node) => node.id));
	const newNodeIds = wanted.nodes.map((node) => node.id).filter((id) => !currentNodes.has(id));
	if (newNodeIds.length > 0) {
		const clash = await db
			.prepare(`SELECT id FROM board_tree_nodes WHERE id IN (${newNodeIds.map(Number).join(', ')}) LIMIT 1`)
			.first<{ id: number }>();
		if (clash) plan.refusals.push(`tree: the node id ${clash.id} belongs to another community's tree`);
	}
	const run = (sql: string, ...params: unknown[]) => plan.statements.push({ sql, params });
	const boardName = (id: number) =>
		wanted.boards.find((board) => board.id === id)?.key ?? current?.boards.find((board) => board.id === id)?.key ?? String(id);

	// The channel row.
	if (!current) {
		plan.changes.push(`+ community ${file.domain}/${file.slug} (id ${channelId})`);
		const columns = ['id', ...CHANNEL_COLUMNS, 'created_at'] as const;
		const values = { ...wanted.channel, created_at: now } as Record<string, unknown>;
		run(
			`INSERT INTO channels (${columns.join(', ')}) VALUES (${columns.map((_, i) => `?${i + 1}`).join(', ')})`,
			...columns.map((column) => values[column]),
		);
	} else {
		const changed = CHANNEL_COLUMNS.filter((column) => !same(column, current.channel[column], wanted.channel[column]));
		for (const column of changed) plan.changes.push(`~ ${column}: ${shown(current.channel[column])} → ${shown(wanted.channel[column])}`);
		if (changed.length > 0)
			run(
				`UPDATE channels SET ${changed.map((column, i) => `${column} = ?${i + 2}`).join(', ')} WHERE id = ?1`,
				channelId,
				...changed.map((column) => wanted.channel[column]),
			);
	}

	// Providers, in order.
	if ((current?.providers ?? []).join(',') !== wanted.providers.join(',')) {
		plan.changes.push(`~ providers: [${(current?.providers ?? []).join(', ')}] → [${wanted.providers.join(', ')}]`);
		run('DELETE FROM channel_providers WHERE channel_id = ?1', channelId);
		wanted.providers.forEach((provider, index) =>
			run('INSERT INTO channel_providers (channel_id, provider, sort_order) VALUES (?1, ?2, ?3)', channelId, provider, index + 1),
		);
	}

	// The tree goes first when it changes: its nodes refer to boards that may go.
	const treeChanged = treeShape(current?.nodes ?? []) !== treeShape(wanted.nodes);
	if (treeChanged) {
		plan.changes.push(...treeChanges(current?.nodes ?? [], wanted.nodes, boardName));
		run('DELETE FROM board_tree_nodes WHERE channel_id = ?1', channelId);
	}

	// Boards.
	for (const board of wanted.boards) {
		const before = current?.boards.find((row) => row.id === board.id);
		if (!before) {
			if (taken.board.has(board.id) || (await db.prepare('SELECT 1 FROM boards WHERE id = ?1').bind(board.id).first())) {
				plan.refusals.push(`boards "${board.key}": the id ${board.id} belongs to another board`);
				continue;
			}
			plan.changes.push(`+ board ${board.key} "${board.name}"${board.is_public ? '' : ' (private)'}`);
			run(
				`INSERT INTO boards (id, channel_id, ${BOARD_COLUMNS.join(', ')}, created_at) VALUES (?1, ?2, ${BOARD_COLUMNS.map((_, i) => `?${i + 3}`).join(', ')}, ?${BOARD_COLUMNS.length + 3})`,
				board.id,
				channelId,
				...BOARD_COLUMNS.map((column) => board[column]),
				now,
			);
			continue;
		}
		const changed = BOARD_COLUMNS.filter((column) => !same(column, before[column], board[column]));
		for (const column of changed) plan.changes.push(`~ board ${board.key}: ${column} ${shown(before[column])} → ${shown(board[column])}`);
		if (changed.length > 0)
			run(
				`UPDATE boards SET ${changed.map((column, i) => `${column} = ?${i + 2}`).join(', ')} WHERE id = ?1`,
				board.id,
				...changed.map((column) => board[column]),
			);
		if (before.is_public !== board.is_public && before.uses > 0) plan.privacy.push({ boardId: board.id, public: board.is_public === 1 });
	}

	// Categories.
	for (const subject of wanted.subjects) {
		const before = current?.subjects.find((row) => row.id === subject.id);
		if (!before) {
			if (taken.subject.has(subject.id) || (await db.prepare('SELECT 1 FROM board_subjects WHERE id = ?1').bind(subject.id).first())) {
				plan.refusals.push(`board ${boardName(subject.board_id)}: the category id ${subject.id} belongs to another category`);
				continue;
			}
			plan.changes.push(`+ category "${subject.name}" (${categoryIds(subject)}) on board ${boardName(subject.board_id)}`);
			run(
				'INSERT INTO board_subjects (id, channel_id, board_id, name, sort_order, enabled, key) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)',
				subject.id,
				channelId,
				subject.board_id,
				subject.name,
				subject.sort_order,
				subject.enabled,
				subject.key,
			);
			continue;
		}
		const changed = (['key', 'name', 'sort_order', 'enabled'] as const).filter((column) => before[column] !== subject[column]);
		for (const column of changed)
			plan.changes.push(
				`~ category "${before.name}" (${categoryIds(before)}) on board ${boardName(subject.board_id)}: ${column} ${shown(before[column])} → ${shown(subject[column])}`,
			);
		if (changed.length > 0)
			run(
				`UPDATE board_subjects SET ${changed.map((column, i) => `${column} = ?${i + 2}`).join(', ')} WHERE id = ?1`,
				subject.id,
				...changed.map((column) => subject[column]),
			);
	}
	for (const subject of current?.subjects ?? []) {
		if (wanted.subjects.some((row) => row.id === subject.id) || !wanted.boards.some((board) => board.id === subject.board_id)) continue;
		if (subject.uses > 0) {
			if (subject.enabled === 1) {
				plan.changes.push(
					`~ category "${subject.name}" (${categoryIds(subject)}) on board ${boardName(subject.board_id)}: disabled (posts or drafts use it)`,
				);
				run('UPDATE board_subjects SET enabled = 0 WHERE id = ?1', subject.id);
			}
		} else {
			plan.changes.push(`- category "${subject.name}" (${categoryIds(subject)}) on board ${boardName(subject.board_id)}`);
			run('DELETE FROM board_subjects WHERE id = ?1', subject.id);
		}
	}

	// Boards the file no longer has.
	for (const board of current?.boards ?? []) {
		if (wanted.boards.some((row) => row.id === board.id)) continue;
		if (board.uses > 0) {
			plan.refusals.push(
				`board ${board.key} "${board.name}" has posts or drafts and cannot be removed; keep it in the file (make it private with "public": false to hide it)`,
			);
			continue;
		}
		plan.changes.push(`- board ${board.key} "${board.name}"`);
		run('DELETE FROM board_subjects WHERE board_id = ?1', board.id);
		run('DELETE FROM boards WHERE id = ?1', board.id);
	}

	if (treeChanged) {
		for (const node of wanted.nodes) {
			run(
				`INSERT INTO board_tree_nodes (id, channel_id, parent_id, sort_order, text, type, board_id, public_flag, use_shared, url, use_collapsed)
				 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, ?9, ?10)`,
				node.id,
				channelId,
				node.parent_id,
				node.sort_order,
				node.text,
				node.type,
				node.board_id,
				node.public_flag,
				node.url,
				node.use_collapsed,
			);
		}
	}
	if (plan.statements.length > 0 && current) run(bumpContentVersionSql, channelId);
	return plan;
}

const bumpContentVersionSql = 'UPDATE channels SET content_version = content_version + 1 WHERE id = ?1';

interface BoardPost {
	id: number;
	subject_id: number | null;
	is_notice: number;
	is_private: number;
	hidden_by_admin: number;
	board_pos: number | null;
	subject_pos: number | null;
	channel_pos: number | null;
	title: string;
	content_text: string;
}

/**
 * A board's visible posts join "All Posts" and search (`toPublic`) or leave them, one post per
 * batch: the post's list rows (at most 25 gap nodes for "All Posts") and search entry. Returns
 * how many posts moved.
 */
async function moveBoardPosts(db: D1Database, channelId: number, boardId: number, toPublic: boolean): Promise<number> {
	const posts = await all<BoardPost>(
		db
			.prepare(
				`SELECT id, subject_id, is_notice, is_private, hidden_by_admin, board_pos, subject_pos, channel_pos, title, content_text
				 FROM posts WHERE board_id = ?1 AND channel_id = ?2 AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 ORDER BY id`,
			)
			.bind(boardId, channelId),
	);
	for (const post of posts) {
		const placement = (boardPublic: boolean) => ({ boardId, subjectId: post.subject_id, boardPublic, isNotice: post.is_notice === 1, visible: true });
		const plan = planListChange(
			db,
			channelId,
			{ placement: placement(!toPublic), positions: { boardPos: post.board_pos, subjectPos: post.subject_pos, channelPos: post.channel_pos } },
			placement(toPublic),
		);
		const columns = Object.entries(plan.columns).map(([column, expression]) => `${column} = ${expression}`);
		await db.batch([
			...plan.statements,
			...(columns.length > 0 ? [db.prepare(`UPDATE posts SET ${columns.join(', ')}, version = version + 1 WHERE id = ?1`).bind(post.id)] : []),
			...postSearchStatements(db, channelId, post.id, toPublic ? { title: post.title, body: post.content_text } : null),
		]);
	}
	return posts.length;
}

/**
 * Writes a plan: the configuration in one batch, then each board's posts that change sides.
 * @throws Error when the plan has refusals
 */
export async function applyChannel(db: D1Database, plan: ChannelPlan): Promise<{ moved: number }> {
	if (plan.refusals.length > 0) throw new Error(`The plan has refusals: ${plan.refusals.join('; ')}`);
	if (plan.statements.length > 0) await db.batch(plan.statements.map((statement) => db.prepare(statement.sql).bind(...statement.params)));
	let moved = 0;
	for (const change of plan.privacy) moved += await moveBoardPosts(db, plan.channelId, change.boardId, change.public);
	if (plan.privacy.length > 0) await db.batch([bumpContentVersion(db, plan.channelId)]);
	return { moved };
}
