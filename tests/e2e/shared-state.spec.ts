/**
 * State shared between a page's islands and scripts (src/stores/, docs/reference/shared-state.md), as a
 * person sees it: a new nickname shows in the sidebar and on My Page at once, in every tab of the
 * community; a sign-out in one tab turns the others' comment box, header and sidebar to signed out;
 * a comment posted or deleted moves the count in the post's header too, and a like moves the count
 * on the button and beside the views. None of it reloads a page: each page carries a mark set when
 * it loaded, which a reload would lose.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, memberIdOf, type Community } from './write-helpers';
import { mintSessionToken } from '../../src/server/sign-in/session-token';
import { hashToken } from '../../src/server/platform/tokens';

const GLOBAL = '/starfall/global';
/** A visible post of its own in the general board, without comments or likes. */
function freshPost(channel: Community, authorIndex: number): { postId: number; path: string } {
	const body = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Shared counts.' }] }] });
	const [row] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, authorIndex)}, 'Shared state ${Date.now().toString(36)}', '${body}', 'Shared counts.', ${Date.now()}) RETURNING id`,
	) as { id: number }[];
	if (!row) throw new Error('No post was made');
	return { postId: row.id, path: `${channel.path}/posts/${row.id}` };
}

/** A member of the community of its own, so that renaming and signing out touch no other test's member. */
function freshMember(channel: Community): { memberId: number; nickname: string } {
	const nickname = `State${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
	const now = Date.now();
	const [row] = execute(
		`INSERT INTO members (channel_id, nickname, provider, recent_provider, joined_at, terms_agreed_at, privacy_agreed_at)
		 VALUES (${channel.index}, '${nickname}', 'GOOGLE', 'GOOGLE', ${now}, ${now}, ${now}) RETURNING id`,
	) as { id: number }[];
	if (!row) throw new Error('No member was made');
	return { memberId: row.id, nickname };
}

/**
 * Signs in as a new member with a session minted as the Worker mints them (signing in itself is
 * sign-in.spec.ts's), and opens `redirectPath`; returns the member's nickname.
 */
async function signInNewMember(page: Page, channel: Community, redirectPath: string): Promise<string> {
	const { memberId, nickname } = freshMember(channel);
	const secret = readFileSync(path.join(process.cwd(), '.wrangler', 'test-state', 'session-secret'), 'utf8').trim();
	const token = await mintSessionToken(secret, channel.index);
	const now = Date.now();
	execute(
		`INSERT INTO sessions (token_hash, member_id, channel_id, created_at, last_seen_at, idle_expires_at, expires_at)
		 VALUES ('${await hashToken(token)}', ${memberId}, ${channel.index}, ${now}, ${now}, ${now + 86_400_000}, ${now + 86_400_000})`,
	);
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
	return nickname;
}

/** Marks the page as loaded; `stillLoaded` is true as long as it has not been reloaded or left. */
async function markLoaded(page: Page): Promise<void> {
	await page.evaluate(() => ((window as unknown as { loadedOnce?: boolean }).loadedOnce = true));
}
async function stillLoaded(page: Page): Promise<boolean> {
	return page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce === true);
}

const toast = (page: Page) => page.locator('[data-toast]');
const section = (page: Page) => page.locator('[data-comments]');
const newBox = (page: Page) => page.locator('#comment-box-new');

test("a new nickname shows in the sidebar and on My Page at once, in this tab and the community's others, without a reload", async ({ page }) => {
	const channel = await community(GLOBAL);
	const before = await signInNewMember(page, channel, `${GLOBAL}/mypage/nickname`);
	const other = await page.context().newPage();
	await other.goto(`${GLOBAL}/boards/${boardOf(channel, 'general')}`);
	await expect(other.locator('[data-member-nickname]')).toHaveText(before);
	await markLoaded(page);
	await markLoaded(other);

	const renamed = `Shared${Date.now() % 1e6}`;
	await page.getByLabel('Nickname', { exact: true }).fill(renamed);
	await page.getByRole('button', { name: 'Change nickname' }).click();
	await expect(toast(page)).toHaveText(`Your nickname is now ${renamed}.`);
	await expect(page.locator('[data-member-nickname]')).toHaveText(renamed);
	await expect(page.locator('[data-mypage-nickname]')).toHaveText(renamed);
	// My Page's avatar is the member's picture by its stable URL (docs/reference/avatars.md), which a rename leaves as it is.
	await expect(page.locator('[data-mypage-avatar]')).toHaveAttribute('src', /\/avatars\/\d+\?s=256$/);
	await expect(other.locator('[data-member-nickname]')).toHaveText(renamed);
	expect(await stillLoaded(page)).toBe(true);
	expect(await stillLoaded(other)).toBe(true);
	// The server agrees: a page loaded now shows the new name too.
	await other.reload();
	await expect(other.locator('[data-member-nickname]')).toHaveText(renamed);
});

test("a sign-out in another tab turns this tab's comment box, header and sidebar to signed out without a reload", async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = freshPost(channel, 3);
	await signInNewMember(page, channel, post.path);
	// One page whose comments island is running, one whose box is still the page's own.
	await expect(section(page)).toHaveAttribute('data-comments-loader', 'armed');
	await newBox(page).click();
	await expect(section(page)).toHaveAttribute('data-mounted', '');
	const untouched = await page.context().newPage();
	await untouched.goto(post.path);
	for (const tab of [page, untouched]) {
		await expect(newBox(tab)).toHaveAttribute('placeholder', 'Share your thoughts');
		await expect(newBox(tab)).not.toHaveAttribute('readonly');
		await expect(tab.locator('[data-account-icon]')).toHaveAttribute('href', `${GLOBAL}/mypage`);
		await expect(tab.locator('[data-member-card]')).toBeVisible();
		await markLoaded(tab);
	}

	const other = await page.context().newPage();
	await other.goto(`${GLOBAL}/mypage`);
	await other.getByRole('button', { name: 'Log out' }).click();
	await other.waitForURL((url) => !url.pathname.endsWith('/mypage'));

	for (const tab of [page, untouched]) {
		await expect(newBox(tab)).toHaveAttribute('readonly');
		await expect(newBox(tab)).toHaveAttribute('placeholder', 'Log in to write a comment.');
		await expect(tab.locator('[data-account-icon]')).toHaveAttribute('href', `${GLOBAL}/login?redirectUrl=${encodeURIComponent(`${GLOBAL}/mypage`)}`);
		await expect(tab.locator('[data-member-card]')).toBeHidden();
		expect(await stillLoaded(tab)).toBe(true);
	}
});

test("a comment posted or deleted moves the count in the post's header too, and a like the count on the button and beside the views", async ({
	page,
}) => {
	const channel = await community(GLOBAL);
	const post = freshPost(channel, 4);
	await signInNewMember(page, channel, post.path);
	const headerCount = page.locator('.post-meta [data-post-comment-count]');
	const heading = section(page).locator('[data-comment-count]');
	const likeCounts = page.locator('[data-like-count]');
	await expect(headerCount).toHaveText('0');
	await expect(likeCounts).toHaveText(['0', '0']);
	await markLoaded(page);

	await page.locator('[data-post-action="like"]').click();
	await expect(likeCounts).toHaveText(['1', '1']);

	const text = `Counted ${Date.now().toString(36)}`;
	await expect(section(page)).toHaveAttribute('data-comments-loader', 'armed');
	await newBox(page).click();
	await newBox(page).fill(text);
	await section(page).locator('[data-comment-form="new"]').getByRole('button', { name: 'Post', exact: true }).click();
	await expect(toast(page)).toHaveText('The comment has been posted.');
	await expect(heading).toHaveText('1');
	await expect(headerCount).toHaveText('1');

	const comment = section(page).locator('li.comment', { hasText: text });
	await comment.locator('.comment-menu-button').click();
	await comment.getByRole('menuitem', { name: 'Delete' }).click();
	await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Delete' }).click();
	await expect(toast(page)).toHaveText('The comment has been deleted.');
	await expect(heading).toHaveText('0');
	await expect(headerCount).toHaveText('0');
	await expect(likeCounts).toHaveText(['1', '1']);
	expect(await stillLoaded(page)).toBe(true);
});

test("a guest's page, cached for everyone, carries no member's data and loads none of the stores", async ({ page }) => {
	const channel = await community(GLOBAL);
	const post = freshPost(channel, 5);
	const scripts: string[] = [];
	page.on('response', (response) => {
		if (response.request().resourceType() === 'script') scripts.push(response.url().split('/').pop() ?? '');
	});
	const response = await page.goto(post.path);
	const html = (await response?.text()) ?? '';
	await page.waitForLoadState('networkidle');
	expect(html).not.toContain('data-nickname');
	expect(html).not.toContain('SessionSync');
	expect(scripts.filter((name) => /^(SessionSync|session|atom|toasts?|post-counts)\./.test(name))).toEqual([]);
});
