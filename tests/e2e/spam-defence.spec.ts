/**
 * Spam defence in the browser (docs/spam-defence.md): a person signs up through the local
 * Turnstile's check and posts their first post through it; a new member's post with too many
 * links is refused with the sentence that says why, and nothing is posted.
 */
import { expect, test } from './test';
import { chooseNewAccount, openProvider } from './sign-in-helpers';
import { writeForm } from './write-helpers';

const HOME = '/starfall/global';
const BOARD = `${HOME}/boards/12`;

test('a new member signs up through the human check, is held to the link limit, and posts their first post through the check', async ({ page }) => {
	await page.goto(BOARD);
	await page.locator('[data-guest-welcome]').getByRole('link', { name: 'Log in' }).click();
	await openProvider(page, 'Google');
	await chooseNewAccount(page, `e2e-human-${Date.now()}`);
	await page.getByLabel('Agree to all').check();
	await page.getByRole('button', { name: 'Next' }).click();
	await expect(page).toHaveURL(/\/signup\/nickname$/);
	const nickname = `Human${Date.now() % 100000}`;
	await page.getByLabel('Nickname', { exact: true }).fill(nickname);
	// Without the check, the server refuses and makes no member.
	await page.getByRole('button', { name: 'Join the community' }).click();
	await expect(page.getByText('Please complete the check and try again.')).toBeVisible();
	await expect(page).toHaveURL(/\/signup\/nickname$/);
	await page.frameLocator('.cf-turnstile iframe').getByLabel('I am human').check();
	await page.getByRole('button', { name: 'Join the community' }).click();
	await expect(page).toHaveURL(new RegExp(`${BOARD}$`));
	await expect(page.locator('[data-member-nickname]')).toHaveText(nickname);

	await page.goto(`${HOME}/write?boardId=12`);
	await expect(page.getByText('As a new member, please confirm you are human before posting.')).toBeVisible();
	const form = writeForm(page);
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	await form.title.fill('Hello from a human');
	await form.body.click();
	await page.keyboard.type('Three shops: https://a.example/ https://b.example/ https://c.example/');
	await page.frameLocator('.cf-turnstile iframe').getByLabel('I am human').check();
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	const alert = page.locator('dialog.alert-dialog[open]');
	await expect(alert).toContainText('As a new member, you can add up to 2 links to a post or comment for now.');
	await alert.getByRole('button', { name: 'OK' }).click();
	await expect(page).toHaveURL(/\/write\?boardId=12$/);

	await form.body.click();
	await page.keyboard.press('ControlOrMeta+A');
	await page.keyboard.type('My first post, with one link: https://a.example/');
	// The refusal reset the check: its token was not spent, but the widget asks again.
	await page.frameLocator('.cf-turnstile iframe').getByLabel('I am human').check();
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await expect(page).toHaveURL(/\/starfall\/global\/posts\/\d+$/);
	await expect(page.getByRole('heading', { name: 'Hello from a human' })).toBeVisible();
});
