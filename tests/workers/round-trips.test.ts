/**
 * The API's round-trip budget (docs/decisions/performance.md#round-trips): every read route of
 * tests/read-routes.ts, asked as a guest, a reader whose session has ended, a member, the author of
 * the private rows and an administrator, takes at most its budget of round trips to D1 in sequence
 * after the channel lookup; every write route is held to its own in tests/workers/input-errors.test.ts
 * and in the harness (tests/workers/harness.ts: every write any test sends). Each URL is asked
 * twice and measured the second time: the first may fill the isolate's memory (a board tree), as
 * the first request of an isolate does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, GLOBAL, ORIGIN, signIn } from './harness';
import { API_ROUTES, privacyIdsSql, privacyTargets, type PrivacyIds } from '../read-routes';
import { ROUND_TRIP_BUDGET } from '../round-trip-budget';
import { mintSessionToken } from '@/server/sign-in/session-token';
import { cookieName } from '@/server/sign-in/cookies';

let ids: PrivacyIds;

beforeAll(async () => {
	const found = await env.DB.prepare(privacyIdsSql(GLOBAL.id)).first<PrivacyIds>();
	if (!found || Object.values(found).some((value) => value === null)) throw new Error(`The demo lacks a target: ${JSON.stringify(found)}`);
	ids = found;
});

/** Each API read route's deepest sequence of round trips over its URLs, asked with `cookie`. */
async function depths(cookie: string | undefined): Promise<Record<string, number>> {
	const deepest: Record<string, number> = {};
	const targets = privacyTargets(ids, '/starfall/global');
	for (const [route, urls] of Object.entries(API_ROUTES)) {
		for (const url of urls(targets)) {
			const init = cookie ? { cookie } : {};
			await call(`${ORIGIN}${url}`, init);
			const answer = await call(`${ORIGIN}${url}`, init);
			expect(answer.status, url).toBeLessThan(500);
			deepest[route] = Math.max(deepest[route] ?? 0, answer.trips.depth);
		}
	}
	return deepest;
}

function overBudget(found: Record<string, number>, budget: number): Record<string, number> {
	return Object.fromEntries(Object.entries(found).filter(([, depth]) => depth > budget));
}

describe('the API read routes keep to their round-trip budget', () => {
	it('as a guest', async () => {
		expect(overBudget(await depths(undefined), ROUND_TRIP_BUDGET.read.guest)).toEqual({});
	});

	it('as a reader whose session no longer exists', async () => {
		const ended = `${cookieName('session', 'starfall', 'global')}=${await mintSessionToken(env.SESSION_SECRET, GLOBAL.id)}`;
		expect(overBudget(await depths(ended), ROUND_TRIP_BUDGET.read.signedIn)).toEqual({});
	});

	it('as a member, the author of private rows and an administrator', async () => {
		for (const member of [ids.bystander, ids.privatePostAuthor, ids.administrator]) {
			const found = await depths(await signIn(member));
			expect(overBudget(found, ROUND_TRIP_BUDGET.read.signedIn), `member ${member}`).toEqual({});
		}
		// Every API read route three times over: past 30 s on a two-core machine busy with the other
		// steps of `npm test`. An upper bound, not a timing.
	}, 90_000);
});
