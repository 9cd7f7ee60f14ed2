/**
 * The removal part of `npm run bench`: deletes the oldest, a middle and the newest listed post of
 * the bench's large board through the posts service, on the bench's local D1, and reports what D1
 * says each cost (rows written and read, milliseconds), then what a board page reads after and how
 * long it takes (--runs times each, p50/p95 of the database's own time and of the whole call through
 * the local runtime): the first page, page 2,000, the last page, and the Popular order's first page
 * and a deep keyset page (after the post 10,000th in that order, or the middle one of a smaller board),
 * and a guest's post page (the post, then its comments: a post of the board's middle with 2 comments).
 * Prints one JSON line. Usage: main(['--persist-to', dir, '--runs', '20']).
 */
import { parseArgs } from 'node:util';
import { deletePost } from '@/server/posts/writing';
import { listBoardPosts } from '@/server/posts/lists';
import { popularPostsRead } from '@/server/posts/popular';
import { run } from '@/server/platform/reads';
import type { SessionMember } from '@/server/sign-in/sessions';
import { PAGE_SIZE } from '@/schemas/params';
import { getPost } from '@/server/posts/detail';
import { listComments } from '@/server/comments/pages';
import { GUEST } from '@/server/visibility/visibility';
import { openDatabase } from './database';
import { metered, percentile, type Cost } from './metered';

const BOARD = 91;
const ADMIN: SessionMember = { userId: 900_001, nickname: 'bench', role: 'ADMIN', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 };

export async function main(argv: string[]): Promise<number> {
	const { values } = parseArgs({ args: argv, options: { 'persist-to': { type: 'string' }, runs: { type: 'string', default: '20' } } });
	const runs = Math.max(1, Number(values.runs));
	const { db, close } = await openDatabase({ remote: false, persistTo: values['persist-to'] });
	try {
		const ids = await db
			.prepare(
				`SELECT (SELECT id FROM posts WHERE board_id = ?1 AND board_seq IS NOT NULL ORDER BY board_seq LIMIT 1) AS oldest,
					(SELECT id FROM posts WHERE board_id = ?1 AND board_seq IS NOT NULL ORDER BY board_seq LIMIT 1 OFFSET (SELECT listed_count / 2 FROM boards WHERE id = ?1)) AS middle,
					(SELECT id FROM posts WHERE board_id = ?1 AND board_seq IS NOT NULL ORDER BY board_seq DESC LIMIT 1) AS newest`,
			)
			.bind(BOARD)
			.first<{ oldest: number; middle: number; newest: number }>();
		if (!ids) throw new Error('The bench board is empty: run the bench seed first');
		const removals: Record<string, Cost & { ms: number; postId: number }> = {};
		for (const [name, postId] of Object.entries(ids)) {
			const cost = { rowsWritten: 0, rowsRead: 0 };
			const started = performance.now();
			await deletePost(metered(db, cost), 9, ADMIN, postId, Date.now());
			removals[name] = { postId, ...cost, ms: Math.round(performance.now() - started) };
		}
		const listed = (await db.prepare('SELECT listed_count FROM boards WHERE id = ?1').bind(BOARD).first<number>('listed_count')) ?? 0;
		// The anchor of the deep Popular page: read through the index, once, outside the measure.
		const deepRank = Math.min(10_000, Math.floor(listed / 2));
		const anchor = await db
			.prepare('SELECT id FROM posts WHERE board_id = ?1 AND channel_id = 9 AND board_seq IS NOT NULL ORDER BY hot DESC, id DESC LIMIT 1 OFFSET ?2')
			.bind(BOARD, deepRank)
			.first<number>('id');
		const lastPage = Math.max(1, Math.ceil(listed / PAGE_SIZE));
		const postId = await db
			.prepare('SELECT id FROM posts WHERE board_id = ?1 AND board_seq > ?2 AND comment_count = 2 ORDER BY board_seq LIMIT 1')
			.bind(BOARD, Math.floor(listed / 2))
			.first<number>('id');
		const reads: Record<string, (measured: Db) => Promise<unknown>> = {
			page1: (measured) => listBoardPosts(measured, 9, BOARD, 1, listed),
			page2000: (measured) => listBoardPosts(measured, 9, BOARD, 2000, listed),
			[`page${lastPage}`]: (measured) => listBoardPosts(measured, 9, BOARD, lastPage, listed),
			popular1: (measured) => run(measured, popularPostsRead(measured, 9, { kind: 'board', boardId: BOARD }, null)),
			[`popularAfter${deepRank}`]: (measured) => run(measured, popularPostsRead(measured, 9, { kind: 'board', boardId: BOARD }, anchor)),
			postWithComments: async (measured) => [await getPost(measured, 9, postId!, GUEST), await listComments(measured, 9, postId!, GUEST, null)],
		};
		const pages: Record<string, Cost & { sqlP50Ms: number; sqlP95Ms: number; callP50Ms: number; callP95Ms: number }> = {};
		for (const [name, read] of Object.entries(reads)) {
			const sql: number[] = [];
			const calls: number[] = [];
			let cost: Cost = { rowsWritten: 0, rowsRead: 0 };
			for (let i = 0; i < runs; i += 1) {
				cost = { rowsWritten: 0, rowsRead: 0, sqlMs: 0 };
				const started = performance.now();
				await read(metered(db, cost));
				calls.push(performance.now() - started);
				sql.push(cost.sqlMs ?? 0);
			}
			const { sqlMs: _sqlMs, ...rows } = cost;
			pages[name] = {
				...rows,
				sqlP50Ms: percentile(sql, 50),
				sqlP95Ms: percentile(sql, 95),
				callP50Ms: percentile(calls, 50),
				callP95Ms: percentile(calls, 95),
			};
		}
		console.log(JSON.stringify({ removals, pagesAfter: pages }));
		return 0;
	} finally {
		await close();
	}
}
