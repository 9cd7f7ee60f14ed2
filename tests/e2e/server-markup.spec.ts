/**
 * One markup for the comments section: the server renders the island's own view
 * (src/islands/comments/CommentsView.tsx) and writes the list it rendered as data on the section
 * (src/islands/comments/data.ts); the island reads that data back and renders over the page. For
 * every kind of comment (deleted with a reply, hidden by an administrator or by reports, a reply,
 * a reply to a reply, one the reader reported, the reader's own, one with mentions, an edited one, an
 * administrator's) and for a guest, a member and an administrator, the island's first render is
 * the server's markup node for node, and the items it holds are the ones the server rendered: a
 * field the reader drops or a line of markup on one side only fails here.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { community, memberIdOf, signInMember, type Community } from './write-helpers';

interface ListItem {
	commentId: number;
	parentId: number | null;
	readable: boolean;
	state: string;
	autoHidden?: boolean;
	reported?: boolean;
	edited?: boolean;
	mentions?: unknown[];
	replyTo?: unknown;
	author?: { userId: number; admin: boolean };
}

/**
 * A canonical form of the markup under `selector`: each element with its attributes sorted (the
 * server's HTML and a browser render list them in different orders), its text, no comments (React's
 * text separators), and without what `drop` names.
 */
async function markupOf(page: Page, selector: string, drop = ''): Promise<string> {
	return page.evaluate(
		([root, dropped]) => {
			const form = (node: Node): string => {
				if (node.nodeType === Node.TEXT_NODE) return JSON.stringify(node.textContent);
				if (!(node instanceof Element) || (dropped && node.matches(dropped))) return '';
				const attributes = [...node.attributes].map((attribute) => `${attribute.name}=${JSON.stringify(attribute.value)}`).sort();
				return `<${node.localName} ${attributes.join(' ')}>${[...node.childNodes].map(form).join('')}</${node.localName}>`;
			};
			return [...document.querySelector(root!)!.childNodes].map(form).filter(Boolean).join('\n');
		},
		[selector, drop],
	);
}

/**
 * The items the server wrote on the section, with the member's own reports from their data element
 * (every reader's list carries none): what the island starts from (src/islands/comments/data.ts).
 */
async function writtenItems(page: Page): Promise<ListItem[]> {
	const section = page.locator('[data-comments]');
	const list = await section.getAttribute('data-list');
	const own = section.locator(':scope > script[data-member-comments]');
	const reported = new Set(
		(await own.count()) ? ((JSON.parse((await own.textContent()) ?? '{}') as { reportedComments?: number[] }).reportedComments ?? []) : [],
	);
	const { items } = JSON.parse(list ?? '{}') as { items: ListItem[] };
	return items.map((item) => (item.readable && reported.has(item.commentId) ? { ...item, reported: true } : item));
}

// One worker: the tests share the comments written before them.
test.describe.configure({ mode: 'serial' });

let channel: Community;
let postId: number;
const ids: Record<string, number> = {};

/** This file's comments start with it: on a post with no other comment, they are the whole list. */
const MARK = '[markup]';
const removeMine = () => {
	const mine = `SELECT id FROM comments WHERE post_id = ${postId} AND content LIKE '${MARK}%'`;
	execute(`DELETE FROM reports WHERE target_type = 'COMMENT' AND target_id IN (${mine})`, channel);
	execute(`DELETE FROM comments WHERE reply_to_id IN (${mine})`, channel);
	execute(`DELETE FROM comments WHERE parent_id IN (${mine})`, channel);
	execute(`DELETE FROM comments WHERE id IN (${mine})`, channel);
};

const insert = (name: string, columns: Record<string, string | number | null>) => {
	const base = { channel_id: channel.index, post_id: postId, created_at: 1_790_000_000_000 + Object.keys(ids).length * 60_000 };
	const all = { ...base, ...columns, content: `${MARK} ${columns['content']}` };
	const values = Object.values(all).map((value) =>
		value === null ? 'NULL' : typeof value === 'number' ? value : `'${value.replaceAll("'", "''")}'`,
	);
	const [row] = execute(`INSERT INTO comments (${Object.keys(all).join(', ')}) VALUES (${values.join(', ')}) RETURNING id`) as { id: number }[];
	ids[name] = row!.id;
};

test.beforeAll(async () => {
	channel = await community('/starfall/tw');
	const [post] = execute(
		`SELECT id FROM posts WHERE channel_id = ${channel.index} AND board_id = ${channel.index * 10 + 6} AND deleted_at IS NULL AND hidden_by_admin = 0
		 AND is_private = 0 AND board_seq IS NOT NULL AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.post_id = posts.id AND c.content NOT LIKE '${MARK}%')
		 ORDER BY id DESC LIMIT 1`,
	) as { id: number }[];
	postId = post!.id;
	removeMine();
	const [reader, other, admin, mentioned] = [5, 6, 0, 7].map((index) => memberIdOf(channel, index)) as [number, number, number, number];
	const now = Date.now();
	insert('plain', { member_id: other, content: 'A plain comment\nwith a second line and https://example.com/page' });
	insert('reply', { member_id: reader, content: 'A reply of the reader', parent_id: ids['plain']! });
	insert('replyToReply', { member_id: other, content: 'A reply to the reply', parent_id: ids['plain']!, reply_to_id: ids['reply']! });
	insert('deleted', { member_id: other, content: 'Deleted', deleted_at: now });
	insert('underDeleted', { member_id: reader, content: 'A reply under a deleted comment', parent_id: ids['deleted']! });
	insert('hidden', { member_id: other, content: 'Hidden by an administrator', hidden_by_admin: 1 });
	insert('autoHidden', { member_id: other, content: 'Hidden by reports', hidden_by_admin: 1, auto_hidden: 1 });
	insert('reported', { member_id: other, content: 'Reported by the reader' });
	insert('own', { member_id: reader, content: 'The reader’s own, edited', edited_at: now });
	const nickname = channel.nicknames[7]!;
	insert('mentions', { member_id: other, content: `@${nickname} look at this`, mentions: JSON.stringify([[mentioned, nickname]]) });
	insert('admin', { member_id: admin, content: 'An administrator speaks' });
	execute(
		`INSERT INTO reports (channel_id, target_type, target_id, reporter_id, reason_code, created_at) VALUES (${channel.index}, 'COMMENT', ${ids['reported']}, ${reader}, 'SPAM', ${now})`,
	);
});

test.afterAll(removeMine);

for (const viewer of ['guest', 'member', 'administrator'] as const) {
	test(`the island's first render is the server's markup, and holds the items the server rendered (${viewer})`, async ({ page }) => {
		const path = `${channel.path}/posts/${postId}`;
		if (viewer === 'guest') await page.goto(path);
		else await signInMember(page, channel, viewer === 'member' ? 5 : 0, path);
		await expect(page.locator('[data-comments]')).toHaveAttribute('data-comments-loader', 'armed');
		const served = await markupOf(page, '[data-comments-root]', 'dialog');
		const items = await writtenItems(page);

		// Every kind is on the page, as this reader may see it.
		const byName = (name: string) => items.find((item) => item.commentId === ids[name]);
		expect(items.map((item) => item.commentId)).toEqual(
			['plain', 'reply', 'replyToReply', 'deleted', 'underDeleted', 'hidden', 'autoHidden', 'reported', 'own', 'mentions', 'admin'].map(
				(name) => ids[name],
			),
		);
		expect(byName('deleted')).toMatchObject({ readable: false, state: 'DELETED' });
		expect(byName('hidden')).toMatchObject({ readable: viewer === 'administrator', state: 'HIDDEN_BY_ADMIN' });
		expect(byName('autoHidden')).toMatchObject({ readable: viewer === 'administrator', state: 'HIDDEN_BY_ADMIN', autoHidden: true });
		expect(byName('replyToReply')).toMatchObject({ parentId: ids['plain'], replyTo: { commentId: ids['reply'] } });
		expect(byName('own')).toMatchObject({ edited: true });
		expect(byName('mentions')?.mentions).toHaveLength(1);
		expect(byName('admin')?.author).toMatchObject({ admin: true });
		expect(byName('reported')?.reported).toBe(viewer === 'member' ? true : undefined);
		await expect(page.locator(`#comment-${ids['mentions']} a.mention`)).toHaveCount(1);

		// The first focus in the section wakes the island, which renders over the page without a change (beside its closed dialogs).
		await page.locator('#comments-heading').focus();
		await expect(page.locator('[data-comments]')).toHaveAttribute('data-mounted', '');
		expect(await markupOf(page, '[data-comments-root]', 'dialog')).toBe(served);
		// And the island holds those items: its rules act on them (the reader's own can be edited, the reported one says so).
		if (viewer === 'member') {
			await page.locator(`[data-action="menu"][data-comment-id="${ids['reported']}"]`).click();
			await expect(page.locator(`#comment-menu-${ids['reported']} [data-menu-action="report"]`)).toHaveAttribute('aria-disabled', 'true');
			await page.keyboard.press('Escape');
			await page.locator(`[data-action="menu"][data-comment-id="${ids['own']}"]`).click();
			await expect(page.locator(`#comment-menu-${ids['own']} [data-menu-action="edit"]`)).toBeVisible();
		}
	});
}

/** The search box's markup (without the island's closed alert and the options' `selected`: the select's value is compared instead). */
async function searchMarkup(page: Page): Promise<{ html: string; searchType: string; query: string }> {
	const html = await markupOf(page, '[data-search-box]', 'dialog');
	const fields = {
		searchType: await page.locator('[data-search-box] select').inputValue(),
		query: await page.locator('[data-search-box] input').inputValue(),
	};
	return { html: html.replace(/ selected=""/g, ''), ...fields };
}

test('the search island renders the server’s search box markup over it', async ({ page }) => {
	await page.goto('/starfall/global/search?q=%3Cb%3Estar%22s&searchType=TITLE');
	const served = await searchMarkup(page);
	expect(served).toMatchObject({ searchType: 'TITLE', query: '<b>star"s' });
	await page.locator('[data-search-box]').hover();
	await expect(page.locator('[data-search-box]')).toHaveAttribute('data-search-ready', '');
	expect(await searchMarkup(page)).toEqual(served);
});
