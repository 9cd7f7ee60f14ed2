/**
 * The edge cache under concurrent guests, against the built Worker under wrangler (workerd): many
 * reads of cached pages over several keep-alive connections, while members' comments make some of
 * them old (made again by the reads that find them so, often several at once), must all answer 200. A
 * promise, stream or body that one request made and another awaits answers 500 "Cannot perform I/O
 * on behalf of a different request"; this reads enough to meet such a moment.
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { execute } from './fixtures';
import { mintSession, sessionCookieName } from './sessions';

const ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
const READS = 2400;
/** A member's comment starts after every this many reads (when none is under way). */
const COMMENT_EVERY = 60;
const CONNECTIONS = 6;

/** Sessions for demo members of starfall/global, made as the Worker makes them. */
async function memberCookies(memberIds: number[]): Promise<string[]> {
	const global = { index: 1, domain: 'starfall', slug: 'global' };
	const cookies: string[] = [];
	for (const memberId of memberIds) cookies.push(`${sessionCookieName(global)}=${await mintSession(global, memberId)}`);
	return cookies;
}

interface Answer {
	status: number;
	edgeCache: string;
	body: string;
}

/** One GET over `agent` (a keep-alive connection of the pool), its body read to the end. */
function get(agent: http.Agent, pathName: string): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const request = http.get(`${ORIGIN}${pathName}`, { agent, headers: { 'cf-connecting-ip': '10.22.0.1' } }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () =>
				resolve({
					status: response.statusCode ?? 0,
					edgeCache: String(response.headers['x-edge-cache'] ?? 'none'),
					body: Buffer.concat(chunks).toString('utf8'),
				}),
			);
			response.on('error', reject);
		});
		request.on('error', reject);
	});
}

test('thousands of concurrent guest reads of cached pages, and of pages made again after comments, all answer 200', async () => {
	// An upper bound for a busy 2-core machine, not a timing.
	test.setTimeout(300_000);
	const posts = (
		execute(
			'SELECT id FROM posts WHERE channel_id = 1 AND board_id = 12 AND board_seq IS NOT NULL AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 ORDER BY id DESC LIMIT 4',
		) as { id: number }[]
	).map((row) => row.id);
	expect(posts).toHaveLength(4);
	const paths = [
		'/starfall/global/boards',
		'/starfall/global/boards/12',
		...posts.map((id) => `/starfall/global/posts/${id}`),
		`/public/v1/starfall/global/posts/${posts[0]}`,
		`/public/v1/starfall/global/posts/${posts[1]}/comments`,
	];
	const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
	// Every page cached once.
	for (const pathName of paths) expect((await get(agent, pathName)).status).toBe(200);

	// Members comment on the posts being read, from addresses of their own, while the guests read:
	// one comment every COMMENT_EVERY reads (paced by the reads, not by the clock), one at a time.
	const cookies = await memberCookies([1002, 1003, 1004, 1005]);
	let comments = 0;
	let commenting: Promise<void> | null = null;
	const comment = async () => {
		const postId = posts[comments % posts.length];
		const response = await fetch(`${ORIGIN}/v1/starfall/global/posts/${postId}/comments`, {
			method: 'POST',
			headers: {
				cookie: cookies[comments % cookies.length] ?? '',
				origin: ORIGIN,
				'content-type': 'application/json',
				'cf-connecting-ip': `10.22.1.${comments + 1}`,
			},
			body: JSON.stringify({ content: `Concurrent reads comment ${comments + 1}` }),
		});
		expect(response.status, await response.text()).toBe(200);
		comments += 1;
	};

	const statuses: Record<string, number> = {};
	const states: Record<string, number> = {};
	const failures: string[] = [];
	let next = 0;
	const reader = async () => {
		while (next < READS) {
			const pathName = paths[next % paths.length] ?? '/';
			next += 1;
			if (next % COMMENT_EVERY === 0 && commenting === null) commenting = comment().finally(() => (commenting = null));
			const answer = await get(agent, pathName);
			statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
			states[answer.edgeCache] = (states[answer.edgeCache] ?? 0) + 1;
			if (answer.status !== 200 && failures.length < 3) failures.push(`${pathName}: ${answer.status} ${answer.body.slice(0, 300)}`);
		}
	};
	await Promise.all(Array.from({ length: CONNECTIONS }, reader));
	await commenting;
	agent.destroy();

	expect(failures).toEqual([]);
	expect(statuses).toEqual({ 200: READS });
	// The reads met hits and misses (entries older than a new comment, made again), never an old page.
	expect(states['HIT'] ?? 0).toBeGreaterThan(READS / 2);
	expect(comments).toBeGreaterThan(0);
	expect(states['MISS'] ?? 0, JSON.stringify(states)).toBeGreaterThan(0);
	expect(states['STALE'], JSON.stringify(states)).toBeUndefined();
	test.info().annotations.push({ type: 'edge cache', description: `${JSON.stringify(states)}; ${comments} comments written meanwhile` });
});
