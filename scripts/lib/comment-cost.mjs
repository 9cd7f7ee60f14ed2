/**
 * What a comment costs the server, for `npm run bench` (docs/reference/notifications.md#cost): the server's
 * CPU milliseconds per comment (POST …/comments on the bench's large community, 4 at a time, each
 * member and address its own), with the notifications queue and its consumer as deployed, and
 * without them (the same build under a configuration with no queue: the write sends no message,
 * as a deployment without notifications does). With the queue, the CPU is taken once the consumer has written every
 * notification, so it includes the consumer's work. Half the comments mention another member.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serveBuild, waitFor } from './server.mjs';
import { memberSessions } from './bench-sessions.mjs';
import { withServerCpu } from './cpu.mjs';

/** The build's configuration without its queues, beside it (paths in it are relative to it). */
export function configWithoutQueues(config) {
	const { queues: _queues, ...rest } = JSON.parse(readFileSync(config, 'utf8'));
	const file = path.join(path.dirname(config), 'wrangler.no-queues.json');
	writeFileSync(file, JSON.stringify(rest));
	return file;
}

const notificationRows = async (/** @type {import('./local-d1.mjs').LocalD1} */ db) =>
	(await db.rows('SELECT count(*) AS n FROM notifications'))[0]?.n ?? 0;

/**
 * Serves the build under `config` for the run, or measures `server`, already serving on `port`
 * (its members' `sessions` written before it opened the database); `db` is the local D1 of `state`
 * (scripts/lib/local-d1.mjs), held open by the caller.
 */
export async function commentCost({ state, db, port, config = undefined, writes, server: running = undefined, sessions: given = undefined }) {
	const origin = `http://127.0.0.1:${port}`;
	const sessions = given ?? (await memberSessions(db, state, 50));
	const nicknames = (
		await db.rows("SELECT nickname FROM members WHERE channel_id = 9 AND role = 'MEMBER' AND withdrawn_at IS NULL ORDER BY id LIMIT 50 OFFSET 50")
	).map((row) => row.nickname);
	const posts = (await db.rows('SELECT id FROM posts WHERE channel_id = 9 AND board_seq IS NOT NULL ORDER BY id DESC LIMIT 1000')).map(
		(row) => row.id,
	);
	const rowsBefore = await notificationRows(db);
	const server = running ?? serveBuild({ port, persistTo: state, stdio: 'ignore', config });
	let address = 0;
	const pick = (list) => list[Math.floor(Math.random() * list.length)];
	async function comment(i) {
		address += 1;
		const mention = i % 2 === 0 && nicknames.length > 0 ? `@${pick(nicknames)} ` : '';
		const response = await fetch(`${origin}/v1/bench/large/posts/${pick(posts)}/comments`, {
			method: 'POST',
			headers: {
				cookie: pick(sessions).cookie,
				origin,
				'content-type': 'application/json',
				'cf-connecting-ip': `10.8.${(address >> 8) & 255}.${address & 255}`,
			},
			body: JSON.stringify({ content: `${mention}Bench comment ${i}` }),
		});
		await response.arrayBuffer();
		return response.status;
	}
	try {
		await waitFor(`${origin}/`);
		for (let i = 0; i < 8; i += 1) await comment(i);
		// The warm-up's notifications first, so that the measured run starts with an empty queue.
		await settle(db);
		const rowsAtStart = await notificationRows(db);
		const { result: statuses, cpuMs } = await withServerCpu(server.pid, async () => {
			const answers = {};
			for (let i = 0; i < writes; i += 4) {
				for (const status of await Promise.all([comment(i), comment(i + 1), comment(i + 2), comment(i + 3)]))
					answers[status] = (answers[status] ?? 0) + 1;
			}
			await settle(db);
			return answers;
		});
		const sent = Object.values(statuses).reduce((sum, n) => sum + n, 0);
		return {
			comments: sent,
			statuses,
			cpuMsPerComment: Number((cpuMs / sent).toFixed(2)),
			notificationsWritten: (await notificationRows(db)) - rowsAtStart,
			notificationsBefore: rowsBefore,
		};
	} finally {
		if (!running) {
			server.kill('SIGTERM');
			await new Promise((resolve) => server.once('exit', resolve));
		}
	}
}

/** Waits until the consumer has written what the queue holds: the notification rows stop growing for two seconds. */
async function settle(db) {
	let last = -1;
	for (let stable = 0, tries = 0; stable < 2 && tries < 60; tries += 1) {
		const now = await notificationRows(db);
		stable = now === last ? stable + 1 : 0;
		last = now;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}
