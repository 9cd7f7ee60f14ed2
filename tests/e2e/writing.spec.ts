/**
 * Writing in Chromium: the write and edit screens, templates, categories, the title limit, Cancel,
 * the login-required modal, and Delete on the post page. Each test signs in as its own demo member
 * (rate limits and drafts are per member), and the posts it writes carry a unique mark.
 */
import { wcagViolations } from './axe';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, signInMember, writeForm } from './write-helpers';
import { signInContext } from './sessions';

const GLOBAL = '/starfall/global';

function mark(label: string): string {
	return `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** The post id the page shows after a submit. */
async function openedPostId(page: Page): Promise<number> {
	await page.waitForURL(/\/posts\/\d+$/);
	return Number(/\/posts\/(\d+)$/.exec(page.url())?.[1]);
}

test('a member writes a post, finds it in its board, All Posts and the post page, edits it and deletes it', async ({ page }) => {
	const channel = await community(GLOBAL);
	const general = boardOf(channel, 'general');
	await signInMember(page, channel, 11, `${GLOBAL}/write?boardId=${general}`);
	const form = writeForm(page);
	await expect(form.board).toHaveValue(String(general));
	const title = mark('First flight');
	await form.category.selectOption({ label: 'Questions' });
	await form.title.fill(title);
	await form.body.click();
	await page.keyboard.type('Where do I find the sky whales?');
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	const postId = await openedPostId(page);
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
	await expect(page.locator('.post-body')).toContainText('Where do I find the sky whales?');
	await expect(page.locator('[data-post-category]')).toHaveText('Questions');
	// docs/reference/product-rules.md#routes: the Write link carries the board being read, on its posts too.
	await expect(page.locator('[data-member-card]').getByRole('link', { name: 'Write' })).toHaveAttribute('href', `${GLOBAL}/write?boardId=${general}`);

	// The lists as served to the member (the context's request carries the session): no page load each.
	const titleLink = (text: string) => new RegExp(`<a class="post-title" href="${GLOBAL}/posts/${postId}"[^>]*>\\s*${text}`);
	for (const list of [`${GLOBAL}/boards/${general}`, `${GLOBAL}/boards`]) {
		// A boolean, so that a failure names the list rather than printing its whole page.
		expect(titleLink(title).test(await (await page.request.get(list)).text()), `the post's link in ${list}`).toBe(true);
	}

	await page.locator('[data-post-actions]').getByRole('link', { name: 'Edit' }).click();
	await expect(page).toHaveURL(new RegExp(`/posts/${postId}/edit$`));
	// The edit screen shows exactly what was stored.
	await expect(form.title).toHaveValue(title);
	await expect(form.category).toHaveValue((await form.category.locator('option', { hasText: 'Questions' }).getAttribute('value')) ?? '');
	await expect(form.body).toContainText('Where do I find the sky whales?');
	const edited = `${title} (found them)`;
	await form.title.fill(edited);
	await page.getByRole('button', { name: 'Save changes', exact: true }).click();
	await page.waitForURL(new RegExp(`/posts/${postId}$`));
	await expect(page.locator('[data-toast]')).toHaveText('The post has been edited.');
	await expect(page.getByRole('heading', { level: 1, name: edited })).toBeVisible();

	await page.locator('[data-post-actions]').getByRole('button', { name: 'Delete' }).click();
	const confirm = page.getByRole('dialog', { name: 'Please confirm' });
	await expect(confirm).toContainText('Delete this post?');
	await confirm.getByRole('button', { name: 'Delete' }).click();
	await expect(page.locator('[data-toast]')).toHaveText('The post has been deleted.');
	await expect(page.locator('[data-post-state="DELETED"]')).toBeVisible();
	const board = await (await page.request.get(`${GLOBAL}/boards/${general}`)).text();
	expect(new RegExp(`class="post-title" href="${GLOBAL}/posts/${postId}"`).test(board), 'a link to the deleted post in its board').toBe(false);
});

test('the title counts characters as a person does and refuses more than 100', async ({ page }) => {
	const channel = await community(GLOBAL);
	await signInMember(page, channel, 12, `${GLOBAL}/write?boardId=${boardOf(channel, 'general')}`);
	const form = writeForm(page);
	await expect(form.form.getByText('The title can be up to 100 characters long.')).toBeVisible();
	// Emoji and CJK characters count one each (code points), not by their UTF-16 length.
	await form.title.fill('🐋'.repeat(100));
	await expect(form.titleCount).toHaveText('100/100');
	await form.title.fill(`${'🐋'.repeat(100)}!`);
	await expect(form.titleCount).toHaveText('101/100');
	await form.body.click();
	await page.keyboard.type('A body');
	const posts: string[] = [];
	page.on('request', (request) => request.method() === 'POST' && request.url().endsWith('/posts') && posts.push(request.url()));
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await expect(form.title).toHaveAttribute('aria-invalid', 'true');
	await expect(form.form.getByRole('alert')).toHaveText('The title can be up to 100 characters long.');
	expect(posts).toEqual([]);
	await expect(page).toHaveURL(/\/write\?boardId=/);
});

test("a board's categories: 'None' or one of them; a board without categories says so", async ({ page }) => {
	const channel = await community(GLOBAL);
	// The administrator writes in the announcements, which take no category.
	await signInMember(page, channel, 0, `${GLOBAL}/write?boardId=${boardOf(channel, 'general')}`);
	const form = writeForm(page);
	await expect(form.category.locator('option')).toHaveText(['None', 'Discussion', 'Questions', 'Guild Recruitment', 'Feedback']);
	await expect(form.category).toHaveValue('');
	await form.board.selectOption(String(boardOf(channel, 'notice')));
	await expect(form.form.locator('[data-no-category]')).toHaveText('Unable to set the category.');
	await expect(form.form.getByRole('combobox', { name: 'Category' })).toHaveCount(0);
	const title = mark('Maintenance');
	await form.title.fill(title);
	await form.body.click();
	await page.keyboard.type('Servers restart at dawn.');
	await page.getByLabel(/^Notice/).check();
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await openedPostId(page);
	await expect(page.locator('[data-post-category]')).toHaveCount(0);
	await expect(page.locator('.notice-mark')).toBeVisible();
});

test('a member writes only where members may: no notice switch, no private or notice-only board', async ({ page }) => {
	const channel = await community(GLOBAL);
	await signInMember(page, channel, 13, `${GLOBAL}/write?boardId=${boardOf(channel, 'staff')}`);
	const form = writeForm(page);
	const offered = await form.board.locator('option').evaluateAll((options) => options.map((option) => Number((option as HTMLOptionElement).value)));
	expect(offered).not.toContain(boardOf(channel, 'staff'));
	// A board the member may not write in falls back to the first one they may.
	await expect(form.board).toHaveValue(String(offered[0]));
	await expect(page.getByLabel(/^Notice/)).toHaveCount(0);
	await expect(page.getByLabel(/^Private post/)).toBeVisible();
});

test('changing to a board with another template asks first; Cancel keeps the board and the text', async ({ page }) => {
	const channel = await community(GLOBAL);
	const guides = boardOf(channel, 'guides');
	const bugs = boardOf(channel, 'bugs');
	const template = (heading: string, item: string) =>
		JSON.stringify({
			type: 'doc',
			blocks: [
				{ type: 'heading', level: 2, children: [{ text: heading }] },
				{ type: 'list', ordered: false, items: [[{ text: item }]] },
			],
		});
	execute(`UPDATE boards SET write_template = '${template('Summary', 'Steps to reproduce')}' WHERE id = ${bugs}`);
	execute(`UPDATE boards SET write_template = '${template('Goal of the guide', 'What you need')}' WHERE id = ${guides}`);
	await signInMember(page, channel, 14, `${GLOBAL}/write?boardId=${bugs}`);
	const form = writeForm(page);
	await expect(form.body).toContainText('Summary');
	// The untouched template is no one's work: another board's template replaces it without asking.
	await form.board.selectOption(String(guides));
	await expect(form.body).toContainText('Goal of the guide');
	await form.body.click();
	await page.keyboard.press('ControlOrMeta+End');
	await page.keyboard.type(' My own notes');
	await form.board.selectOption(String(bugs));
	const confirm = page.getByRole('dialog', { name: 'Please confirm' });
	await expect(confirm).toContainText('This board has a different template.');
	await confirm.getByRole('button', { name: 'Cancel' }).click();
	await expect(form.board).toHaveValue(String(guides));
	await expect(form.body).toContainText('My own notes');
	await form.board.selectOption(String(bugs));
	await confirm.getByRole('button', { name: 'Use template' }).click();
	await expect(form.board).toHaveValue(String(bugs));
	await expect(form.body).toContainText('Summary');
	await expect(form.body).not.toContainText('My own notes');
});

test('Cancel asks when something is written, saves nothing and clears the local copy', async ({ page }) => {
	const channel = await community(GLOBAL);
	const general = boardOf(channel, 'general');
	await signInMember(page, channel, 15, `${GLOBAL}/boards/${general}`);
	await page.locator('.board-header').getByRole('link', { name: 'Write' }).click();
	await expect(page).toHaveURL(`${GLOBAL}/write?boardId=${general}`);
	const form = writeForm(page);
	await page.clock.install();
	await form.title.fill(mark('Never posted'));
	await page.clock.runFor(1500);
	expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('-editor:write')))).toHaveLength(1);
	const requests: string[] = [];
	page.on('request', (request) => request.method() !== 'GET' && requests.push(`${request.method()} ${request.url()}`));
	await page.getByRole('button', { name: 'Cancel', exact: true }).click();
	const confirm = page.getByRole('dialog', { name: 'Please confirm' });
	await expect(confirm).toContainText('Leave without saving?');
	await confirm.getByRole('button', { name: 'Cancel' }).click();
	await expect(page).toHaveURL(/\/write\?/);
	await page.getByRole('button', { name: 'Cancel', exact: true }).click();
	await confirm.getByRole('button', { name: 'Leave' }).click();
	await expect(page).toHaveURL(`${GLOBAL}/boards/${general}`);
	expect(requests).toEqual([]);
	expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('-editor:')))).toEqual([]);
});

test('the work comes back after a reload: Restore puts it back, Discard forgets it', async ({ page }) => {
	const channel = await community(GLOBAL);
	const path = `${GLOBAL}/write?boardId=${boardOf(channel, 'guides')}`;
	await signInMember(page, channel, 16, path);
	await page.clock.install();
	const form = writeForm(page);
	const title = mark('Half-written guide');
	await form.category.selectOption({ label: 'Crafting' });
	await form.title.fill(title);
	await form.body.click();
	await page.keyboard.type('Step one: gather starlight.');
	// Kept shortly after the last change (the debounce timer), before any reload.
	await page.clock.runFor(1500);
	await page.reload();
	const offer = page.locator('[data-restore-offer]');
	await expect(offer).toContainText('You have unsaved writing from');
	await expect(form.title).toHaveValue('');
	await offer.getByRole('button', { name: 'Restore' }).click();
	await expect(offer).toHaveCount(0);
	await expect(form.title).toHaveValue(title);
	await expect(form.category.locator('option:checked')).toHaveText('Crafting');
	await expect(form.body).toContainText('Step one: gather starlight.');

	await page.reload();
	await offer.getByRole('button', { name: 'Discard' }).click();
	await expect(form.title).toHaveValue('');
	await page.reload();
	await expect(form.title).toBeVisible();
	await expect(offer).toHaveCount(0);
});

test('the work is kept when the tab is hidden or closed, without waiting for the timer', async ({ page }) => {
	const channel = await community(GLOBAL);
	const path = `${GLOBAL}/write?boardId=${boardOf(channel, 'general')}`;
	await signInMember(page, channel, 17, path);
	await page.clock.install();
	const form = writeForm(page);
	const title = mark('Typed just before closing');
	await form.title.fill(title);
	await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
	const kept = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.includes('-editor:write'))?.[1] ?? '');
	expect(JSON.parse(kept).fields.title).toBe(title);
	const second = await page.context().newPage();
	await second.goto(path);
	await expect(second.locator('[data-restore-offer]')).toBeVisible();
});

test('a session that ends mid-write: the forced login returns to the editor with the text intact', async ({ page }) => {
	const channel = await community(GLOBAL);
	const general = boardOf(channel, 'general');
	const path = `${GLOBAL}/write?boardId=${general}`;
	await signInMember(page, channel, 18, path);
	const form = writeForm(page);
	const title = mark('Written while logged out');
	await form.title.fill(title);
	await form.body.click();
	await page.keyboard.type('Nothing typed is lost.');
	// The session ends on the server: logged out from elsewhere in the same browser (its cookie goes too).
	const loggedOut = await page.request.post(`/v1${GLOBAL}/auth/logout`, { headers: { origin: new URL(page.url()).origin } });
	expect(loggedOut.ok(), 'the logout').toBe(true);
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	const alert = page.locator('[data-route-error-dialog]');
	await expect(alert).toContainText('Please log in to continue.');
	await alert.getByRole('button', { name: 'Log in' }).click();
	await expect(page).toHaveURL(new RegExp(`/login\\?redirectUrl=${encodeURIComponent(path).replace(/[?]/g, '\\?')}`));
	const nickname = channel.nicknames[18] ?? '';
	await page.locator(`[data-login-form] button[value="${channel.providers[18 % channel.providers.length]}"]`).click();
	await page.getByRole('button', { name: new RegExp(`^Sign in as ${nickname}`) }).click();
	await page.waitForURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
	// Back on the editor with the work put back by itself.
	await expect(form.title).toHaveValue(title);
	await expect(form.body).toContainText('Nothing typed is lost.');
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await openedPostId(page);
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
});

test('a guest pressing Write is asked to log in first, and the login comes back to the write screen', async ({ page }) => {
	const general = 12;
	await page.goto(`${GLOBAL}/boards/${general}`);
	await page.locator('.board-header').getByRole('link', { name: 'Write' }).click();
	const modal = page.locator('[data-login-required-dialog]');
	await expect(modal).toBeVisible();
	await expect(modal).toContainText('Please log in to continue.');
	await modal.getByRole('button', { name: 'Log in' }).click();
	await expect(page).toHaveURL(`${GLOBAL}/login?redirectUrl=${encodeURIComponent(`${GLOBAL}/write?boardId=${general}`)}`);
	// Without the modal (a link opened directly) the route itself sends the guest to login (the URL after the redirect).
	const response = await page.request.get(`${GLOBAL}/write?boardId=${general}`);
	expect(response.url()).toContain(`/login?redirectUrl=${encodeURIComponent(`${GLOBAL}/write?boardId=${general}`)}`);
});

test("another member's post cannot be edited, and the page is the member's alone", async ({ page }) => {
	const channel = await community(GLOBAL);
	const [row] = execute(
		`SELECT id FROM posts WHERE channel_id = 1 AND member_id <> 1020 AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND board_id = 12 LIMIT 1`,
	) as { id: number }[];
	await signInContext(page.context(), channel, memberIdOf(channel, 19));
	// The edit page as served to the member (the context's request carries the session).
	const response = await page.request.get(`${GLOBAL}/posts/${row?.id}/edit`);
	expect(response.status()).toBe(403);
	expect(response.headers()['cache-control']).toContain('no-store');
	expect(await response.text(), 'the write form').not.toContain('data-write-form');
	await page.goto(`${GLOBAL}/posts/${row?.id}`);
	await expect(page.locator('[data-post-actions]')).toHaveCount(0);
});

test('drafts: save, count, list, load over written text after a confirm, save again in place, and delete', async ({ page }) => {
	const channel = await community(GLOBAL);
	const memberId = 1000 + 22;
	// Older drafts fill more than one page of the list (20 a page).
	execute(`DELETE FROM drafts WHERE member_id = ${memberId}`);
	const empty = JSON.stringify({ type: 'doc', blocks: [] });
	execute(
		`INSERT INTO drafts (channel_id, member_id, board_id, subject_id, title, content, created_at, updated_at) VALUES ${Array.from({ length: 21 }, (_, i) => `(1, ${memberId}, 12, NULL, ${i === 0 ? "''" : `'Older draft ${i}'`}, '${empty}', ${1e12 + i}, ${1e12 + i})`).join(', ')}`,
	);
	await signInMember(page, channel, 21, `${GLOBAL}/write?boardId=${boardOf(channel, 'general')}`);
	const form = writeForm(page);
	const draftsButton = page.locator('[data-drafts-button]');
	await expect(draftsButton).toHaveText('Drafts (21)');
	const title = mark('Draft of a raid plan');
	await form.title.fill(title);
	await form.body.click();
	await page.keyboard.type('Bring potions.');
	await page.getByRole('button', { name: 'Save draft' }).click();
	await expect(page.locator('[data-toast]')).toHaveText('Draft save successful.');
	await expect(draftsButton).toHaveText('Drafts (22)');
	// Saving again updates the same draft.
	await form.body.click();
	await page.keyboard.press('ControlOrMeta+End');
	await page.keyboard.type(' And food.');
	await page.getByRole('button', { name: 'Save draft' }).click();
	await expect(page.locator('[data-toast]')).toHaveText('Draft save successful.');
	await expect(draftsButton).toHaveText('Drafts (22)');

	await form.title.fill(mark('Something else'));
	await form.body.click();
	await page.keyboard.press('ControlOrMeta+a');
	await page.keyboard.type('Unrelated text.');
	await draftsButton.click();
	const list = page.locator('[data-drafts-dialog]');
	await expect(list.getByRole('heading')).toHaveText('Drafts 22');
	await expect(list.locator('li')).toHaveCount(20);
	await expect(list.locator('li').first()).toContainText(title);
	await list.getByRole('button', { name: 'Next page' }).click();
	await expect(list.locator('li')).toHaveCount(2);
	await expect(list.locator('li').last()).toContainText('Untitled');
	await list.getByRole('button', { name: 'Previous page' }).press('Enter');
	await expect(list.locator('li').first()).toContainText(title);
	await list.locator('li').first().getByRole('button', { name: 'Load' }).click();
	const confirm = page.getByRole('dialog', { name: 'Please confirm' });
	await expect(confirm).toContainText('Loading the draft discards what you have written.');
	await confirm.getByRole('button', { name: 'Load' }).click();
	await expect(list).toBeHidden();
	await expect(form.title).toHaveValue(title);
	await expect(form.body).toContainText('Bring potions. And food.');
	await expect(form.body).not.toContainText('Unrelated text.');

	await draftsButton.click();
	await list.locator('li').first().getByRole('button', { name: 'Delete' }).click();
	await expect(confirm).toContainText('Delete this draft?');
	await confirm.getByRole('button', { name: 'Cancel' }).click();
	await expect(list.locator('li').first()).toContainText(title);
	await list.locator('li').first().getByRole('button', { name: 'Delete' }).click();
	await confirm.getByRole('button', { name: 'Delete' }).click();
	await expect(list.locator('li').first()).not.toContainText(title);
	await expect(list.getByRole('heading')).toHaveText('Drafts 21');
	await page.keyboard.press('Escape');
	await expect(list).toBeHidden();
	await expect(draftsButton).toHaveText('Drafts (21)');
	expect(execute(`SELECT count(*) AS n FROM drafts WHERE member_id = ${memberId}`)).toEqual([{ n: 21 }]);
});

test('a bad image and a bad video link are refused in the editor and change nothing', async ({ page }) => {
	const channel = await community(GLOBAL);
	await signInMember(page, channel, 23, `${GLOBAL}/write?boardId=${boardOf(channel, 'general')}`);
	const form = writeForm(page);
	await page
		.locator('[data-editor-file-input]')
		.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>') });
	await expect(page.locator('.editor-message[role="alert"]')).toContainText('Invalid image.');
	await expect(form.body.locator('img')).toHaveCount(0);
	await page.getByRole('button', { name: 'Insert YouTube video' }).click();
	const prompt = page.locator('[data-editor-dialog="youtube"]');
	await expect(prompt.getByLabel('YouTube link')).toBeFocused();
	await page.keyboard.type('https://vimeo.com/12345');
	await page.keyboard.press('Enter');
	await expect(prompt.getByRole('alert')).toHaveText('Please enter a valid URL.');
	await prompt.getByRole('button', { name: 'Cancel' }).click();
	await expect(prompt).toBeHidden();
	await expect(form.body.locator('[data-video-id]')).toHaveCount(0);
});

for (const channelPath of ['/starfall/global', '/pixelfarm/main']) {
	test(`the write screen and its drafts dialog meet WCAG 2.2 AA in ${channelPath}`, async ({ page }) => {
		const channel = await community(channelPath);
		await signInMember(page, channel, 27, `${channelPath}/write?boardId=${boardOf(channel, 'general')}`);
		await expect(page.locator('[data-rich-editor="ready"]')).toBeVisible();
		expect(await wcagViolations(page)).toEqual([]);
		await page.locator('[data-drafts-button]').click();
		await expect(page.locator('[data-drafts-dialog]')).toBeVisible();
		expect(await wcagViolations(page)).toEqual([]);
	});
}

test('an edit from a tab opened before another edit is refused with a reload, and the reload offers the work back', async ({ page }) => {
	const channel = await community(GLOBAL);
	await signInMember(page, channel, 28, `${GLOBAL}/write?boardId=${boardOf(channel, 'general')}`);
	const form = writeForm(page);
	const title = mark('Two tabs');
	await form.title.fill(title);
	await form.body.click();
	await page.keyboard.type('First version.');
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	const postId = await openedPostId(page);
	const other = await page.context().newPage();
	await other.goto(`${GLOBAL}/posts/${postId}/edit`);
	await page.goto(`${GLOBAL}/posts/${postId}/edit`);
	await form.title.fill(`${title} from the first tab`);
	await page.getByRole('button', { name: 'Save changes', exact: true }).click();
	await page.waitForURL(new RegExp(`/posts/${postId}$`));

	const otherForm = writeForm(other);
	await otherForm.title.fill(`${title} from the second tab`);
	await other.getByRole('button', { name: 'Save changes', exact: true }).click();
	const alert = other.getByRole('dialog', { name: 'Please confirm' });
	await expect(alert).toContainText('The post was changed after you opened it.');
	await alert.getByRole('button', { name: 'Reload' }).click();
	await other.waitForLoadState('load');
	await expect(otherForm.title).toHaveValue(`${title} from the first tab`);
	await other.locator('[data-restore-offer]').getByRole('button', { name: 'Restore' }).click();
	await expect(otherForm.title).toHaveValue(`${title} from the second tab`);
});

test('a category disabled while the member writes opens the "subject disabled" alert and keeps the work', async ({ page }) => {
	const channel = await community(GLOBAL);
	await signInMember(page, channel, 29, `${GLOBAL}/write?boardId=${boardOf(channel, 'fanart')}`);
	const form = writeForm(page);
	await form.category.selectOption({ index: 3 });
	const subjectId = Number(await form.category.inputValue());
	await form.title.fill(mark('Cosplay'));
	await form.body.click();
	await page.keyboard.type('My costume.');
	execute(`UPDATE board_subjects SET enabled = 0 WHERE id = ${subjectId}`);
	try {
		await page.getByRole('button', { name: 'Post', exact: true }).click();
		const alert = page.getByRole('dialog', { name: 'Notice' });
		await expect(alert).toContainText('This category of the board is disabled.');
		await alert.getByRole('button', { name: 'OK' }).click();
		await expect(page).toHaveURL(/\/write\?/);
		await expect(form.body).toContainText('My costume.');
	} finally {
		execute(`UPDATE board_subjects SET enabled = 1 WHERE id = ${subjectId}`);
	}
});

test('a banned member opening the write screen gets the ban, not the form', async ({ page }) => {
	const channel = await community(GLOBAL);
	// The seed's temporarily banned member (the 38th).
	await signInMember(page, channel, 37, `${GLOBAL}/write?boardId=${boardOf(channel, 'general')}`);
	await expect(page.getByRole('region', { name: 'Access restricted' })).toContainText('Your access to this community is restricted until');
	await expect(page.locator('[data-write-form]')).toHaveCount(0);
});
