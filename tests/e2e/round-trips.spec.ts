/**
 * The pages' round-trip budget (docs/decisions/performance.md#round-trips): every page route of
 * tests/read-routes.ts, asked by a guest, by a reader whose session no longer exists (the guest's
 * page rendered afresh, past the edge cache), by a member, by the author of the private rows and by
 * an administrator, takes at most ROUND_TRIP_BUDGET.page round trip to D1 in sequence after the
 * channel lookup, as its Server-Timing header says (functions/shell/round-trips.ts). Each URL is asked
 * twice and measured the second time: the first may fill the isolate's memory, as the first
 * request of an isolate does. The API's routes are held to theirs inside workerd
 * (tests/workers/round-trips.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { execute } from './fixtures';
import { mintSession, sessionCookieName } from './sessions';
import { freshMember } from './write-helpers';
import { PAGE_ROUTES, privacyIdsSql, privacyTargets, READ_LIMITED_PAGE_ROUTES, withinReadBudget, type PrivacyIds } from '../read-routes';
import { ROUND_TRIP_BUDGET, roundTripsOf } from '../round-trip-budget';
import { mintSessionToken } from '../../src/server/sign-in/session-token';

const GLOBAL = { index: 1, domain: 'starfall', slug: 'global' };

let ids: PrivacyIds;

test.beforeAll(() => {
	const [found] = execute(privacyIdsSql(GLOBAL.index)) as PrivacyIds[];
	if (!found) throw new Error('The browser tests need the seeded .wrangler/test-state database');
	ids = found;
});

/**
 * Each page route's deepest sequence of round trips over its URLs, asked with `cookie` from the
 * test's own address (`extraHTTPHeaders`: CF-Connecting-IP). Node's own fetch rather than the
 * test's request context: some hundred pages a reader, twice, each of which would also travel
 * from Playwright's driver process to the test's, where only a header of it is read.
 *
 * Each URL is asked twice and measured the second time (the first fills the edge cache and the
 * isolate's memos), but for a signed-in reader (`member`) a route their read budget counts (searches,
 * profiles: READ_LIMITED_PAGE_ROUTES), rendered for them every time, is asked twice only at its first
 * URL: the budget is counted across every test of the run, and the privacy tests read as the same members.
 */
async function depths(
	baseURL: string,
	extraHTTPHeaders: Record<string, string>,
	cookie: string | undefined,
	member = false,
	afterSession: string[] = [],
): Promise<Record<string, number>> {
	const deepest: Record<string, number> = {};
	const headers = { ...extraHTTPHeaders, ...(cookie ? { cookie } : {}) };
	const ask = (url: string) =>
		withinReadBudget(
			async () => {
				const response = await fetch(new URL(url, baseURL), { headers, redirect: 'manual' });
				await response.arrayBuffer();
				return response;
			},
			(response) => response.status,
		);
	const measured = async (url: string, response: Response) => {
		expect(response.status, `${url}: not refused as too many`).not.toBe(429);
		const trips = roundTripsOf(response.headers.get('server-timing'));
		expect(trips, `${url}: its Server-Timing header`).not.toBeNull();
		return trips!.depth;
	};
	const targets = privacyTargets(ids, '/starfall/global');
	for (const [route, urls] of Object.entries(PAGE_ROUTES)) {
		for (const [index, url] of urls(targets).entries()) {
			if (!(member && READ_LIMITED_PAGE_ROUTES.includes(route) && index > 0)) await ask(url);
			let depth = await measured(url, await ask(url));
			// Another test's new post between the two asks moves the channel's lists, and the board
			// page's list waits for the layout read again (afterLayout, src/server/loaders/channel-page.ts):
			// over its budget, the page is measured once more, its memory filled again.
			if (depth > budgetOf(route, afterSession)) depth = await measured(url, await ask(url));
			deepest[route] = Math.max(deepest[route] ?? 0, depth);
		}
	}
	return deepest;
}

/** A route's budget: the page's, or pageAfterSession on `afterSession`'s routes. */
function budgetOf(route: string, afterSession: string[]): number {
	return afterSession.includes(route) ? ROUND_TRIP_BUDGET.pageAfterSession : ROUND_TRIP_BUDGET.page;
}

/** The routes over their budget. */
function overBudget(found: Record<string, number>, afterSession: string[] = []): Record<string, number> {
	return Object.fromEntries(Object.entries(found).filter(([route, depth]) => depth > budgetOf(route, afterSession)));
}

/** The routes a member is answered from the guest's page on (functions/shell/member-pages.ts). */
const ALL_POSTS = '/{domain}/{slug}/boards';
const BOARD = '/{domain}/{slug}/boards/{boardId}';
const POST = '/{domain}/{slug}/posts/{postId}';

test.describe('every page keeps to its round-trip budget', () => {
	// Each reader asks some hundred pages, twice.
	test.describe.configure({ timeout: 120_000 });

	test('for a guest, and for a reader whose session no longer exists', async ({ baseURL, extraHTTPHeaders }) => {
		expect(overBudget(await depths(baseURL!, extraHTTPHeaders!, undefined))).toEqual({});
		const secret = readFileSync(path.join(process.cwd(), '.wrangler', 'test-state', 'session-secret'), 'utf8').trim();
		const ended = `${sessionCookieName(GLOBAL)}=${await mintSessionToken(secret, GLOBAL.index)}`;
		expect(overBudget(await depths(baseURL!, extraHTTPHeaders!, ended))).toEqual({});
	});

	for (const reader of ['bystander', 'privatePostAuthor', 'administrator'] as const) {
		test(`for a signed-in ${reader === 'bystander' ? 'member' : reader === 'administrator' ? 'administrator' : 'author of private rows'}`, async ({
			baseURL,
			extraHTTPHeaders,
		}) => {
			const cookie = `${sessionCookieName(GLOBAL)}=${await mintSession(GLOBAL, ids[reader])}`;
			// An administrator's post page: the session's batch says to render it in full.
			const afterSession = reader === 'administrator' ? [POST] : [];
			const found = await depths(baseURL!, extraHTTPHeaders!, cookie, true, afterSession);
			expect(overBudget(found, afterSession)).toEqual({});
			expect(found[POST]).toBe(reader === 'administrator' ? ROUND_TRIP_BUDGET.pageAfterSession : ROUND_TRIP_BUDGET.page);
		});
	}

	test('for a banned member: the session’s batch, then the full render, on the pages a member is answered from the guest’s', async ({
		baseURL,
		extraHTTPHeaders,
	}) => {
		// A member of the test's own: banning a demo member would refuse another test's writes as them.
		const { id: banned } = freshMember('Banned');
		const cookie = `${sessionCookieName(GLOBAL)}=${await mintSession(GLOBAL, banned)}`;
		execute(`INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, ${banned}, 'PERMANENT', NULL, ${Date.now()})`);
		try {
			const found = await depths(baseURL!, extraHTTPHeaders!, cookie, false, [ALL_POSTS, BOARD, POST]);
			expect(overBudget(found, [ALL_POSTS, BOARD, POST])).toEqual({});
			expect(found[BOARD]).toBe(ROUND_TRIP_BUDGET.pageAfterSession);
		} finally {
			execute(`UPDATE bans SET lifted_at = ${Date.now()} WHERE member_id = ${banned} AND lifted_at IS NULL`);
		}
	});
});
