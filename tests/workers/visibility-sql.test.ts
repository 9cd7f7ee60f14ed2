/**
 * The visibility rule as SQL (readablePostSql of src/server/visibility/visibility.ts), which the batches
 * of likes and comments check inside their transaction, against the rule in TypeScript
 * (canReadPost): equal for every post state and every reader, evaluated by D1 itself.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { canReadPost, postStateOfRow, readablePostSql, type Viewer } from '@/server/visibility/visibility';

const AUTHOR = 7;
const OTHER = 8;
const readers: [string, Extract<Viewer, { kind: 'member' }>][] = [
	['the author', { kind: 'member', memberId: AUTHOR, admin: false }],
	['another member', { kind: 'member', memberId: OTHER, admin: false }],
	['an administrator', { kind: 'member', memberId: OTHER, admin: true }],
	['the author as administrator', { kind: 'member', memberId: AUTHOR, admin: true }],
];

describe('readablePostSql', () => {
	it('answers what canReadPost answers, for all 16 kinds of post and 4 readers', async () => {
		const cases = [];
		for (const deleted_at of [null, 1_700_000_000_000])
			for (const hidden_by_admin of [0, 1])
				for (const is_private of [0, 1])
					for (const board_public of [0, 1])
						for (const [name, viewer] of readers) cases.push({ row: { deleted_at, hidden_by_admin, is_private, board_public }, name, viewer });
		const statements = cases.map(({ row, viewer }) =>
			env.DB.prepare(
				`SELECT ${readablePostSql('?1', '?2')} AS ok
				 FROM (SELECT ?3 AS deleted_at, ?4 AS hidden_by_admin, ?5 AS is_private, ?6 AS member_id) p, (SELECT ?7 AS is_public) b`,
			).bind(viewer.memberId, viewer.admin ? 1 : 0, row.deleted_at, row.hidden_by_admin, row.is_private, AUTHOR, row.board_public),
		);
		const results = await env.DB.batch<{ ok: number }>(statements);
		const differing = cases.filter(({ row, viewer }, i) => (results[i]!.results[0]!.ok === 1) !== canReadPost(postStateOfRow(row), AUTHOR, viewer));
		expect(differing.map(({ row, name }) => `${JSON.stringify(row)} for ${name}`)).toEqual([]);
		// Not a rule that answers the same for everything: both answers occur.
		expect(new Set(results.map((result) => result.results[0]!.ok))).toEqual(new Set([0, 1]));
	});
});
