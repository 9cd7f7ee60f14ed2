/**
 * `node scripts/bench-live.mjs [--readers 100] [--comments 20]`: what a live thread costs
 * (docs/reference/live-threads.md#cost, docs/decisions/performance.md). It serves the last `npm run build` under
 * `wrangler dev` on BENCH_PORT + 12 (default 8842), on a fresh copy of the demo data in
 * .wrangler/bench-live, and on one post of /starfall/global:
 *
 * - connections per room: opens `--readers` sockets to the post's room, each from its own client
 *   address, then more from one address until the room refuses (the per-address bound);
 * - messages per comment: two members write `--comments` comments through the API while the readers
 *   are connected; every reader counts the messages it got;
 * - CPU per comment: the server's processes' CPU time (/proc, user and system) per comment with the
 *   readers connected, against the same comments with no reader connected (the difference is the
 *   live thread's: the publish and one send to each socket), and the CPU of the readers' idle
 *   sockets over 5 seconds (hibernating: nothing).
 *
 * Prints one JSON line. Node's own WebSocket client (Node 22+) stands for the browsers.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { serveBuild, waitFor, localSessionSecret } from './lib/server.mjs';
import { ROOT } from './lib/wrangler.mjs';
import { freshDemoState } from './lib/seeded.mjs';
import { openLocalD1 } from './lib/local-d1.mjs';
import { withServerCpu } from './lib/cpu.mjs';
import { hashToken } from '../src/server/platform/tokens.ts';
import { mintSessionToken } from '../src/server/sign-in/session-token.ts';

const { values } = parseArgs({ options: { readers: { type: 'string', default: '100' }, comments: { type: 'string', default: '20' } } });
const READERS = Number(values.readers);
const COMMENTS = Number(values.comments);
const PORT = Number(process.env.BENCH_PORT ?? 8830) + 12;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CHANNEL = { id: 1, domain: 'starfall', slug: 'global' };
const STATE = path.join(ROOT, '.wrangler', 'bench-live');

freshDemoState(STATE);
const db = await openLocalD1(STATE);
const members = (
	await db.rows(`SELECT id FROM members WHERE channel_id = ${CHANNEL.id} AND role = 'MEMBER' AND withdrawn_at IS NULL ORDER BY id LIMIT 2`)
).map((row) => row.id);
const [post] = await db.rows(
	`SELECT p.id FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.channel_id = ${CHANNEL.id} AND b.is_public = 1
	 AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0 ORDER BY p.id DESC LIMIT 1`,
);
const secret = localSessionSecret(STATE);
const now = Date.now();
const cookies = [];
for (const memberId of members) {
	const token = await mintSessionToken(secret, CHANNEL.id);
	await db.rows(
		`INSERT INTO sessions (token_hash, member_id, channel_id, created_at, last_seen_at, idle_expires_at, expires_at)
		 VALUES ('${await hashToken(token)}', ${memberId}, ${CHANNEL.id}, ${now}, ${now}, ${now + 86_400_000}, ${now + 86_400_000})`,
	);
	cookies.push(`__Host-session_${CHANNEL.domain}_${CHANNEL.slug}=${token}`);
}
await db.close();

const server = serveBuild({ port: PORT, persistTo: STATE, stdio: 'ignore', ownGroup: true });
const roomUrl = `${ORIGIN.replace(/^http/, 'ws')}/public/v1/${CHANNEL.domain}/${CHANNEL.slug}/live/posts/${post.id}`;

/** A reader's socket from `address`: resolves with it once open, or with null when the upgrade is refused. */
function connect(address) {
	return new Promise((resolve) => {
		// Node's client (undici) takes request headers beside the standard arguments: each reader's own address.
		const socket = new WebSocket(roomUrl, /** @type {any} */ ({ headers: { 'cf-connecting-ip': address, origin: ORIGIN } }));
		const reader = { socket, messages: 0 };
		socket.addEventListener('open', () => resolve(reader));
		socket.addEventListener('message', () => (reader.messages += 1));
		socket.addEventListener('error', () => resolve(null));
	});
}

let written = 0;
async function comment(cookie) {
	written += 1;
	const response = await fetch(`${ORIGIN}/v1/${CHANNEL.domain}/${CHANNEL.slug}/posts/${post.id}/comments`, {
		method: 'POST',
		headers: { cookie, origin: ORIGIN, 'content-type': 'application/json', 'cf-connecting-ip': `10.7.0.${written}` },
		body: JSON.stringify({ content: `Live bench comment ${written}` }),
	});
	const body = await response.json();
	if (!body.header?.isSuccessful) throw new Error(`comment refused: ${JSON.stringify(body.header)}`);
}

/** Writes `COMMENTS` comments as `cookie`, one after another, and answers the server's CPU milliseconds per comment. */
async function commentsCpu(cookie, settled = async () => undefined) {
	const { cpuMs } = await withServerCpu(server.pid, async () => {
		for (let i = 0; i < COMMENTS; i += 1) await comment(cookie);
		await settled();
	});
	return Math.round((cpuMs / COMMENTS) * 100) / 100;
}

try {
	await waitFor(`${ORIGIN}/${CHANNEL.domain}/${CHANNEL.slug}/boards`);
	// Warm the isolate and the room (the first request compiles the Worker).
	await comment(cookies[0]);
	const warm = await connect('10.200.0.1');
	warm?.socket.close();

	const withoutReaders = await commentsCpu(cookies[0]);
	const readers = [];
	for (let i = 0; i < READERS; i += 1) {
		const reader = await connect(`10.201.${(i >> 8) & 255}.${i & 255}`);
		if (!reader) throw new Error(`reader ${i} was refused`);
		readers.push(reader);
	}
	const idle = await withServerCpu(server.pid, () => sleep(5_000));
	const withReaders = await commentsCpu(cookies[1], async () => {
		const deadline = Date.now() + 30_000;
		while (readers.some((reader) => reader.messages < COMMENTS) && Date.now() < deadline) await sleep(50);
	});
	const messages = readers.reduce((sum, reader) => sum + reader.messages, 0);
	// The per-address bound: sockets from one address until the room refuses one.
	const sameAddress = [];
	for (let reader = await connect('10.202.0.1'); reader; reader = await connect('10.202.0.1')) sameAddress.push(reader);
	const result = {
		post: post.id,
		readers: readers.length,
		comments: COMMENTS,
		connectionsPerRoom: readers.length + sameAddress.length,
		socketsPerAddress: sameAddress.length,
		messagesPerComment: messages / COMMENTS,
		messagesPerCommentPerReader: messages / COMMENTS / readers.length,
		cpuMsPerCommentWithoutReaders: withoutReaders,
		cpuMsPerCommentWithReaders: withReaders,
		cpuMsPerCommentOfLive: Math.round((withReaders - withoutReaders) * 100) / 100,
		idleCpuMsPer5s: Math.round(idle.cpuMs),
	};
	console.log(JSON.stringify(result));
	for (const reader of [...readers, ...sameAddress]) reader.socket.close();
} finally {
	if (server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
}
process.exit(0);
