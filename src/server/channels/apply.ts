/**
 * Creating or updating a community from its file (`npm run channel -- apply FILE`).
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
import { CHANNEL_COLUMNS, configRows, type SubjectRow } from './channel-rows';
import type { ChannelFile } from './channel-file';
import { planListChange } from '@/server/list-positions/list-positions';
import { postSearchStatements } from '@/server/search-index/search-index';
import { all } from '@/server/platform/db';
import { BOARD_COLUMNS, nextIds, readStoredChannel } from './stored-channel';
import { categoryIds, same, shown, treeChanges, treeShape } from './plan-lines';

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

/**
 * What applying `file` would change, given the stored channel (`stored`, null for a new one), in
 * `db`, the database that holds (or will hold) the community. A community id is the directory's:
 * whose id a file names is asked there (`directory`, the same database in a deployment of one).
 * New boards, categories and tree nodes get ids in the range of `db`'s binding (src/server/databases/ids.ts).
 */
export async function planChannel(db: Db, file: ChannelFile, now = Date.now(), directory: Db = db, binding = 'DB'): Promise<ChannelPlan> {
	const stored = await readStoredChannel(db, file.domain, file.slug);
	const next = await nextIds(db, binding);
	const current = stored?.rows;
	const taken = { board: new Set(current?.boards.map((board) => board.id)), subject: new Set(current?.subjects.map((subject) => subject.id)) };
	const fresh = (kind: 'board' | 'subject' | 'node', fixed: number | undefined) => fixed ?? (next[kind] += 1);
	// A new community's id is the directory's: past every channel it lists, and every one this database holds.
	const channelId = current?.channel.id ?? file.id ?? Math.max(next.channel, directory === db ? 0 : await lastChannelId(directory)) + 1;
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
		const owner = await directory.prepare('SELECT domain, slug FROM channels WHERE id = ?1').bind(file.id).first<{ domain: string; slug: string }>();
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
		// The row names its database in the batch that makes it: its writes' ids come from that range (ids.ts).
		const columns = ['id', ...CHANNEL_COLUMNS, 'database', 'created_at'] as const;
		const values = { ...wanted.channel, database: binding, created_at: now } as Record<string, unknown>;
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

/** The largest channel id in `db` (0 when it has none). */
async function lastChannelId(db: Db): Promise<number> {
	return (await db.prepare('SELECT coalesce(max(id), 0) AS id FROM channels').first<number>('id')) ?? 0;
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
async function moveBoardPosts(db: Db, channelId: number, boardId: number, toPublic: boolean): Promise<number> {
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
export async function applyChannel(db: Db, plan: ChannelPlan): Promise<{ moved: number }> {
	if (plan.refusals.length > 0) throw new Error(`The plan has refusals: ${plan.refusals.join('; ')}`);
	if (plan.statements.length > 0) await db.batch(plan.statements.map((statement) => db.prepare(statement.sql).bind(...statement.params)));
	let moved = 0;
	for (const change of plan.privacy) moved += await moveBoardPosts(db, plan.channelId, change.boardId, change.public);
	if (plan.privacy.length > 0) await db.batch([bumpContentVersion(db, plan.channelId)]);
	return { moved };
}
