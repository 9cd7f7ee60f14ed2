/** Signing in through the local identity provider, as a person does it (or, for tests about something else, with a minted session). */
import { expect, type Page } from '@playwright/test';
import { signInContext } from './sessions';

export type ProviderName = 'Apple' | 'Google' | 'X';

/** From a channel page: the sidebar's Log in, then the provider's button; ends on the provider's chooser. */
export async function openProvider(page: Page, provider: ProviderName): Promise<void> {
	await page.getByRole('button', { name: `Continue with ${provider}` }).click();
	await expect(page.getByRole('button', { name: 'Continue as a new member' })).toBeVisible();
}

/** The provider's button that signs in as a demo member. */
export function memberButton(page: Page, nickname: string) {
	return page.getByRole('button', { name: new RegExp(`^Sign in as ${escape(nickname)}`) });
}

/** At the provider's chooser: signs in as a demo member (by nickname) and waits to be back. */
export async function chooseMember(page: Page, nickname: string): Promise<void> {
	await memberButton(page, nickname).click();
	await page.waitForURL((url) => url.hostname === '127.0.0.1');
}

/** At the provider's chooser: continues as a new account of that name. */
export async function chooseNewAccount(page: Page, name: string): Promise<void> {
	await page.getByLabel('New account name').fill(name);
	await page.getByRole('button', { name: 'Continue as a new member' }).click();
	await page.waitForURL((url) => url.hostname === '127.0.0.1');
}

/** The whole sign-in of a demo member, from `path` (whose sidebar has the Log in button). */
export async function signInAs(page: Page, path: string, provider: ProviderName, nickname: string): Promise<void> {
	await page.goto(path);
	await page.locator('[data-guest-welcome]').getByRole('link', { name: 'Log in' }).click();
	await openProvider(page, provider);
	await chooseMember(page, nickname);
}

/**
 * Signs in as an ordinary demo member of the community at `channelPath` and lands on
 * `redirectPath`, with a minted session (tests/e2e/sessions.ts; the sign-in screens are
 * sign-in.spec.ts's). The member is the seed's seventh, whom no other test bans or renames.
 */
export async function signInAsDemoMember(page: Page, channelPath: string, redirectPath: string): Promise<void> {
	const { DEMO_CHANNELS } = await import('../../scripts/seed/demo.mjs');
	const channel = DEMO_CHANNELS.find((candidate) => `/${candidate.domain}/${candidate.slug}` === channelPath);
	const index = 6;
	if (!channel?.content.nicknames[index]) throw new Error(`${channelPath} has no demo member ${index + 1}`);
	await signInContext(page.context(), channel, channel.index * 1000 + index + 1);
	await page.goto(redirectPath);
	await expect(page).toHaveURL(new RegExp(`${escape(redirectPath)}$`));
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
