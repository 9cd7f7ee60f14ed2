/**
 * A member's page made from the guest's (functions/shell/member-pages.ts), against the built Worker:
 * for every page route of tests/read-routes.ts and every kind of reader, an answer the Worker
 * rewrote (X-Member-Page: REWRITTEN) equals the full render of the same page for the same reader.
 * The full render is the rule's own other path, asked through the Worker with no flag: the same
 * URL in another spelling (`page=1` added, or its page number asked twice), which the rule leaves
 * to the full render because it is not the canonical URL, and which shows the same page (a guest's
 * login link, which carries the URL asked, is read back to the first spelling). The two
 * are compared tag by tag with each tag's attributes in one order (HTMLRewriter adds an attribute
 * after those a tag has; Astro writes them in its own order) and whitespace between tags dropped.
 * Which routes are rewritten, for whom, is checked too; and nothing of one member's page reaches
 * a guest or another member.
 */
import type { APIRequestContext } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { execute } from './fixtures';
import { mintSession, sessionCookieName } from './sessions';
import { PAGE_ROUTES, privacyIdsSql, privacyTargets, type PrivacyIds } from '../read-routes';
import { mintSessionToken } from '../../src/server/sign-in/session-token';

const GLOBAL = { index: 1, domain: 'starfall', slug: 'global' };
const BASE = '/starfall/global';

let ids: PrivacyIds;
/** A member who watches every board of the targets, and one who is banned during the test. */
let watcher: number;
let banned: number;

test.beforeAll(() => {
	const [found] = execute(privacyIdsSql(GLOBAL.index)) as PrivacyIds[];
	if (!found) throw new Error('The browser tests need the seeded .wrangler/test-state database');
	ids = found;
	const members = execute(
		`SELECT id FROM members WHERE channel_id = 1 AND role = 'MEMBER' AND withdrawn_at IS NULL AND id NOT IN (${ids.bystander}, ${ids.privatePostAuthor})
		 AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.member_id = members.id AND b.lifted_at IS NULL) ORDER BY id DESC LIMIT 2`,
	) as { id: number }[];
	[watcher, banned] = members.map((member) => member.id) as [number, number];
	for (const boardId of privacyTargets(ids, BASE).boardIds) {
		execute(
			`INSERT OR REPLACE INTO watches (member_id, target, target_id, channel_id, watching, created_at) VALUES (${watcher}, 'BOARD', ${boardId}, 1, 1, 0)`,
		);
	}
});

/** The pages every member but a banned one is answered by the rewrite on. */
const REWRITTEN = ['/{domain}/{slug}/boards', '/{domain}/{slug}/boards/{boardId}'];

/**
 * The same page under a URL that is not its canonical one, the rule's full render for it: its
 * page number asked twice (the page reads the first; its links set or drop the key), or page 1 named.
 */
function fullRenderTwin(url: string): string {
	const page = /[?&]page=(\d+)/.exec(url)?.[1];
	return `${url}${url.includes('?') ? '&' : '?'}page=${page ?? 1}`;
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&amp;': '&', '&lt;': '<', '&gt;': '>' };
const decode = (value: string) => value.replace(/&(?:quot|#39|#x27|amp|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);

/** The page's tags and texts, one a line, each tag's attributes sorted (an empty value written as none). */
function normalized(html: string): string[] {
	const tag = /<([a-zA-Z][^\s/>]*)((?:\s+[^\s=/>]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
	const attribute = /([^\s=/>]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
	const text = html.replace(tag, (_whole, name: string, attributes: string, slash: string) => {
		const pairs = [...attributes.matchAll(attribute)].map(([, key, ...values]) => {
			const value = decode(values.find((found) => found !== undefined) ?? '');
			return value === '' ? key! : `${key}="${value}"`;
		});
		return `<${[name, ...pairs.sort()].join(' ')}${slash}>`;
	});
	const lines = text
		.replace(/>\s+</g, '><')
		.split(/(?=<)/)
		.filter((line) => line.trim() !== '');
	// A list row's counts (views, likes, comments) move with other tests' reads and likes without a
	// write that renews the guest's stored page, which may so be older by a view than the full render.
	return lines.map((line, at) => (at > 0 && lines[at - 1]!.startsWith('<span class="meta-label"') ? line.replace(/[\d,]+/g, '#') : line));
}

interface Reader {
	name: string;
	cookie: () => Promise<string>;
	rewritten: string[];
}

const session = async (memberId: number) => `${sessionCookieName(GLOBAL)}=${await mintSession(GLOBAL, memberId)}`;
const READERS: Reader[] = [
	{ name: 'a member', cookie: () => session(ids.bystander), rewritten: REWRITTEN },
	{ name: 'the author of the private rows', cookie: () => session(ids.privatePostAuthor), rewritten: REWRITTEN },
	{ name: 'a member who watches the boards', cookie: () => session(watcher), rewritten: REWRITTEN },
	{ name: 'an administrator', cookie: () => session(ids.administrator), rewritten: REWRITTEN },
	{ name: 'a banned member', cookie: () => session(banned), rewritten: [] },
	{
		name: 'a reader whose session no longer exists',
		cookie: async () => {
			const secret = readFileSync(path.join(process.cwd(), '.wrangler', 'test-state', 'session-secret'), 'utf8').trim();
			return `${sessionCookieName(GLOBAL)}=${await mintSessionToken(secret, GLOBAL.index)}`;
		},
		rewritten: REWRITTEN,
	},
];

/** The headers both answers must share. */
const SHARED_HEADERS = ['content-type', 'cache-control', 'content-security-policy', 'set-cookie'];

/** Asks every page route as the reader; compares each rewritten answer with its full render; answers the routes rewritten. */
async function compareAll(request: APIRequestContext, cookie: string): Promise<string[]> {
	const rewritten = new Set<string>();
	const headers = { cookie };
	for (const [route, urls] of Object.entries(PAGE_ROUTES)) {
		for (const url of urls(privacyTargets(ids, BASE))) {
			const answer = await request.get(url, { headers, maxRedirects: 0 });
			if (answer.headers()['x-member-page'] !== 'REWRITTEN') continue;
			rewritten.add(route);
			const full = await request.get(fullRenderTwin(url), { headers, maxRedirects: 0 });
			expect(full.headers()['x-member-page'], `${fullRenderTwin(url)}: the full render`).toBeUndefined();
			expect(answer.status(), url).toBe(full.status());
			for (const name of SHARED_HEADERS) expect(answer.headers()[name], `${url}: ${name}`).toBe(full.headers()[name]);
			const fullText = (await full.text()).replaceAll(encodeURIComponent(fullRenderTwin(url)), encodeURIComponent(url));
			expect(normalized(await answer.text()), url).toEqual(normalized(fullText));
		}
	}
	return [...rewritten];
}

test.describe('a member’s page made from the guest’s equals the full render', () => {
	// Each reader asks some hundred pages.
	test.describe.configure({ timeout: 180_000 });

	test('a guest’s answers are never rewritten', async ({ request }) => {
		for (const url of Object.values(PAGE_ROUTES).flatMap((urls) => urls(privacyTargets(ids, BASE)))) {
			expect((await request.get(url, { maxRedirects: 0 })).headers()['x-member-page'], url).toBeUndefined();
		}
	});

	for (const reader of READERS) {
		test(`for ${reader.name}`, async ({ request }) => {
			const banning = reader.name === 'a banned member';
			if (banning)
				execute(`INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, ${banned}, 'PERMANENT', NULL, ${Date.now()})`);
			try {
				expect((await compareAll(request, await reader.cookie())).sort()).toEqual(reader.rewritten);
			} finally {
				if (banning) execute(`UPDATE bans SET lifted_at = ${Date.now()} WHERE member_id = ${banned} AND lifted_at IS NULL`);
			}
		});
	}
});

test('nothing of one member’s page reaches a guest or another member', async ({ request }) => {
	const url = `${BASE}/boards/${ids.hiddenPostBoard}`;
	const nickname = (id: number) => (execute(`SELECT nickname FROM members WHERE id = ${id}`) as { nickname: string }[])[0]!.nickname;
	const mine = await request.get(url, { headers: { cookie: await session(ids.bystander) } });
	expect(mine.headers()['x-member-page']).toBe('REWRITTEN');
	expect(mine.headers()['cache-control']).toBe('private, no-store');
	expect(mine.headers()['x-edge-cache']).toBeUndefined();
	expect(await mine.text()).toContain(`data-nickname="${nickname(ids.bystander)}"`);
	for (let i = 0; i < 2; i++) {
		const guest = await request.get(url, { headers: { cookie: '' } });
		expect(guest.headers()['x-edge-cache']).toBe('HIT');
		const html = await guest.text();
		for (const mark of ['data-member-card', 'data-bell', 'data-board-watch', 'data-user-id', 'data-session-sync']) expect(html).not.toContain(mark);
	}
	const theirs = await request.get(url, { headers: { cookie: await session(ids.privatePostAuthor) } });
	const html = await theirs.text();
	expect(html).toContain(`data-user-id="${ids.privatePostAuthor}"`);
	expect(html).not.toContain(`data-user-id="${ids.bystander}"`);
	expect(html).not.toContain(`data-nickname="${nickname(ids.bystander)}"`);
});
