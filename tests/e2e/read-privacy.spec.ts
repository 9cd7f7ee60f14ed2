/**
 * Nothing private leaks through the pages: every page route of tests/read-routes.ts is asked about
 * the demo's private board, private post, hidden post, deleted post and hidden comment (marked with
 * canaries) by a guest, another member, the author, an administrator and a reader of another
 * channel, each signed in (with a minted session); each receives exactly what the visibility
 * rule allows it. The API has the same test inside workerd (tests/workers/read-privacy.test.ts).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, BrowserContext } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { signInContext, type SessionChannel } from './sessions';
import {
	ALLOWED_CANARIES,
	DRAFT_CANARIES,
	PAGE_ROUTES,
	canariesIn,
	canarySql,
	privacyIdsSql,
	privacyTargets,
	urlsOf,
	withinReadBudget,
	type Canary,
	type PrivacyIds,
} from '../read-routes';

// One worker plants the canaries once and runs every reader after it.
test.describe.configure({ mode: 'serial' });

let ids: PrivacyIds;

test.beforeAll(() => {
	const [found] = execute(privacyIdsSql(1)) as PrivacyIds[];
	if (!found) throw new Error('The browser tests need the seeded .wrangler/test-state database');
	ids = found;
	for (const statement of canarySql(ids, 1)) execute(statement);
});

/**
 * Signs the context in as the member with a minted session (tests/e2e/sessions.ts). No page is opened:
 * every page is asked through the context's `request`, which sends the context's cookies.
 */
async function signIn(context: BrowserContext, memberId: number): Promise<void> {
	const [channel] = execute(
		`SELECT c.id AS "index", c.domain, c.slug FROM members m JOIN channels c ON c.id = m.channel_id WHERE m.id = ${Number(memberId)}`,
	) as SessionChannel[];
	if (!channel) throw new Error(`No member ${memberId}`);
	await signInContext(context, channel, memberId);
}

/** Asks every page route as `reader` (a signed-in context's `request`, or a guest's); returns the canaries received. */
async function canariesSeen(reader: APIRequestContext, base: string): Promise<Canary[]> {
	const seen = new Set<Canary>();
	for (const url of urlsOf(PAGE_ROUTES, privacyTargets(ids, base))) {
		const response = await withinReadBudget(
			() => reader.get(url, { maxRedirects: 0 }),
			(answer) => answer.status(),
		);
		// The generic error page answers 500 by design; no other route may fail.
		if (url !== '/500') expect(response.status(), url).toBeLessThan(500);
		// A page refused as too many would hide what it shows.
		expect(response.status(), `${url}: not refused as too many`).not.toBe(429);
		for (const canary of canariesIn(await response.text())) seen.add(canary);
	}
	return [...seen].sort();
}

const sorted = (list: readonly Canary[]) => [...list].sort();

test.describe('the pages give each reader exactly what the visibility rule allows', () => {
	// Each reader asks some fifty pages.
	test.describe.configure({ timeout: 120_000 });

	test('a guest receives nothing private', async ({ request }) => {
		expect(await canariesSeen(request, '/starfall/global')).toEqual(sorted(ALLOWED_CANARIES.guest));
	});

	test('another member receives nothing private', async ({ context }) => {
		await signIn(context, ids.bystander);
		expect(await canariesSeen(context.request, '/starfall/global')).toEqual(sorted(ALLOWED_CANARIES.member));
	});

	test('the author receives their own private post and their draft, and nothing else', async ({ context }) => {
		await signIn(context, ids.privatePostAuthor);
		expect(await canariesSeen(context.request, '/starfall/global')).toEqual(sorted([...ALLOWED_CANARIES.author, ...DRAFT_CANARIES]));
	});

	test('an administrator receives what moderation needs, and never a deleted post or comment', async ({ context }) => {
		await signIn(context, ids.administrator);
		expect(await canariesSeen(context.request, '/starfall/global')).toEqual(sorted(ALLOWED_CANARIES.admin));
	});

	test("another channel shows none of this channel's content, to this channel's administrator or its own", async ({ context }) => {
		await signIn(context, ids.administrator);
		await signIn(context, 2001);
		expect(await canariesSeen(context.request, '/starfall/kr')).toEqual([]);
	});
});

test('the list of read routes names every page route', () => {
	const pagesDir = path.join(process.cwd(), 'src', 'pages');
	const routes = (readdirSync(pagesDir, { recursive: true }) as string[])
		// Pages, and the endpoints beside them (robots.txt, sitemaps, feeds).
		.filter((file) => file.endsWith('.astro') || file.endsWith('.ts'))
		.map((file) => {
			const route = `/${file
				.replace(/\.(?:astro|ts)$/, '')
				.split(path.sep)
				.join('/')}`
				.replace(/\/index$/, '')
				.replace(/\[([^\]]+)\]/g, '{$1}');
			return route === '' ? '/' : route;
		});
	expect(routes.sort()).toEqual(Object.keys(PAGE_ROUTES).sort());
});
