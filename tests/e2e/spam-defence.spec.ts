/**
 * Spam defence in the browser (docs/reference/spam-defence.md): a person signs up through the local
 * Turnstile's check (pressed before the check's token arrived, the sign-up is sent again on it; the
 * wait is said at the check, not at the nickname), is welcomed, and
 * is not asked again in that session; a new member's post with too many links is refused with the sentence that
 * says why, and nothing is posted; a new session of the same new member is asked before posting (pressed
 * before the check's token arrived, the post is sent again on it, as the sign-up).
 */
import { expect, test } from './test';
import { chooseNewAccount, openProvider } from './sign-in-helpers';
import { community, writeForm } from './write-helpers';
import { execute } from './fixtures';
import { signInContext } from './sessions';

const HOME = '/starfall/global';
const BOARD = `${HOME}/boards/12`;

test('a new member signs up through the human check, is not asked again in that session, is held to the link limit, and a new session is asked', async ({
	page,
}) => {
	// A long journey (the provider's screens, a sign-up sent three times, three posts): three times the
	// usual upper bound on a busy machine.
	test.slow();
	await page.goto(BOARD);
	await page.locator('[data-guest-welcome]').getByRole('link', { name: 'Log in' }).click();
	await openProvider(page, 'Google');
	await chooseNewAccount(page, `e2e-human-${Date.now()}`);
	await page.getByLabel('Agree to all').check();
	await page.getByRole('button', { name: 'Next' }).click();
	await expect(page).toHaveURL(/\/signup\/nickname$/);
	const nickname = `Human${Date.now() % 100000}`;
	await page.getByLabel('Nickname', { exact: true }).fill(nickname);
	const signups: string[] = [];
	page.on('request', (request) => {
		if (request.method() === 'POST' && request.url().endsWith('/signup')) signups.push(request.url());
	});
	// The check's token is held on its way (the stand-in's frame asks for it), until the test lets it go.
	let releaseToken = () => {};
	const tokenHeld = new Promise<void>((resolve) => (releaseToken = resolve));
	await page.route('**/turnstile/v0/token', async (route) => {
		await tokenHeld;
		await route.continue();
	});
	// Pressed before the check: the server refuses (and makes no member); the check says the sign-up
	// waits for it, not the nickname.
	const join = page.getByRole('button', { name: 'Join the community' });
	await join.click();
	const checkError = page.locator('.challenge [data-challenge-error]');
	const wait = 'Please complete the check above: you will join as soon as it is done.';
	await expect(checkError).toHaveText(wait);
	await expect(checkError).toBeInViewport();
	await expect(page.getByLabel('Nickname', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
	await expect(page.locator('[data-nickname-message]')).not.toContainText('check');
	expect(signups).toHaveLength(1);
	// Ticked, and pressed again before the token arrived (the race a person can run): refused again
	// without a token, and still never "do the check again" (nor a reset widget, which would drop the token).
	await page.frameLocator('.cf-turnstile iframe').getByLabel('I am human').check();
	await join.click();
	await expect.poll(() => signups.length).toBe(2);
	await expect(join).toBeEnabled();
	await expect(checkError).toBeVisible();
	await expect(checkError).toHaveText(wait);
	await expect(page).toHaveURL(/\/signup\/nickname$/);
	// The welcome's 1.5 s run on Playwright's clock.
	await page.clock.install();
	// The token arrives: the sign-up is sent again on it, once, without another press.
	releaseToken();
	await expect(page).toHaveURL(new RegExp(`${BOARD}$`));
	expect(signups).toHaveLength(3);
	await expect(page.locator('[data-member-nickname]')).toHaveText(nickname);
	// Welcomed, with what to do next, on the page the sign-up returned to.
	await expect(page.locator('[data-toast]')).toHaveText(`Welcome, ${nickname}! Write your first post, or join a conversation in the comments.`);
	await page.clock.runFor(1800);
	await expect(page.locator('[data-toast]')).toBeHidden();

	// The same session: the write screen does not ask again.
	await page.goto(`${HOME}/write?boardId=12`);
	const form = writeForm(page);
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	await expect(page.locator('.cf-turnstile')).toHaveCount(0);
	await expect(page.getByText('As a new member, please confirm you are human before posting.')).toHaveCount(0);
	await form.title.fill('Hello from a human');
	await form.body.click();
	await page.keyboard.type('Three shops: https://a.example/ https://b.example/ https://c.example/');
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	const alert = page.locator('dialog.alert-dialog[open]');
	await expect(alert).toContainText('As a new member, you can add up to 2 links to a post or comment for now.');
	await alert.getByRole('button', { name: 'OK' }).click();
	await expect(page).toHaveURL(/\/write\?boardId=12$/);

	await form.body.click();
	await page.keyboard.press('ControlOrMeta+A');
	await page.keyboard.type('My first post, with one link: https://a.example/');
	await page.getByRole('button', { name: 'Post', exact: true }).click();
	await expect(page).toHaveURL(/\/starfall\/global\/posts\/\d+$/);
	await expect(page.getByRole('heading', { name: 'Hello from a human' })).toBeVisible();

	// Another session of the same new member (another device, or after logging out) is asked as before.
	const [member] = execute(`SELECT id FROM members WHERE channel_id = 1 AND nickname = '${nickname}'`) as { id: number }[];
	await page.context().clearCookies();
	await signInContext(page.context(), await community(HOME), member!.id);
	await page.goto(`${HOME}/write?boardId=12`);
	await expect(page.getByText('As a new member, please confirm you are human before posting.')).toBeVisible();
	await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
	await form.title.fill('Second post');
	await form.body.click();
	await page.keyboard.type('Written on another device.');
	const posts: string[] = [];
	page.on('request', (request) => {
		if (request.method() === 'POST' && request.url().endsWith('/posts')) posts.push(request.url());
	});
	// The check's token is held on its way again, until the test lets it go.
	let releasePostToken = () => {};
	const postTokenHeld = new Promise<void>((resolve) => (releasePostToken = resolve));
	await page.unroute('**/turnstile/v0/token');
	await page.route('**/turnstile/v0/token', async (route) => {
		await postTokenHeld;
		await route.continue();
	});
	const publish = page.getByRole('button', { name: 'Post', exact: true });
	await publish.click();
	// Refused without the check, and said at the check: the post waits for it (as the sign-up above), no dialog.
	const waitToPost = 'Please complete the check above: your post will be published as soon as it is done.';
	await expect(checkError).toHaveText(waitToPost);
	await expect(page.locator('dialog.alert-dialog[open]')).toHaveCount(0);
	expect(posts).toHaveLength(1);
	// Ticked, and Post pressed again before the token arrived: refused again, and never "do the check again".
	await page.frameLocator('.cf-turnstile iframe').getByLabel('I am human').check();
	await publish.click();
	await expect.poll(() => posts.length).toBe(2);
	await expect(publish).toBeEnabled();
	await expect(checkError).toHaveText(waitToPost);
	await expect(page.locator('dialog.alert-dialog[open]')).toHaveCount(0);
	// The token arrives: the post is sent again on it, once, without another press.
	releasePostToken();
	await expect(page).toHaveURL(/\/starfall\/global\/posts\/\d+$/);
	expect(posts).toHaveLength(3);
	await expect(page.getByRole('heading', { name: 'Second post' })).toBeVisible();
});
