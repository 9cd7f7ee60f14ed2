/**
 * My Page's drafts tab: the member's drafts, newest first, each opening the write
 * screen with it; saving there overwrites that draft rather than adding one.
 */
import { expect, test } from './test';
import { execute } from './fixtures';
import { community, memberIdOf, signInMember, writeForm } from './write-helpers';
import { signInContext } from './sessions';

const GLOBAL = '/starfall/global';

test('the drafts tab lists the drafts and opens one in the write screen, where saving keeps it one draft', async ({ page }) => {
	const channel = await community(GLOBAL);
	const memberId = memberIdOf(channel, 22);
	const doc = (text: string) => JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });
	execute(`DELETE FROM drafts WHERE member_id = ${memberId}`);
	execute(
		`INSERT INTO drafts (channel_id, member_id, board_id, subject_id, title, content, created_at, updated_at) VALUES
		 (1, ${memberId}, 12, NULL, 'Tab draft older', '${doc('Older body')}', ${1e12}, ${1e12}),
		 (1, ${memberId}, 12, NULL, 'Tab draft newest', '${doc('Newest body text')}', ${1e12 + 5}, ${1e12 + 5})`,
	);
	await signInMember(page, channel, 22, `${GLOBAL}/mypage`);
	await page.getByRole('link', { name: 'Drafts' }).click();
	await expect(page).toHaveURL(/\/mypage\?tab=drafts$/);
	const items = page.locator('[data-draft-id]');
	await expect(items).toHaveCount(2);
	await expect(items.first()).toContainText('Tab draft newest');
	await expect(page.locator('.my-drafts-count')).toHaveText('2 of 100 drafts kept');

	await items.first().getByRole('link').click();
	await expect(page).toHaveURL(/\/write\?draftId=\d+$/);
	const form = writeForm(page);
	await expect(form.title).toHaveValue('Tab draft newest');
	await expect(form.body).toContainText('Newest body text');
	await form.title.fill('Tab draft newest, edited');
	await page.getByRole('button', { name: 'Save draft' }).click();
	await expect(page.locator('[data-toast]')).toHaveText('Draft save successful.');
	await expect(page.locator('[data-drafts-button]')).toHaveText('Drafts (2)');
	const [row] = execute(`SELECT count(*) AS n, max(title) AS title FROM drafts WHERE member_id = ${memberId} AND title LIKE 'Tab draft newest%'`) as {
		n: number;
		title: string;
	}[];
	expect(row).toEqual({ n: 1, title: 'Tab draft newest, edited' });
});

test("another member's draft, or none, is not found from the write screen", async ({ page }) => {
	const channel = await community(GLOBAL);
	const [other] = execute(`SELECT id FROM drafts WHERE member_id <> ${memberIdOf(channel, 23)} AND channel_id = 1 LIMIT 1`) as { id: number }[];
	// A minted session, straight to the pages looked at.
	await signInContext(page.context(), channel, memberIdOf(channel, 23));
	for (const id of [other?.id ?? 1, 987654321, 'abc']) {
		const answer = await page.goto(`${GLOBAL}/write?draftId=${id}`);
		expect(answer?.status(), String(id)).toBe(404);
		await expect(page.locator('[data-write-form]')).toHaveCount(0);
	}
});

test('posting from a draft removes the draft; a draft deleted meanwhile does not stop the post', async ({ page }) => {
	const channel = await community(GLOBAL);
	const memberId = memberIdOf(channel, 8);
	const doc = (text: string) => JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });
	const drafts = () => execute(`SELECT title FROM drafts WHERE member_id = ${memberId} ORDER BY id`) as { title: string }[];
	const mark = `${test.info().repeatEachIndex}-${test.info().retry}-${Math.floor(Math.random() * 1e9).toString(36)}`;
	execute(`DELETE FROM drafts WHERE member_id = ${memberId}`);
	execute(
		`INSERT INTO drafts (channel_id, member_id, board_id, subject_id, title, content, created_at, updated_at) VALUES
		 (1, ${memberId}, 12, NULL, 'Kept draft ${mark}', '${doc('Still thinking')}', ${1e12}, ${1e12}),
		 (1, ${memberId}, 12, NULL, 'Ready draft ${mark}', '${doc('Ready to share')}', ${1e12 + 5}, ${1e12 + 5})`,
	);
	await signInMember(page, channel, 8, `${GLOBAL}/mypage?tab=drafts`);
	await page
		.locator('[data-draft-id]')
		.filter({ hasText: `Ready draft ${mark}` })
		.getByRole('link')
		.click();
	const form = writeForm(page);
	await expect(form.title).toHaveValue(`Ready draft ${mark}`);
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await page.waitForURL(/\/posts\/\d+$/);
	await expect(page.getByRole('heading', { level: 1, name: `Ready draft ${mark}` })).toBeVisible();
	expect(drafts()).toEqual([{ title: `Kept draft ${mark}` }]);
	await page.goto(`${GLOBAL}/mypage?tab=drafts`);
	await expect(page.locator('[data-draft-id]')).toHaveCount(1);
	await expect(page.locator('.my-drafts-count')).toHaveText('1 of 100 drafts kept');

	// The other draft, opened, then deleted from another tab before posting: the post is made all the same.
	await page.locator('[data-draft-id]').getByRole('link').click();
	await expect(form.title).toHaveValue(`Kept draft ${mark}`);
	execute(`DELETE FROM drafts WHERE member_id = ${memberId}`);
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await page.waitForURL(/\/posts\/\d+$/);
	await expect(page.getByRole('heading', { level: 1, name: `Kept draft ${mark}` })).toBeVisible();
	expect(drafts()).toEqual([]);
});
