/**
 * A reader's and a writer's journeys through a demo community, as a person walks them: shared by
 * the phone journeys spec (which checks what is on the screen at every step) and `npm run
 * screenshots` (which photographs every step). Each journey calls `step(name)` once the screen of
 * that step is settled; the keyboard checks of the drawer and the image viewer are part of the walk.
 * Elements are found by role, data attribute and structure, not by their texts, so that the
 * journeys hold in the four languages and through changes of wording.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { execute } from './fixtures';
import { chooseMember } from './sign-in-helpers';
import { boardOf, type Community } from './write-helpers';

/** Called at each step of a journey, on a settled screen. */
export type Step = (name: string) => Promise<void>;

/** The demo member who writes: the seed's seventh, whom no other test bans or renames (phone-layout.spec.ts signs in as them too). */
const WRITER = 6;

/** The demo communities, from the seed (the directory at / must list the same). */
export async function demoCommunities(): Promise<string[]> {
	const { DEMO_CHANNELS } = await import('../../scripts/seed/demo.mjs');
	return DEMO_CHANNELS.map((channel) => `/${channel.domain}/${channel.slug}`);
}

/** Whether the page is laid out for a phone: the header has the board drawer's button. */
function isPhone(page: Page): Promise<boolean> {
	return page.locator('[data-drawer-button]').isVisible();
}

/** Presses Tab until `target` has the focus, opening a closed disclosure (a tree category) that holds it on the way. */
async function tabTo(page: Page, target: Locator, most = 40): Promise<void> {
	for (let press = 0; press < most; press += 1) {
		await page.keyboard.press('Tab');
		if (await target.evaluate((element) => element === document.activeElement)) return;
		const opensTarget = await target.evaluate((element) => {
			const summary = document.activeElement;
			const details = summary?.parentElement;
			return summary?.tagName === 'SUMMARY' && details instanceof HTMLDetailsElement && !details.open && details.contains(element);
		});
		if (opensTarget) await page.keyboard.press('Enter');
	}
	throw new Error(`${String(target)} not reached in ${most} presses of Tab`);
}

/** Whether the focus is inside `container`. */
function focusInside(container: Locator): Promise<boolean> {
	return container.evaluate((element) => element.contains(document.activeElement));
}

/** A public post of the board with an image and comments, listed on the board's first page if one is. */
function imagePostOf(channel: Community, boardId: number, listed: number[]): number {
	const rows = execute(
		`SELECT id FROM posts WHERE channel_id = ${channel.index} AND board_id = ${boardId} AND has_image = 1 AND comment_count > 0
		 AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND board_seq IS NOT NULL ORDER BY board_seq DESC LIMIT 50`,
	) as { id: number }[];
	const post = rows.find((row) => listed.includes(row.id)) ?? rows[0];
	if (!post) throw new Error(`${channel.path} has no image post with comments in board ${boardId}`);
	return post.id;
}

/** The longest word of a title, cut to the search box's 20 characters: what a reader would search for. */
function keywordOf(title: string, language: string): string {
	const words = [...new Intl.Segmenter(language, { granularity: 'word' }).segment(title)]
		.filter((part) => part.isWordLike)
		.map((part) => part.segment);
	const longest = words.sort((a, b) => [...b].length - [...a].length)[0] ?? title;
	return [...longest].slice(0, 20).join('');
}

/**
 * The reader: the directory → the community → the board drawer, by keyboard on a phone (the
 * sidebar's tree on a desktop), to the media board → a post with an image → the image viewer, by
 * keyboard → the comments (and a comment's menu) → the footer's channel switcher → a search.
 */
export async function readingJourney(page: Page, channel: Community, step: Step): Promise<void> {
	await page.goto('/');
	const entry = page.locator(`a[data-community="${channel.path}"]`);
	await expect(entry).toBeVisible();
	await step('directory');

	await entry.click();
	await expect(page).toHaveURL(new RegExp(`${channel.path}/boards`));
	await expect(page.locator('.post-list').first()).toBeVisible();
	await step('home');

	const boardId = boardOf(channel, 'fanart');
	const boardPath = `${channel.path}/boards/${boardId}`;
	if (await isPhone(page)) {
		// The drawer by keyboard: Tab reaches its button, Enter opens it with the focus inside, Esc
		// closes it with the focus back on the button; then Tab through the tree to the board.
		const button = page.locator('[data-drawer-button]');
		const drawer = page.locator('dialog[data-drawer]');
		await page.locator('body').focus();
		await tabTo(page, button);
		await page.keyboard.press('Enter');
		await expect(drawer).toBeVisible();
		expect(await focusInside(drawer), 'the focus moves into the drawer').toBe(true);
		await step('drawer');
		await page.keyboard.press('Escape');
		await expect(drawer).toBeHidden();
		await expect(button).toBeFocused();
		await page.keyboard.press('Enter');
		await expect(drawer).toBeVisible();
		await tabTo(page, drawer.locator(`a[href="${boardPath}"]`));
		await page.keyboard.press('Enter');
	} else {
		// The sidebar's tree: a closed category holding the board is opened first.
		const link = page.locator(`.sidebar [data-board-tree] a[href="${boardPath}"]`);
		if (!(await link.isVisible()))
			await page
				.locator('.sidebar [data-board-tree] details:not([open])')
				.filter({ has: page.locator(`a[href="${boardPath}"]`) })
				.locator('summary')
				.first()
				.click();
		await link.click();
	}
	await expect(page).toHaveURL(new RegExp(`${boardPath}$`));
	await expect(page.getByRole('dialog')).toBeHidden();
	await step('board');

	const listed = (await page
		.locator('.post-list .post-row[data-post-id]')
		.evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-post-id'))))) as number[];
	const postId = imagePostOf(channel, boardId, listed);
	const postPath = `${channel.path}/posts/${postId}`;
	if (listed.includes(postId)) await page.locator(`.post-row[data-post-id="${postId}"] a[href="${postPath}"]`).first().click();
	else await page.goto(postPath);
	await expect(page).toHaveURL(new RegExp(`${postPath}$`));
	const title = (await page.getByRole('heading', { level: 1 }).first().textContent())?.trim() ?? '';
	await expect(page.locator('.post-body')).toBeVisible();
	await step('post');

	// The image viewer by keyboard: Enter on the image opens it with the focus inside; Esc closes it
	// and gives the focus back to the image.
	const image = page.locator('.post-body a.content-image-link').first();
	if ((await image.count()) > 0) {
		await image.focus();
		await page.keyboard.press('Enter');
		const viewer = page.locator('dialog[data-image-viewer]');
		await expect(viewer).toBeVisible();
		await expect(viewer.locator('[data-image-viewer-image]')).toHaveJSProperty('complete', true);
		expect(await focusInside(viewer), 'the focus moves into the viewer').toBe(true);
		await step('viewer');
		await page.keyboard.press('Escape');
		await expect(viewer).toBeHidden();
		await expect(image).toBeFocused();
	}

	const comments = page.locator('[data-comments]');
	await comments.scrollIntoViewIfNeeded();
	await expect(comments.locator('li.comment').first()).toBeVisible();
	await expect(comments).toHaveAttribute('data-comments-loader', 'armed');
	await step('comments');
	const menuButton = comments.locator('.comment-menu-button').first();
	if (await menuButton.isVisible()) {
		await menuButton.click();
		const menu = comments.getByRole('menu').first();
		await expect(menu).toBeVisible();
		await step('comment-menu');
		await page.keyboard.press('Escape');
		await expect(menu).toBeHidden();
	}

	const switcher = page.locator('[data-channel-switcher]');
	if ((await switcher.count()) > 0) {
		await switcher.locator('summary').click();
		await expect(switcher.locator('ul')).toBeVisible();
		await step('channel-switcher');
		await switcher.locator('summary').click();
	}

	const keyword = keywordOf(title, channel.language);
	await page.locator('#search-q').click();
	await page.locator('#search-q').fill(keyword);
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(new RegExp(`${channel.path}/search\\?`));
	await expect(page.locator('.post-list .post-row').first()).toBeVisible();
	await step('search');
}

/**
 * The writer (where the community offers a sign-in): the login page → the local provider → the
 * board's Write → the write page, its text area in the first screen → a short post, published and
 * shown → a comment on it, shown → the comment's own menu.
 */
export async function writingJourney(page: Page, channel: Community, step: Step): Promise<void> {
	const nickname = channel.nicknames[WRITER];
	const provider = channel.providers[WRITER % channel.providers.length];
	if (!nickname || !provider) throw new Error(`${channel.path} has no demo member who can sign in`);
	const boardPath = `${channel.path}/boards/${boardOf(channel, 'general')}`;
	await page.goto(`${channel.path}/login?redirectUrl=${encodeURIComponent(boardPath)}`);
	const login = page.locator('[data-login-form]');
	await expect(login).toBeVisible();
	await step('login');
	await login.locator(`button[value="${provider}"]`).click();
	await chooseMember(page, nickname);
	await expect(page).toHaveURL(new RegExp(`${boardPath}$`));
	await expect(page.locator('[data-member-nickname]').first()).toHaveText(nickname);

	await page.locator('.board-header a[data-write]').click();
	await expect(page).toHaveURL(new RegExp(`${channel.path}/write\\?`));
	const editable = page.locator('[data-rich-editor="ready"] [contenteditable="true"]');
	await expect(editable).toBeVisible();
	// The text area starts on the first screen: its top, with room for a line, above the fold.
	const viewport = page.viewportSize();
	const area = await page.locator('.editor-content').boundingBox();
	expect(area && viewport && area.y + 28 <= viewport.height, `the text area starts at ${area?.y} in a ${viewport?.height} px screen`).toBe(true);
	await step('write');

	const form = page.locator('[data-write-form]');
	const title = `Journey ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
	await form.locator('input[name="title"]').fill(title);
	await editable.click();
	await page.keyboard.type('Written on the way home.');
	await step('write-filled');
	await form.locator('button[type="submit"]').click();
	await page.waitForURL(/\/posts\/\d+$/);
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
	await expect(page.locator('.post-body')).toContainText('Written on the way home.');
	await step('published');

	const comments = page.locator('[data-comments]');
	await expect(comments).toHaveAttribute('data-comments-loader', 'armed');
	const text = `Replying from the bus ${Date.now().toString(36)}`;
	const box = page.locator('#comment-box-new');
	await box.scrollIntoViewIfNeeded();
	await box.click();
	await box.fill(text);
	await comments.locator('[data-comment-form="new"] button[type="submit"]').click();
	const mine = comments.locator('li.comment').filter({ hasText: text });
	await expect(mine).toBeVisible();
	await step('commented');
	await mine.locator('.comment-menu-button').first().click();
	const menu = mine.getByRole('menu').first();
	await expect(menu).toBeVisible();
	await step('my-comment-menu');
	await page.keyboard.press('Escape');
	await expect(menu).toBeHidden();
}
