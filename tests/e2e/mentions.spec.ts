/**
 * @ suggestions in Chromium (src/islands/mentions/): in the comment box and in the post editor, an
 * @ and two letters of another demo member's nickname list the members whose nickname starts like
 * that; the arrows and Enter pick one without sending the comment or starting a paragraph, a tap
 * picks too, Escape closes, the list is the field's combobox popup (WCAG checked while it is open),
 * stays inside a phone's viewport, and a query answered once is not asked again.
 */
import type { Page } from '@playwright/test';
import { wcagViolations } from './axe';
import { expect, test } from './test';
import { community, signInMember } from './write-helpers';
import { execute } from './fixtures';

const GLOBAL = '/starfall/global';
const POST = `${GLOBAL}/posts/10`;
const WRITE = `${GLOBAL}/write?boardId=12`;

const list = (page: Page) => page.getByRole('listbox', { name: 'Members to mention' });
const option = (page: Page, nickname: string) => list(page).getByRole('option', { name: `@${nickname}`, exact: true });
const commentBox = (page: Page) => page.locator('#comment-box-new');

/** The q of every suggestions request the page makes. */
function suggestQueries(page: Page): string[] {
	const queries: string[] = [];
	page.on('request', (request) => {
		const url = new URL(request.url());
		if (url.pathname.endsWith('/members/suggest')) queries.push(url.searchParams.get('q') ?? '');
	});
	return queries;
}

/** Signs in and wakes the comments island with a click in the box. */
async function openCommentBox(page: Page, memberIndex: number) {
	const channel = await community(GLOBAL);
	await signInMember(page, channel, memberIndex, POST);
	await expect(page.locator('[data-comments]')).toHaveAttribute('data-comments-loader', 'armed');
	await commentBox(page).click();
	await expect(page.locator('[data-comments]')).toHaveAttribute('data-mounted', '');
	await expect(commentBox(page)).toBeFocused();
	return channel;
}

test('the comment box suggests members after an @, picks by keyboard and by click, and Escape closes', async ({ page }) => {
	const queries = suggestQueries(page);
	const channel = await openCommentBox(page, 36);
	const [queasar, quiet, night] = [channel.nicknames[29]!, channel.nicknames[7]!, channel.nicknames[16]!];
	expect([queasar, quiet, night]).toEqual(['QuasarQueen', 'quietnebula', 'NightWarden']);
	const box = commentBox(page);
	const count = await page.locator('[data-comment-count]').textContent();

	await box.pressSequentially('Great work @Qu');
	await expect(option(page, queasar)).toBeVisible();
	await expect(option(page, quiet)).toBeVisible();
	// The box is the combobox of the open list.
	await expect(box).toHaveAttribute('role', 'combobox');
	await expect(box).toHaveAttribute('aria-expanded', 'true');
	const listId = await list(page).getAttribute('id');
	await expect(box).toHaveAttribute('aria-controls', listId!);
	await expect(box).toHaveAttribute('aria-activedescendant', `${listId}-0`);
	await expect(option(page, queasar)).toHaveAttribute('aria-selected', 'true');
	expect(await wcagViolations(page, '[data-comments]')).toEqual([]);

	await page.keyboard.press('ArrowDown');
	await expect(option(page, quiet)).toHaveAttribute('aria-selected', 'true');
	await expect(box).toHaveAttribute('aria-activedescendant', `${listId}-1`);
	await page.keyboard.press('ArrowUp');
	await expect(option(page, queasar)).toHaveAttribute('aria-selected', 'true');
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('Enter');
	// Enter picked: no new line, nothing sent, the caret after "@quietnebula ".
	await expect(box).toHaveValue(`Great work @${quiet} `);
	await expect(list(page)).toBeHidden();
	await expect(box).not.toHaveAttribute('aria-expanded');
	await expect(box).not.toHaveAttribute('role');
	await page.keyboard.type('thanks');
	await expect(box).toHaveValue(`Great work @${quiet} thanks`);
	await expect(page.locator('[data-toast]')).toBeHidden();
	await expect(page.locator('[data-comment-count]')).toHaveText(count!);

	// A click picks without taking the focus from the box.
	await box.pressSequentially(' and @Ni');
	await option(page, night).click();
	await expect(box).toHaveValue(`Great work @${quiet} thanks and @${night} `);
	await expect(box).toBeFocused();

	// Escape closes the list and leaves the text as it was; Tab picks like Enter.
	await box.pressSequentially('@Qu');
	await expect(option(page, queasar)).toBeVisible();
	await page.keyboard.press('Escape');
	await expect(list(page)).toBeHidden();
	await expect(box).toHaveValue(`Great work @${quiet} thanks and @${night} @Qu`);
	await box.pressSequentially('a');
	await expect(option(page, queasar)).toBeVisible();
	await page.keyboard.press('Tab');
	await expect(box).toHaveValue(`Great work @${quiet} thanks and @${night} @${queasar} `);
	await expect(box).toBeFocused();

	// Each query was asked at most once: "Qu" and "Qua" came from what the island already knew.
	expect(new Set(queries).size).toBe(queries.length);
	expect(queries).not.toContain('Qua');
	// Nothing was sent.
	await expect(page.locator('[data-comment-count]')).toHaveText(count!);
});

for (const [channelPath, prefix, expected] of [
	[GLOBAL, 'K', ['KaitoReyes', 'KesslerKid']],
	['/starfall/kr', '별', ['별똥별수집', '별헤는함장']],
] as const) {
	test(`a one-character first @${prefix}, typed before the comments island has taken over, lists its members at once`, async ({ page }) => {
		const channel = await community(channelPath);
		const [post] = execute(
			`SELECT id FROM posts WHERE channel_id = ${channel.index} AND board_id = ${channel.index * 10 + 2} AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 ORDER BY id LIMIT 1`,
		) as { id: number }[];
		// The island's module is held until the text is typed, as on a phone where the island arrives after the reader's first keys.
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		await page.route(/\/_astro\/mount\.[\w-]+\.js$/, async (route) => {
			await held;
			await route.continue();
		});
		await signInMember(page, channel, 33, `${channelPath}/posts/${post!.id}`);
		await expect(page.locator('[data-comments]')).toHaveAttribute('data-comments-loader', 'armed');
		await commentBox(page).click();
		await page.keyboard.type('@');
		await page.keyboard.insertText(prefix);
		await expect(page.locator('[data-comments]')).not.toHaveAttribute('data-mounted');
		release();
		await expect(page.locator('[data-comments]')).toHaveAttribute('data-mounted', '');
		await expect(commentBox(page)).toHaveValue(`@${prefix}`);
		// No further key: the list is there for the one character.
		for (const nickname of expected) await expect(page.getByRole('listbox').getByRole('option', { name: `@${nickname}`, exact: true })).toBeVisible();
		await page.keyboard.press('Enter');
		await expect(commentBox(page)).toHaveValue(`@${expected[0]} `);
	});
}

test.describe('on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('the list stays inside the viewport and a tap picks', async ({ page }) => {
		const channel = await openCommentBox(page, 35);
		const night = channel.nicknames[16]!;
		const box = commentBox(page);
		await box.pressSequentially('@Ni');
		await expect(option(page, night)).toBeVisible();
		const bounds = await list(page).boundingBox();
		expect(bounds).not.toBeNull();
		expect(bounds!.x).toBeGreaterThanOrEqual(0);
		expect(bounds!.y).toBeGreaterThanOrEqual(0);
		expect(bounds!.x + bounds!.width).toBeLessThanOrEqual(390);
		expect(bounds!.y + bounds!.height).toBeLessThanOrEqual(844);
		// A thumb's target: at least 36 px tall.
		expect((await option(page, night).boundingBox())!.height).toBeGreaterThanOrEqual(36);
		await option(page, night).tap();
		await expect(box).toHaveValue(`@${night} `);
		await expect(list(page)).toBeHidden();
	});
});

test('the editor suggests members after an @, picks by keyboard without a new paragraph, and Escape closes', async ({ page }) => {
	test.slow();
	const queries = suggestQueries(page);
	const channel = await community(GLOBAL);
	await signInMember(page, channel, 34, WRITE);
	const [queasar, quiet, night] = [channel.nicknames[29]!, channel.nicknames[7]!, channel.nicknames[16]!];
	const editor = page.locator('.editor-content[contenteditable="true"]');
	await expect(editor).toBeVisible();
	await editor.click();
	await page.keyboard.type('Hello @Qu');
	await expect(option(page, queasar)).toBeVisible();
	await expect(option(page, quiet)).toBeVisible();
	const listId = await list(page).getAttribute('id');
	await expect(editor).toHaveAttribute('role', 'combobox');
	await expect(editor).toHaveAttribute('aria-expanded', 'true');
	await expect(editor).toHaveAttribute('aria-controls', listId!);
	await expect(editor).toHaveAttribute('aria-activedescendant', `${listId}-0`);
	expect(await wcagViolations(page, '[data-write-form]')).toEqual([]);

	await page.keyboard.press('ArrowDown');
	await expect(option(page, quiet)).toHaveAttribute('aria-selected', 'true');
	await expect(editor).toHaveAttribute('aria-activedescendant', `${listId}-1`);
	await page.keyboard.press('Enter');
	await expect(list(page)).toBeHidden();
	await expect(editor.locator('p')).toHaveCount(1);
	await expect(editor.locator('p')).toHaveText(`Hello @${quiet} `);
	// Back to a plain text box.
	await expect(editor).toHaveAttribute('role', 'textbox');
	await expect(editor).not.toHaveAttribute('aria-expanded');
	await expect(editor).toHaveAttribute('aria-multiline', 'true');
	await page.keyboard.type('and @Ni');
	await expect(option(page, night)).toBeVisible();
	await page.keyboard.press('Escape');
	await expect(list(page)).toBeHidden();
	await page.keyboard.type('g');
	await expect(option(page, night)).toBeVisible();
	await option(page, night).click();
	await expect(editor.locator('p')).toHaveText(`Hello @${quiet} and @${night} `);
	await page.keyboard.type('!');
	await expect(editor.locator('p')).toHaveText(`Hello @${quiet} and @${night} !`);
	expect(new Set(queries).size).toBe(queries.length);
	expect(queries).not.toContain('Nig');
});
