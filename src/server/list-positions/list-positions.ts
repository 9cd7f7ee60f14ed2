/**
 * Where a post stands in the lists it belongs to, without ever renumbering (migrations/0004).
 *
 * Each list (a board's, a category's, the channel's "All Posts") gives a post a position when it
 * joins: one more than the list's top. Positions are never reused. A post that leaves keeps its
 * position for its return and leaves a gap, counted in a Fenwick tree (binary indexed tree) of
 * gaps per list, list_gaps. So:
 * - leaving or returning writes the post row, the list's counter and at most FENWICK_DEPTH gap
 *   nodes per list (a removal from all three lists: at most 3 × 25 + a handful of rows, whatever
 *   the post's age or the list's size);
 * - page N of a list finds the position of its newest post by one descent of FENWICK_DEPTH nodes,
 *   inside the page's own query, and then reads exactly the rows it shows.
 */

export type PostListKind = 'board' | 'subject' | 'channel';

/** Positions per list: 2^24 (16.7 million posts in one board, category or "All Posts"). */
export const LIST_CAPACITY = 2 ** 24;
/** Nodes on a Fenwick path: log2(LIST_CAPACITY) + 1. */
export const FENWICK_DEPTH = 25;

const KIND_CODE: Record<PostListKind, number> = { board: 1, subject: 2, channel: 3 };

/** The table, counter columns and post columns of each kind of list. */
const LISTS = {
	board: { table: 'boards', seq: 'board_seq', pos: 'board_pos' },
	subject: { table: 'board_subjects', seq: 'subject_seq', pos: 'subject_pos' },
	channel: { table: 'channels', seq: 'channel_seq', pos: 'channel_pos' },
} as const satisfies Record<PostListKind, { table: string; seq: string; pos: string }>;

/** The Fenwick nodes whose count covers `position`: the path from it up to the root. */
export function fenwickPath(position: number): number[] {
	if (!Number.isSafeInteger(position) || position < 1 || position > LIST_CAPACITY) throw new RangeError(`No list position ${position}`);
	const nodes: number[] = [];
	for (let node = position; node <= LIST_CAPACITY; node += node & -node) nodes.push(node);
	return nodes;
}

/** What decides a post's lists: its place and whether readers see it listed. */
export interface ListPlacement {
	boardId: number;
	subjectId: number | null;
	boardPublic: boolean;
	isNotice: boolean;
	/** Not deleted, not hidden by an administrator, not private. */
	visible: boolean;
}

/** The post's current positions (null where it has none), needed to leave or return. */
export interface ListPositions {
	boardPos: number | null;
	subjectPos: number | null;
	channelPos: number | null;
}

/** The list of each kind a post with this placement is in, or null for none. */
function listsOf(channelId: number, placement: ListPlacement | null): Record<PostListKind, number | null> {
	const listed = placement !== null && placement.visible;
	return {
		// A notice is pinned above its board's pages instead of taking a place in its lists.
		board: listed && !placement.isNotice ? placement.boardId : null,
		subject: listed && !placement.isNotice ? placement.subjectId : null,
		channel: listed && placement.boardPublic ? channelId : null,
	};
}

/** The list each kind of position belongs to (the post's board, category, channel). */
function ownerOf(kind: PostListKind, channelId: number, placement: ListPlacement | null): number | null {
	if (!placement) return null;
	return kind === 'board' ? placement.boardId : kind === 'subject' ? placement.subjectId : channelId;
}

const POSITION_KEY: Record<PostListKind, keyof ListPositions> = { board: 'boardPos', subject: 'subjectPos', channel: 'channelPos' };

/**
 * A change to a post's lists: statements to run before the post row is written (counters, gaps),
 * and the assignments of its list columns for that write. Expressions use only integers this
 * module checked, so they are safe to put into SQL.
 */
export interface ListPlan {
	statements: D1PreparedStatement[];
	/** Column → SQL expression, for the post's INSERT or UPDATE. */
	columns: Record<string, string>;
}

function id(value: number): string {
	if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Not an id: ${value}`);
	return String(value);
}

/**
 * A condition every statement of a plan runs under (an SQL expression over its own parameters, ?1,
 * ?2…), for a write that may turn out to change nothing: each statement then changes nothing too.
 */
export interface PlanCondition {
	sql: string;
	values: readonly unknown[];
}

/** `where` (over `values`) and the condition, its parameters numbered after them. */
function conditioned(where: string, values: readonly unknown[], condition: PlanCondition | undefined): [sql: string, values: unknown[]] {
	if (!condition) return [where, [...values]];
	const shifted = condition.sql.replace(/\?(\d+)/g, (_, n: string) => `?${Number(n) + values.length}`);
	return [`${where} AND (${shifted})`, [...values, ...condition.values]];
}

/** Changes a list's counters (`set`, SQL assignments) where `condition` holds. */
function counterStatement(db: Db, table: string, set: string, listId: number, condition: PlanCondition | undefined): D1PreparedStatement {
	const [where, values] = conditioned('id = ?1', [listId], condition);
	return db.prepare(`UPDATE ${table} SET ${set} WHERE ${where}`).bind(...values);
}

/** Adds `delta` gaps at `position` of a list: one statement over the position's Fenwick path. */
function gapStatement(
	db: Db,
	kind: PostListKind,
	listId: number,
	position: number,
	delta: 1 | -1,
	condition: PlanCondition | undefined,
): D1PreparedStatement {
	const [where, values] = conditioned('true', [KIND_CODE[kind], listId, delta, JSON.stringify(fenwickPath(position))], condition);
	return db
		.prepare(
			`INSERT INTO list_gaps (kind, list_id, node, removed) SELECT ?1, ?2, value, ?3 FROM json_each(?4) WHERE ${where}
			 ON CONFLICT (kind, list_id, node) DO UPDATE SET removed = removed + excluded.removed`,
		)
		.bind(...values);
}

/**
 * How a post's lists change from `before` (null: a new post) to `after`. A post leaving a list
 * leaves a gap; returning to the same list fills it again; joining a list it has no position in
 * (new, moved to another board or category, or never listed) takes a new top position. With
 * `condition`, each statement changes nothing unless it holds.
 */
export function planListChange(
	db: Db,
	channelId: number,
	before: { placement: ListPlacement; positions: ListPositions } | null,
	after: ListPlacement,
	condition?: PlanCondition,
): ListPlan {
	const plan: ListPlan = { statements: [], columns: {} };
	const wasIn = listsOf(channelId, before?.placement ?? null);
	const isIn = listsOf(channelId, after);
	for (const kind of ['board', 'subject', 'channel'] as const) {
		const { table, seq, pos } = LISTS[kind];
		const from = wasIn[kind];
		const to = isIn[kind];
		if (from !== null && from === to) continue;
		const position = before?.positions[POSITION_KEY[kind]] ?? null;
		// A kept position belongs to the list the post was in when it got it.
		const ownPosition = position !== null && ownerOf(kind, channelId, before?.placement ?? null) === to ? position : null;
		if (from !== null && position !== null) {
			plan.statements.push(
				counterStatement(db, table, 'listed_count = listed_count - 1', from, condition),
				gapStatement(db, kind, from, position, 1, condition),
			);
			plan.columns[seq] = 'NULL';
		}
		if (to !== null) {
			if (ownPosition !== null) {
				plan.statements.push(
					counterStatement(db, table, 'listed_count = listed_count + 1', to, condition),
					gapStatement(db, kind, to, ownPosition, -1, condition),
				);
				plan.columns[seq] = String(ownPosition);
			} else {
				plan.statements.push(counterStatement(db, table, 'list_top = list_top + 1, listed_count = listed_count + 1', to, condition));
				const top = `(SELECT list_top FROM ${table} WHERE id = ${id(to)})`;
				plan.columns[seq] = top;
				plan.columns[pos] = top;
			}
		} else if (position !== null && ownerOf(kind, channelId, after) !== ownerOf(kind, channelId, before?.placement ?? null)) {
			// Moved while out of the list: the old list's position means nothing in the new one.
			plan.columns[pos] = 'NULL';
		}
	}
	return plan;
}

/**
 * SQL for the position of the `rank`-th listed post of a list (1 = the oldest), as a scalar
 * subquery: a Fenwick descent of FENWICK_DEPTH steps. `listParam` and `rankParam` name the bound
 * parameters (such as `?1`) that hold the list's id and the rank.
 */
export function rankPositionSql(kind: PostListKind, listParam: string, rankParam: string): string {
	return `(
	WITH RECURSIVE descent(bit, pos, rest) AS (
		SELECT ${LIST_CAPACITY}, 0, ${rankParam}
		UNION ALL
		SELECT d.bit / 2,
			CASE WHEN d.bit - coalesce(g.removed, 0) < d.rest THEN d.pos + d.bit ELSE d.pos END,
			CASE WHEN d.bit - coalesce(g.removed, 0) < d.rest THEN d.rest - d.bit + coalesce(g.removed, 0) ELSE d.rest END
		FROM descent d LEFT JOIN list_gaps g ON g.kind = ${KIND_CODE[kind]} AND g.list_id = ${listParam} AND g.node = d.pos + d.bit
		WHERE d.bit >= 1
	)
	SELECT pos + 1 FROM descent WHERE bit = 0
)`;
}
