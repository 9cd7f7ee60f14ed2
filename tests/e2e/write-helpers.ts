/** The write screen's browser tests: signing in as a given demo member, and the form's parts. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { execute } from './fixtures';
import { signInFromLoginPage } from './sign-in-helpers';
import { mintSessionToken } from '../../src/server/sign-in/session-token';
import { hashToken } from '../../src/server/platform/tokens';

export interface Community {
	path: string;
	domain: string;
	slug: string;
	index: number;
	language: string;
	providers: readonly string[];
	nicknames: readonly string[];
}

export async function community(channelPath: string): Promise<Community> {
	const { DEMO_CHANNELS } = await import('../../scripts/seed/demo.mjs');
	const channel = DEMO_CHANNELS.find((candidate) => `/${candidate.domain}/${candidate.slug}` === channelPath);
	if (!channel) throw new Error(`No demo community ${channelPath}`);
	const language = (channel as unknown as { language: string }).language;
	return {
		path: channelPath,
		domain: channel.domain,
		slug: channel.slug,
		index: channel.index,
		language,
		providers: channel.providers,
		nicknames: channel.content.nicknames,
	};
}

/** A board's id in a demo community (scripts/seed/demo.mjs: boardId). */
export function boardOf(channel: Community, key: 'notice' | 'general' | 'guides' | 'fanart' | 'videos' | 'bugs' | 'staff'): number {
	return channel.index * 10 + ['notice', 'general', 'guides', 'fanart', 'videos', 'bugs', 'staff'].indexOf(key) + 1;
}

/** The member id of the demo member at `memberIndex` (0 is the administrator). */
export function memberIdOf(channel: Community, memberIndex: number): number {
	return channel.index * 1000 + memberIndex + 1;
}

/**
 * Signs in as the demo member at `memberIndex` and lands on `redirectPath`: through the community's
 * login page and the local provider, or, for a community without providers (starfall/jp), with a
 * session minted as the Worker mints them (the sign-in itself is proved by sign-in.spec.ts).
 */
export async function signInMember(page: Page, channel: Community, memberIndex: number, redirectPath: string): Promise<void> {
	const nickname = channel.nicknames[memberIndex];
	if (!nickname) throw new Error(`No demo member ${memberIndex}`);
	if (channel.providers.length > 0) {
		const provider = channel.providers[memberIndex % channel.providers.length] ?? '';
		await signInFromLoginPage(page, channel.path, provider, nickname, redirectPath);
		await expect(page).toHaveURL(new RegExp(`${redirectPath.replace(/[?]/g, '\\?')}$`));
		return;
	}
	const secret = readFileSync(path.join(process.cwd(), '.wrangler', 'test-state', 'session-secret'), 'utf8').trim();
	const token = await mintSessionToken(secret, channel.index);
	const now = Date.now();
	execute(
		`INSERT INTO sessions (token_hash, member_id, channel_id, created_at, last_seen_at, idle_expires_at, expires_at)
		 VALUES ('${await hashToken(token)}', ${memberIdOf(channel, memberIndex)}, ${channel.index}, ${now}, ${now}, ${now + 86_400_000}, ${now + 86_400_000})`,
	);
	// A secure cookie is set through an https URL of the host; Chromium sends it to loopback http too.
	await page.context().addCookies([
		{
			name: `__Host-session_${channel.domain}_${channel.slug}`,
			value: token,
			url: 'https://127.0.0.1/',
			secure: true,
			httpOnly: true,
			sameSite: 'Lax',
		},
	]);
	await page.goto(redirectPath);
}

/** The write form's parts, by what a person reads. */
export function writeForm(page: Page, texts = { board: 'Board', category: 'Category', title: 'Title', body: 'Content' }) {
	const form = page.locator('[data-write-form]');
	return {
		form,
		board: form.getByLabel(texts.board, { exact: true }),
		category: form.getByLabel(texts.category, { exact: true }),
		title: form.locator('input[name="title"]'),
		body: form.getByRole('textbox', { name: texts.body, exact: true }),
		titleCount: form.locator('[data-title-count]'),
	};
}
