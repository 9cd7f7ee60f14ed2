/**
 * The report dialog says the API's refusal of a field under that field, in the page's words (issue
 * 22, point 11): the API answers a reason or a detail it refuses with its own code
 * (ReportReasonRequired, ReportDetailRequired, ReportDetailTooLong), and a page older than the
 * API's rules (here: its answer stood in for by the browser) shows that code's text, not the
 * generic 'Failed to report.' alert; the admin area says the threshold's refusal in its field's words.
 */
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, signInMember } from './write-helpers';

const GLOBAL = '/starfall/global';

test.describe.configure({ timeout: 120_000 });

const refusal = (resultCode: number, resultMessage: string) => ({
	status: 400,
	contentType: 'application/json',
	body: JSON.stringify({ header: { isSuccessful: false, resultCode, resultMessage } }),
});

for (const [name, code, message, field] of [
	['the detail too long', -4001457, 'The details can be up to 500 characters long.', 'detail'],
	['the detail required', -4001456, 'Please describe the problem.', 'detail'],
	['the reason', -4001455, 'Choose a reason.', 'reason'],
] as const) {
	test(`the API's refusal of ${name} is said under its field, and the dialog keeps what was typed`, async ({ page }) => {
		const channel = await community(GLOBAL);
		const body = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'A post to report.' }] }] });
		const [row] = execute(
			`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
			 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, 3)}, 'Errors ${Date.now().toString(36)}', '${body}', 'A post to report.', ${Date.now()}) RETURNING id`,
		) as { id: number }[];
		await signInMember(page, channel, 36, `${channel.path}/posts/${row!.id}`);
		await page.route('**/v1/starfall/global/reports', (route) => route.fulfill(refusal(code, message)));
		await page.locator('[data-post-action="report"]').click();
		const dialog = page.getByRole('dialog', { name: 'Report this post' });
		await dialog.getByRole('radio', { name: 'Spoilers' }).check();
		await dialog.getByLabel('Details').fill('The ending, in the title.');
		await dialog.getByRole('button', { name: 'Report', exact: true }).click();
		await expect(dialog.getByText(message)).toBeVisible();
		await expect(page.getByRole('dialog', { name: 'Notice' })).toBeHidden();
		await expect(dialog.getByLabel('Details')).toHaveValue('The ending, in the title.');
		if (field === 'detail') {
			await expect(dialog.getByLabel('Details')).toHaveAttribute('aria-invalid', 'true');
			await expect(dialog.getByLabel('Details')).toBeFocused();
		}
	});
}

test("the admin area says the API's refusal of the hide threshold in the field's words, not the generic error", async ({ page }) => {
	const channel = await community(GLOBAL);
	await signInMember(page, channel, 0, `${GLOBAL}/admin?tab=settings`);
	await page.route('**/admin/v1/starfall/global/settings', (route) =>
		route.request().method() === 'PUT'
			? route.fulfill(refusal(-4001472, 'Enter a whole number from 1 to 1,000, or leave it empty.'))
			: route.continue(),
	);
	await page.getByLabel('Hide automatically at this many open reports').fill('5');
	await page.getByRole('button', { name: 'Save' }).click();
	const alert = page.getByRole('dialog', { name: 'Notice' });
	await expect(alert).toContainText('Enter a whole number from 1 to 1,000, or leave it empty.');
	await expect(alert).not.toContainText('There is currently an issue');
});
