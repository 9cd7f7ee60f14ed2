/**
 * The rows part of the comment bench (`npm run bench`, docs/reference/notifications.md#cost): writes a comment
 * through the comments service on the bench's local D1, without a mention and with one, and then
 * delivers its notification message through the consumer (src/server/notifications/deliver.ts), and
 * reports what D1 says each cost. The request is what the member waits for; the consumer's rows are
 * written after, from the queue. With --routes, also the newer routes' rows (scripts/operator/bench-routes.ts),
 * in the same process (one start of the local runtime). Prints one JSON line. Usage: main(['--persist-to', dir, '--routes']).
 */
import { parseArgs } from 'node:util';
import { createComment } from '@/server/comments/writing';
import { deliver } from '@/server/notifications/deliver';
import type { SessionMember } from '@/server/sign-in/sessions';
import { openDatabase } from './database';
import { metered, type Cost } from './metered';
import { routeCosts } from './bench-routes';

const CHANNEL = 9;

export async function main(argv: string[]): Promise<number> {
	const { values } = parseArgs({ args: argv, options: { 'persist-to': { type: 'string' }, routes: { type: 'boolean', default: false } } });
	const { db, buckets, close } = await openDatabase({ remote: false, persistTo: values['persist-to'], buckets: values.routes ? ['UPLOADS'] : [] });
	try {
		const people = await db
			.prepare("SELECT id, nickname FROM members WHERE channel_id = ?1 AND role = 'MEMBER' AND withdrawn_at IS NULL ORDER BY id DESC LIMIT 2")
			.bind(CHANNEL)
			.all<{ id: number; nickname: string }>();
		const [writer, mentioned] = people.results;
		const postId = await db
			.prepare('SELECT id FROM posts WHERE channel_id = ?1 AND board_seq IS NOT NULL AND member_id <> ?2 ORDER BY id DESC LIMIT 1')
			.bind(CHANNEL, writer?.id ?? 0)
			.first<number>('id');
		if (!writer || !mentioned || !postId) throw new Error('The bench community is empty: run the bench seed first');
		const member: SessionMember = {
			userId: writer.id,
			nickname: writer.nickname,
			role: 'MEMBER',
			provider: 'GOOGLE',
			recentProvider: 'GOOGLE',
			joinedAt: 0,
		};
		const measure = async (content: string) => {
			const request: Cost = { rowsWritten: 0, rowsRead: 0 };
			const { comment } = await createComment(metered(db, request), CHANNEL, member, postId, { content }, Date.now());
			const consumer: Cost = { rowsWritten: 0, rowsRead: 0 };
			await deliver(metered(db, consumer), { type: 'comment', channelId: CHANNEL, commentId: comment.commentId }, Date.now());
			return { request, consumer };
		};
		const plain = await measure('A bench comment');
		const mention = await measure(`@${mentioned.nickname} a bench comment`);
		const routes = values.routes ? await routeCosts(db, buckets['UPLOADS']!) : undefined;
		console.log(JSON.stringify({ plain, mention, routes }));
		return 0;
	} finally {
		await close();
	}
}
