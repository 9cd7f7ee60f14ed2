/**
 * How the plan of ./apply.ts compares a value and says what changed: JSON columns compared by
 * value (their keys sorted), values shown short, and the board tree's changes told node by node.
 */
import type { NodeRow, SubjectRow } from './channel-rows';
import { JSON_COLUMNS } from './stored-channel';

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

export function same(column: string, a: unknown, b: unknown): boolean {
	if (JSON_COLUMNS.has(column) && typeof a === 'string' && typeof b === 'string') {
		try {
			return canonical(JSON.parse(a)) === canonical(JSON.parse(b));
		} catch {
			return a === b;
		}
	}
	return a === b;
}

export const shown = (value: unknown) =>
	value === null ? 'null' : typeof value === 'string' && value.length > 60 ? `${JSON.stringify(value.slice(0, 57))}…` : JSON.stringify(value);

/** A tree as comparable text: everything but the nodes' own ids. */
export function treeShape(nodes: NodeRow[]): string {
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
export const categoryIds = (subject: Pick<SubjectRow, 'id' | 'key'>) => `key ${subject.key}, id ${subject.id}`;

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
export function treeChanges(before: NodeRow[], after: NodeRow[], boardName: (id: number) => string): string[] {
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
