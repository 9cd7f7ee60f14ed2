/**
 * Edit history on a phone (390×844), in English and Korean: a post edited after the 5-minute grace
 * period shows "edited" beside its date (a <time> whose title is the absolute time), and the mark
 * opens a dialog, inside the viewport and used by keyboard, that lists the earlier version; a post
 * edited within the grace period shows no mark. A member's own edit of a comment older than the grace
 * period marks it at once, and its dialog lists the text it replaced. The times are the rows' own
 * (written with chosen timestamps), never waited for.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, signInMember, type Community } from './write-helpers';

const PHONE = { width: 390, height: 844 };
const MINUTE = 60_000;

const TEXTS = {
	'/starfall/global': { edited: '(edited)', heading: 'Earlier versions', close: 'Close', version: 'Version of', lastEdited: 'Last edited' },
	'/starfall/kr': { edited: '(수정됨)', heading: '이전 버전', close: '닫기', version: '버전', lastEdited: '마지막 수정:' },
} as const;

function mark(label: string): string {
	return `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

const doc = (text: string) => JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });

/**
 * A post of the general board written an hour ago and edited at `editedAt`, with the revision that
 * edit stored when it came after the grace period (as src/server/revisions/revisions.ts writes it).
 */
function editedPost(channel: Community, editedAt: number): { postId: number; path: string; before: string; after: string } {
	const created = Date.now() - 60 * MINUTE;
	const before = mark('Before the edit');
	const after = mark('After the edit');
	const author = memberIdOf(channel, 20);
	const [post] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at, edited_at)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${author}, '${after}', '${doc(after)}', '${after}', ${created}, ${created + editedAt}) RETURNING id`,
	) as { id: number }[];
	if (editedAt > 5 * MINUTE) {
		execute(
			`INSERT INTO revisions (channel_id, content_type, content_id, member_id, title, content, written_at, replaced_at)
			 VALUES (${channel.index}, 'POST', ${post!.id}, ${author}, '${before}', '${before} body', ${created}, ${created + editedAt})`,
		);
	}
	return { postId: post!.id, path: `${channel.path}/posts/${post!.id}`, before, after };
}

const dialog = (page: Page) => page.locator('[data-revisions-dialog]');

/** The dialog fits the viewport. */
async function expectInViewport(page: Page): Promise<void> {
	const box = await dialog(page).boundingBox();
	expect(box).not.toBeNull();
	expect(box!.x).toBeGreaterThanOrEqual(0);
	expect(box!.y).toBeGreaterThanOrEqual(0);
	expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
	expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

for (const path of ['/starfall/global', '/starfall/kr'] as const) {
	test(`a post edited after the grace period shows "edited" and its earlier version, by keyboard, on a phone (${path})`, async ({ page }) => {
		const channel = await community(path);
		const texts = TEXTS[path];
		await page.setViewportSize(PHONE);

		// Edited within the grace period: no mark, and no dialog on the guest's page.
		const quiet = editedPost(channel, 2 * MINUTE);
		await page.goto(quiet.path);
		await expect(page.locator('.post-title')).toHaveText(quiet.after);
		await expect(page.locator('.post-meta [data-revisions]')).toHaveCount(0);
		await expect(dialog(page)).toHaveCount(0);

		const edited = editedPost(channel, 30 * MINUTE);
		await page.goto(edited.path);
		const markButton = page.locator('.post-meta').getByRole('button', { name: texts.edited });
		await expect(markButton).toBeVisible();
		const time = markButton.locator('time');
		const editedAt = Number((execute(`SELECT edited_at FROM posts WHERE id = ${edited.postId}`) as { edited_at: number }[])[0]!.edited_at);
		await expect(time).toHaveAttribute('datetime', new Date(editedAt).toISOString());
		await expect(time).toHaveAttribute('title', /^\d{4}\.\d{2}\.\d{2} \d{2}:\d{2}$/);
		expect((await markButton.boundingBox())!.height).toBeGreaterThanOrEqual(24);

		await markButton.focus();
		await page.keyboard.press('Enter');
		await expect(dialog(page)).toBeVisible();
		await expect(dialog(page).getByRole('heading', { name: texts.heading })).toBeVisible();
		// The mark's time, which a phone cannot hover, heads the list.
		await expect(dialog(page).locator('[data-revisions-edited]')).toHaveText(`${texts.lastEdited} ${await time.getAttribute('title')}`);
		const items = dialog(page).locator('[data-revisions-list] > li');
		await expect(items).toHaveCount(1);
		await expect(items.first().locator('.revision-title')).toHaveText(edited.before);
		await expect(items.first().locator('.revision-text')).toHaveText(`${edited.before} body`);
		await expect(items.first().locator('.revision-time')).toContainText(texts.version);
		await expectInViewport(page);
		await page.keyboard.press('Escape');
		await expect(dialog(page)).toBeHidden();
		await expect(markButton).toBeFocused();

		// Close, pressed by keyboard, closes it too.
		await page.keyboard.press('Enter');
		await expect(dialog(page)).toBeVisible();
		await dialog(page).getByRole('button', { name: texts.close }).focus();
		await page.keyboard.press('Enter');
		await expect(dialog(page)).toBeHidden();
	});
}

test('a member edits their comment after the grace period: it shows "edited" at once, and its earlier text', async ({ page }) => {
	const channel = await community('/starfall/global');
	await page.setViewportSize(PHONE);
	const [post] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, 21)}, '${mark('Comment history')}', '${doc('A post')}', 'A post', ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	const first = mark('The first words');
	// Written ten minutes ago: past the grace period.
	execute(
		`INSERT INTO comments (channel_id, post_id, member_id, content, created_at)
		 VALUES (${channel.index}, ${post!.id}, ${memberIdOf(channel, 22)}, '${first}', ${Date.now() - 10 * MINUTE})`,
	);
	execute(`UPDATE posts SET comment_count = 1 WHERE id = ${post!.id}`);
	await signInMember(page, channel, 22, `${channel.path}/posts/${post!.id}`);
	const section = page.locator('[data-comments]');
	await expect(section).toHaveAttribute('data-comments-loader', 'armed');
	const comment = section.locator('li.comment').filter({ hasText: first });
	await expect(comment.locator('.edited')).toHaveCount(0);
	await comment.locator('.comment-menu-button').click();
	await comment.getByRole('menuitem', { name: 'Edit' }).click();
	const box = section.getByRole('textbox', { name: 'Edit your comment' });
	const second = mark('The second words');
	await box.fill(second);
	await section.getByRole('button', { name: 'Save', exact: true }).click();
	const edited = section.locator('li.comment').filter({ hasText: second });
	const markButton = edited.getByRole('button', { name: '(edited)' });
	await expect(markButton).toBeVisible();
	await markButton.click();
	await expect(dialog(page).locator('[data-revisions-list] > li .revision-text')).toHaveText([first]);
	await expectInViewport(page);
	await page.keyboard.press('Escape');
	await expect(markButton).toBeFocused();
});
