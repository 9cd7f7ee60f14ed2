/**
 * The removal part of `npm run bench`: deletes the oldest, a middle and the newest listed post of
 * the bench's large board through the posts service, on the bench's local D1, and reports what D1
 * says each cost (rows written and read, milliseconds), then what page 1 and page 2,000 read after.
 * Prints one JSON line. Usage: main(['--persist-to', dir]).
 */
import { parseArgs } from 'node:util';
import { deletePost } from '@/server/posts/writing';
import { listBoardPosts } from '@/server/posts/lists';
import type { SessionMember } from '@/server/sign-in/sessions';
import { openDatabase } from './database';
import { metered, type Cost } from './metered';

const BOARD = 91;
const ADMIN: SessionMember = { userId: 900_001, nickname: 'bench', role: 'ADMIN', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 };

export async function main(argv: string[]): Promise<number> {
	const { values } = parseArgs({ args: argv, options: { 'persist-to': { type: 'string' } } });
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
		const pages: Record<string, Cost> = {};
		for (const page of [1, 2000]) {
			const cost = { rowsWritten: 0, rowsRead: 0 };
			await listBoardPosts(metered(db, cost), 9, BOARD, page, listed);
			pages[`page${page}`] = cost;
		}
		console.log(JSON.stringify({ removals, pagesAfter: pages }));
		return 0;
	} finally {
		await close();
	}
}
