/**
 * Template guidance in Chromium (docs/reference/template-guidance.md): the bug-report
 * board's template shows its guidance as greyed hints in empty lines, which are not text of the
 * post; a writer who fills in only one part publishes that part and the template's headings, and
 * no hint; a body of nothing but guidance is refused with "Please enter the content."; a Korean IME
 * composes into a guidance line. Pixel Farm (its dark theme) at a phone's size and a desktop's, and
 * starfall/kr on a phone; no other test changes these bug-report boards.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, signInFreshMember, signInMember, writeForm } from './write-helpers';

const FARM = '/pixelfarm/main';
const HINTS = [
	'Sorry something broke on your farm! Fill in each part below so we can find it.',
	'What went wrong, in one sentence.',
	'What you did, one step per line, up to the moment it happened.',
	'What should have happened.',
	'What happened instead (error messages, screenshots).',
	'Your platform (PC, Switch, iOS or Android), the game version (Settings > About), and whether you play alone or in co-op.',
];

/** The hint a guidance line shows (its ::before), or '' when it shows none. */
function shownHint(line: Locator): Promise<string> {
	return line.evaluate((element) => {
		const content = getComputedStyle(element, '::before').content;
		return content === 'none' || content === 'normal' ? '' : (JSON.parse(content) as string);
	});
}

/** The contrast of the hint's colour with the editor's background (WCAG's ratio). */
function hintContrast(line: Locator): Promise<number> {
	return line.evaluate((element) => {
		const parse = (value: string): number[] => {
			const srgb = /color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)/.exec(value);
			if (srgb) return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255, 1];
			const rgb = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(value);
			if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
			throw new Error(`Unread colour ${value}`);
		};
		let background = [255, 255, 255];
		for (let node: Element | null = element; node; node = node.parentElement) {
			const colour = parse(getComputedStyle(node).backgroundColor);
			if (colour[3] === 1) {
				background = colour;
				break;
			}
		}
		const luminance = ([r, g, b]: number[]) => {
			const channel = (value: number) => ((value /= 255) <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4);
			return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
		};
		const [light, dark] = [luminance(parse(getComputedStyle(element, '::before').color)), luminance(background)].sort((a, b) => b - a);
		return (light! + 0.05) / (dark! + 0.05);
	});
}

/** The write screen of Pixel Farm's bug reports (or guides) as the demo member at `member`, or as a member made for the test. */
async function openBugReport(page: Page, member: number | 'fresh', board: 'bugs' | 'guides' = 'bugs') {
	const channel = await community(FARM);
	const path = `${FARM}/write?boardId=${boardOf(channel, board)}`;
	if (member === 'fresh') await signInFreshMember(page, channel, 'Hull', path);
	else await signInMember(page, channel, member, path);
	const form = writeForm(page);
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	return form;
}

for (const size of [
	{ name: 'a phone', width: 390, height: 844 },
	{ name: 'a desktop', width: 1440, height: 900 },
]) {
	test(`on ${size.name}, the bug report's guidance shows as hints and only what the writer filled in is published`, async ({ page }) => {
		await page.setViewportSize({ width: size.width, height: size.height });
		const form = await openBugReport(page, size.width < 600 ? 27 : 28);
		await expect(page.locator('html')).toHaveAttribute('data-theme', 'DARK');
		const lines = form.body.locator('.editor-guidance');
		await expect(lines).toHaveCount(HINTS.length);
		for (const [index, hint] of HINTS.entries()) expect(await shownHint(lines.nth(index))).toBe(hint);
		// The hints are not text of the post: the editor's text is the headings and the device's labels.
		await expect(form.body).not.toContainText('one sentence');
		await expect(form.body).toContainText('Summary');
		expect(await hintContrast(lines.nth(1))).toBeGreaterThanOrEqual(4.5);
		// A hint longer than its line makes the line taller rather than running into the heading below.
		const device = lines.nth(HINTS.length - 1);
		const [deviceBox, listBox] = [await device.boundingBox(), await form.body.locator('ul').last().boundingBox()];
		expect(deviceBox!.y + deviceBox!.height).toBeLessThanOrEqual(listBox!.y + 1);
		if (size.width < 600) expect(deviceBox!.height).toBeGreaterThan(40);

		// The writer fills in the summary only: typing there replaces the hint.
		await lines.nth(1).click();
		await page.keyboard.type('The barn door will not open after the storm.');
		expect(await shownHint(lines.nth(1))).toBe('');
		await expect(form.body).toContainText('The barn door will not open after the storm.');
		const title = `Barn door ${Date.now().toString(36)}`;
		await form.title.fill(title);
		await page.getByRole('button', { name: 'Post', exact: true }).click();
		// The sections left empty are named first; the writer publishes anyway.
		const dialog = page.locator('dialog.alert-dialog[open]');
		await expect(dialog.locator('li')).toHaveText(['Steps to reproduce', 'Expected result', 'Actual result', 'Device and version']);
		await dialog.getByRole('button', { name: 'Publish anyway' }).click();
		await page.waitForURL(/\/posts\/\d+$/);
		const body = page.locator('.post-body');
		await expect(body).toContainText('The barn door will not open after the storm.');
		await expect(body.locator('h2')).toHaveText(['Summary', 'Steps to reproduce', 'Expected result', 'Actual result', 'Device and version']);
		const published = (await body.textContent()) ?? '';
		for (const hint of HINTS) expect(published).not.toContain(hint);
	});
}

test('a body of nothing but guidance is refused with "Please enter the content." and nothing is posted', async ({ page }) => {
	const channel = await community(FARM);
	const guides = boardOf(channel, 'guides');
	const onlyGuidance = JSON.stringify({
		type: 'doc',
		blocks: [{ type: 'guidance', hint: 'Which season and which part of the farm this guide is about, then each step, one per line.', children: [] }],
	});
	const previous = execute(`SELECT write_template FROM boards WHERE id = ${guides}`, channel) as { write_template: string }[];
	execute(`UPDATE boards SET write_template = '${onlyGuidance}' WHERE id = ${guides}`, channel);
	try {
		const form = await openBugReport(page, 29, 'guides');
		await expect(form.body.locator('.editor-guidance')).toHaveCount(1);
		// One guidance line shows its hint, not the editor's own placeholder over it.
		await expect(page.locator('.editor-placeholder')).toBeHidden();
		await form.title.fill('Only the hints');
		await page.getByRole('button', { name: 'Post', exact: true }).click();
		await expect(page.locator('[data-write-form] .field-error[role="alert"]')).toHaveText('Please enter the content.');
		await expect(page).toHaveURL(new RegExp(`/write\\?boardId=${guides}$`));
		// The hint is still there to fill in.
		await expect(form.body.locator('.editor-guidance')).toHaveCount(1);
		expect(execute("SELECT count(*) AS n FROM posts WHERE title = 'Only the hints'", channel)).toEqual([{ n: 0 }]);
	} finally {
		execute(`UPDATE boards SET write_template = '${(previous[0]?.write_template ?? 'null').replace(/'/g, "''")}' WHERE id = ${guides}`, channel);
	}
});

test('a Korean IME composes into a guidance line, which then holds the text and no hint', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 });
	const channel = await community('/starfall/kr');
	await signInMember(page, channel, 23, `/starfall/kr/write?boardId=${boardOf(channel, 'bugs')}`);
	const form = writeForm(page, { board: '게시판', category: '말머리', title: '제목', body: '내용' });
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	const summary = page.locator('.editor-guidance').nth(1);
	expect(await shownHint(summary)).toBe('어떤 문제인지 한 문장으로 적어 주세요.');
	await summary.click();
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Input.imeSetComposition', { text: 'ㅇ', selectionStart: 1, selectionEnd: 1 });
	await cdp.send('Input.imeSetComposition', { text: '아', selectionStart: 1, selectionEnd: 1 });
	await cdp.send('Input.imeSetComposition', { text: '앱', selectionStart: 1, selectionEnd: 1 });
	await cdp.send('Input.insertText', { text: '앱' });
	await page.keyboard.type('이 멈춰요');
	await expect(summary).toHaveText('앱이 멈춰요');
	expect(await shownHint(summary)).toBe('');
	await expect(form.body.locator('p', { hasText: '앱이 멈춰요' })).toHaveCount(1);
});

test.describe('on a phone (390×844, touch)', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

	test('skipped sections are named before publishing, and on Edit a tap under an empty heading writes under it, never into the next heading', async ({
		page,
	}) => {
		const form = await openBugReport(page, 'fresh');
		const lines = form.body.locator('.editor-guidance');
		const title = `Hull ${Date.now().toString(36)}`;
		await form.title.fill(title);
		for (const [index, text] of [
			[1, 'The hull turns black after a storm.'],
			[2, 'Sail into a storm.'],
			[3, 'The hull stays brown.'],
		] as const) {
			await lines.nth(index).click();
			await page.keyboard.type(text);
		}
		// "Actual result" and "Device and version" (its labels left as they are) are left empty.
		await page.getByRole('button', { name: 'Post', exact: true }).click();
		const dialog = page.locator('dialog.alert-dialog[open]');
		await expect(dialog.getByRole('heading')).toHaveText('Some parts are empty');
		await expect(dialog.locator('li')).toHaveText(['Actual result', 'Device and version']);
		await expect(dialog.getByRole('button')).toHaveText(['Go back', 'Publish anyway']);
		const box = (await dialog.boundingBox())!;
		expect(box.x).toBeGreaterThanOrEqual(0);
		expect(box.y).toBeGreaterThanOrEqual(0);
		expect(box.x + box.width).toBeLessThanOrEqual(390);
		expect(box.y + box.height).toBeLessThanOrEqual(844);
		// The keyboard: Escape goes back, with the caret in the first empty section.
		await page.keyboard.press('Escape');
		await expect(dialog).toHaveCount(0);
		await page.keyboard.type('Turns');
		await expect(lines.nth(4)).toHaveText('Turns');
		for (let i = 0; i < 'Turns'.length; i += 1) await page.keyboard.press('Backspace');
		await expect(lines.nth(4)).toHaveText('');
		expect(await page.evaluate(() => location.pathname)).toMatch(/\/write$/);

		// Publish anyway, with the keyboard (the button has the focus).
		await page.getByRole('button', { name: 'Post', exact: true }).click();
		await expect(dialog.locator('li')).toHaveText(['Actual result', 'Device and version']);
		await expect(dialog.getByRole('button', { name: 'Publish anyway' })).toBeFocused();
		await page.keyboard.press('Enter');
		await page.waitForURL(/\/posts\/\d+$/);
		const postPath = new URL(page.url()).pathname;

		// Edit: the empty sections show their hints again, in lines of their own under the headings.
		await page.goto(`${postPath}/edit`);
		await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
		const headings = form.body.locator('h2');
		await expect(headings).toHaveText(['Summary', 'Steps to reproduce', 'Expected result', 'Actual result', 'Device and version']);
		await headings.nth(4).scrollIntoViewIfNeeded();
		const actual = (await headings.nth(3).boundingBox())!;
		const device = (await headings.nth(4).boundingBox())!;
		// A tap under "Actual result", halfway to the next heading.
		await page.touchscreen.tap(actual.x + 40, (actual.y + actual.height + device.y) / 2);
		await page.keyboard.type('The hull turns black.');
		await expect(headings).toHaveText(['Summary', 'Steps to reproduce', 'Expected result', 'Actual result', 'Device and version']);
		await expect(form.body.locator('h2:has-text("Actual result") + p')).toHaveText('The hull turns black.');

		await page.getByRole('button', { name: 'Save changes', exact: true }).click();
		await expect(dialog.locator('li')).toHaveText(['Device and version']);
		await dialog.getByRole('button', { name: 'Save anyway' }).click();
		await page.waitForURL(new RegExp(`${postPath}$`));
		const body = page.locator('.post-body');
		await expect(body.locator('h2')).toHaveText(['Summary', 'Steps to reproduce', 'Expected result', 'Actual result', 'Device and version']);
		await expect(body.locator('h2:has-text("Actual result") + p')).toHaveText('The hull turns black.');
		// The stored body: a paragraph under the heading, the headings as they were, no guidance.
		const [row] = execute(`SELECT content FROM posts WHERE title = '${title}'`, await community(FARM)) as { content: string }[];
		const blocks = (JSON.parse(row!.content) as { blocks: { type: string; children?: { text: string }[] }[] }).blocks;
		const at = blocks.findIndex((block) => block.type === 'heading' && block.children?.[0]?.text === 'Actual result');
		expect(blocks[at + 1]).toEqual({ type: 'paragraph', children: [{ text: 'The hull turns black.' }] });
		expect(blocks[at + 2]).toEqual({ type: 'heading', level: 2, children: [{ text: 'Device and version' }] });
		expect(blocks.some((block) => block.type === 'guidance')).toBe(false);
	});
});
