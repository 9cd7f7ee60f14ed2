/** The write screen's browser tests: signing in as a given demo member, and the form's parts. */
import type { Page } from '@playwright/test';
import { signInContext } from './sessions';
import { execute } from './fixtures';

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
 * Signs in as the demo member at `memberIndex` and lands on `redirectPath`, with a session minted as
 * the Worker mints them (tests/e2e/sessions.ts): the sign-in itself, through the community's login
 * page and the local provider, is proved by sign-in.spec.ts and walked by the phone journeys.
 */
export async function signInMember(page: Page, channel: Community, memberIndex: number, redirectPath: string): Promise<void> {
	if (!channel.nicknames[memberIndex]) throw new Error(`No demo member ${memberIndex}`);
	await signInContext(page.context(), channel, memberIdOf(channel, memberIndex));
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

/**
 * A member of the community made for one test, with a nickname of its own (and its claim): the
 * demo's members are written to by other tests running beside it, which would move the counts.
 * `joinedAt` makes them a new member (now) or not (the default, 90 days ago; docs/reference/spam-defence.md).
 */
export function freshMember(label: string, channelId = 1, joinedAt = Date.now() - 90 * 86_400_000): { id: number; nickname: string } {
	const nickname = `${label}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
	const now = Date.now();
	const [member] = execute(
		`INSERT INTO members (channel_id, nickname, role, provider, recent_provider, joined_at, terms_agreed_at, privacy_agreed_at)
		 VALUES (${channelId}, '${nickname}', 'MEMBER', 'GOOGLE', 'GOOGLE', ${joinedAt}, ${now}, ${now}) RETURNING id`,
	) as { id: number }[];
	if (!member) throw new Error('No member was made');
	execute(
		`INSERT INTO nickname_claims (channel_id, nickname_key, nickname, member_id, claimed_at) VALUES (${channelId}, '${nickname.toLowerCase()}', '${nickname}', ${member.id}, ${now})`,
	);
	return { id: member.id, nickname };
}

/** Signs in as a member made for the test (`freshMember`) and lands on `redirectPath`; answers the member's id. */
export async function signInFreshMember(page: Page, channel: Community, label: string, redirectPath: string, joinedAt?: number): Promise<number> {
	const { id } = freshMember(label, channel.index, joinedAt);
	await signInContext(page.context(), channel, id);
	await page.goto(redirectPath);
	return id;
}

/** A new visible post in the community's general board by its demo member 5 (saved posts, live threads). */
export function freshPost(channel: Community, title: string): number {
	const body = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Lanterns over the harbour.' }] }] });
	const [row] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, 5)}, '${title}', '${body}', 'Lanterns', ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	if (!row) throw new Error('No post was made');
	return row.id;
}
