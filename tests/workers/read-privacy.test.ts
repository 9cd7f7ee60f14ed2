/**
 * Nothing private leaks through the API: every read route of tests/read-routes.ts is asked about
 * the demo's private board, private post, hidden post, deleted post and hidden comment (marked
 * with canaries) by a guest, another member, the author, an administrator and readers of another
 * channel; each receives exactly the canaries the visibility rule allows it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { api } from '@functions/api/app';
import { call, GLOBAL, KOREAN, ORIGIN, signIn } from './harness';
import {
	ALLOWED_CANARIES,
	API_POST_READS,
	API_ROUTES,
	DRAFT_CANARIES,
	REMOVED_TEXT_CANARIES,
	REMOVED_TEXT_ROUTE,
	canariesIn,
	canarySql,
	privacyIdsSql,
	privacyTargets,
	urlsOf,
	type Canary,
	type PrivacyIds,
} from '../read-routes';

let ids: PrivacyIds;

beforeAll(async () => {
	const found = await env.DB.prepare(privacyIdsSql(GLOBAL.id)).first<PrivacyIds>();
	if (!found || Object.values(found).some((value) => value === null)) throw new Error(`The demo lacks a privacy target: ${JSON.stringify(found)}`);
	ids = found;
	await env.DB.batch(canarySql(ids, GLOBAL.id).map((statement) => env.DB.prepare(statement)));
});

/** Asks every API read route (or those `routes` names) as the reader with `cookie`, the POST reads by POST; returns the canaries received. */
async function canariesSeen(base: string, cookie: string | undefined, routes: (path: string) => boolean = () => true): Promise<Canary[]> {
	const seen = new Set<Canary>();
	const chosen = (list: typeof API_ROUTES) => Object.fromEntries(Object.entries(list).filter(([path]) => routes(path)));
	const asked = [
		...urlsOf(chosen(API_ROUTES), privacyTargets(ids, base)).map((url) => ({ url, method: 'GET' })),
		...urlsOf(chosen(API_POST_READS), privacyTargets(ids, base)).map((url) => ({ url, method: 'POST' })),
	];
	for (const { url, method } of asked) {
		const answer = await call(`${ORIGIN}${url}`, { method, ...(cookie ? { cookie } : {}) });
		expect(answer.status, `${method} ${url}`).toBeLessThan(500);
		for (const canary of canariesIn(JSON.stringify(answer.body))) seen.add(canary);
	}
	return [...seen].sort();
}

const sorted = (list: readonly Canary[]) => [...list].sort();

describe('the API gives each reader exactly what the visibility rule allows', () => {
	it('a guest receives nothing private', async () => {
		expect(await canariesSeen('/starfall/global', undefined)).toEqual(sorted(ALLOWED_CANARIES.guest));
	});

	it('another member receives nothing private', async () => {
		expect(await canariesSeen('/starfall/global', await signIn(ids.bystander))).toEqual(sorted(ALLOWED_CANARIES.member));
	});

	it('the author receives their own private post and draft, and nothing else', async () => {
		expect(await canariesSeen('/starfall/global', await signIn(ids.privatePostAuthor))).toEqual(
			sorted([...ALLOWED_CANARIES.author, ...DRAFT_CANARIES]),
		);
	});

	it('an administrator receives what moderation needs, and a deleted post or comment only from the read of removed text', async () => {
		const admin = await signIn(ids.administrator);
		expect(await canariesSeen('/starfall/global', admin, (path) => path !== REMOVED_TEXT_ROUTE)).toEqual(sorted(ALLOWED_CANARIES.admin));
		expect(await canariesSeen('/starfall/global', admin)).toEqual(sorted([...ALLOWED_CANARIES.admin, ...REMOVED_TEXT_CANARIES]));
	});

	it("another channel answers none of this channel's ids, to its own administrator or this one's", async () => {
		const cookies = [await signIn(ids.administrator), await signIn(ids.privatePostAuthor), await signIn(2001, KOREAN)].join('; ');
		expect(await canariesSeen('/starfall/kr', cookies)).toEqual([]);
	});

	it("this channel's routes ignore the session of another channel's administrator", async () => {
		expect(await canariesSeen('/starfall/global', await signIn(2001, KOREAN))).toEqual([]);
	});
});

describe('the list of read routes', () => {
	it("names every GET route of the API, except the paths that answer GET with 405 and the live threads' upgrades", async () => {
		const listed = new Set(Object.keys(API_ROUTES));
		// The live threads' WebSocket upgrades (docs/reference/live-threads.md) read no page: tests/workers/live.test.ts checks them.
		const upgrade = (path: string) => /\/live\/(posts\/:postId|me)$/.test(path);
		const gets = [
			...new Set(
				api.routes.filter((route) => route.method === 'GET' && !route.path.endsWith('*') && !upgrade(route.path)).map((route) => route.path),
			),
		];
		const missing: string[] = [];
		// Asked as an administrator: the admin API answers anyone else before it looks at the method.
		const cookie = await signIn(ids.administrator);
		for (const path of gets.filter((candidate) => !listed.has(candidate))) {
			const concrete = path.replace(':domain', 'starfall').replace(':slug', 'global').replace(/:\w+/g, '1');
			if ((await call(`${ORIGIN}${concrete}`, { cookie })).status !== 405) missing.push(path);
		}
		expect(missing).toEqual([]);
		expect(gets.filter((path) => listed.has(path)).sort()).toEqual([...listed].sort());
	});

	it('names POST reads that are POST routes of the API, and answer GET with 405', async () => {
		const posts = new Set(api.routes.filter((route) => route.method === 'POST').map((route) => route.path));
		for (const path of Object.keys(API_POST_READS)) {
			expect(posts.has(path), path).toBe(true);
			const concrete = path.replace(':domain', 'starfall').replace(':slug', 'global').replace(':targetType', 'posts').replace(/:\w+/g, '1');
			expect((await call(`${ORIGIN}${concrete}`, { cookie: await signIn(ids.administrator) })).code, path).toBe(-4051401);
		}
	});
});
