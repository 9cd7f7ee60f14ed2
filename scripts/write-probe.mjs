/**
 * `node scripts/write-probe.mjs [comment|like] [--writes N]`: the server's CPU milliseconds per
 * member write, on the bench data (/bench/large in .wrangler/bench, seeded by `npm run bench`).
 * It serves the last `npm run build` under `wrangler dev` on BENCH_PORT + 11 (default 8841), makes
 * sessions for 50 members the way the Worker does, and sends N comments (POST …/comments) or likes
 * (PUT …/like) to the newest 1,000 posts, 4 at a time, each from its own client address (the rate
 * limits count per member and per address, as they would for real members), then prints the CPU
 * per write of each of the server's processes (/proc, user and system time) and their sum.
 */
import { parseArgs } from 'node:util';
import { serveBuild, waitFor } from './lib/server.mjs';
import { memberSessions } from './lib/bench-sessions.mjs';
import { ROOT, migrate } from './lib/wrangler.mjs';
import { openLocalD1 } from './lib/local-d1.mjs';
import { processTimes } from './lib/cpu.mjs';
import path from 'node:path';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { writes: { type: 'string', default: '300' } } });
const kind = positionals[0] ?? 'comment';
if (kind !== 'comment' && kind !== 'like') throw new Error('write-probe: comment or like');
const PORT = Number(process.env.BENCH_PORT ?? 8830) + 11;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const STATE = path.join(ROOT, '.wrangler', 'bench');
// Data seeded by an earlier build: bring its schema up to this one's migrations.
migrate(STATE);
const writes = Number(values.writes);

const db = await openLocalD1(STATE);
const sessions = await memberSessions(db, STATE, 50);
const posts = (await db.rows('SELECT id FROM posts WHERE channel_id = 9 AND board_seq IS NOT NULL ORDER BY id DESC LIMIT 1000')).map((row) => row.id);
await db.close();

const server = serveBuild({ port: PORT, persistTo: STATE, stdio: 'ignore' });
let address = 0;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
async function write(i) {
	address += 1;
	const session = pick(sessions);
	const postId = pick(posts);
	const response = await fetch(
		kind === 'comment' ? `${ORIGIN}/v1/bench/large/posts/${postId}/comments` : `${ORIGIN}/v1/bench/large/posts/${postId}/like`,
		{
			method: kind === 'comment' ? 'POST' : 'PUT',
			headers: {
				cookie: session.cookie,
				origin: ORIGIN,
				'content-type': 'application/json',
				'cf-connecting-ip': `10.9.${(address >> 8) & 255}.${address & 255}`,
			},
			...(kind === 'comment' ? { body: JSON.stringify({ content: `Probe comment ${i}` }) } : {}),
		},
	);
	await response.arrayBuffer();
	return response.status;
}
try {
	await waitFor(`${ORIGIN}/`);
	for (let i = 0; i < 20; i += 1) await write(i);
	const before = processTimes(server.pid);
	const statuses = {};
	for (let i = 0; i < writes; i += 4) {
		for (const status of await Promise.all([write(i), write(i + 1), write(i + 2), write(i + 3)])) statuses[status] = (statuses[status] ?? 0) + 1;
	}
	const after = processTimes(server.pid);
	const sent = Object.values(statuses).reduce((sum, n) => sum + n, 0);
	let total = 0;
	const parts = [];
	for (const [pid, { name, userMs, systemMs }] of after) {
		const was = before.get(pid) ?? { userMs: 0, systemMs: 0 };
		const user = (userMs - was.userMs) / sent;
		const system = (systemMs - was.systemMs) / sent;
		total += user + system;
		if (user + system >= 0.05) parts.push(`${name} ${pid}: user ${user.toFixed(2)}, system ${system.toFixed(2)}`);
	}
	console.log(`${kind}: answers ${JSON.stringify(statuses)}; server CPU ${total.toFixed(2)} ms per write (${parts.join('; ')})`);
} finally {
	server.kill('SIGTERM');
}
process.exit(0);
