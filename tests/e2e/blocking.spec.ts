/**
 * Blocking a member on a phone (390×844), in English and Korean (docs/reference/blocking.md): from a
 * comment's menu, with the confirm that says what happens; the comment collapses in place and opens
 * again on a press, without a reload; the blocked member's post is collapsed in the board's list
 * the same way; My Page → Settings lists the member and unblocks them. Members made for each test.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, freshMember, type Community } from './write-helpers';
import { signInContext } from './sessions';
import { reviewShot } from './review-shot';

const PHONE = { width: 390, height: 844 };

const TEXTS = {
	'/starfall/global': {
		menu: (nickname: string) => `Block ${nickname}`,
		title: (nickname: string) => `Block ${nickname}?`,
		confirm: 'Block',
		collapsedComment: 'Comment from a member you blocked — show',
		collapsedPost: 'Post from a member you blocked — show',
		blocked: (nickname: string) => `You blocked ${nickname}.`,
		unblock: 'Unblock',
		empty: 'You have not blocked anyone.',
	},
	'/starfall/kr': {
		menu: (nickname: string) => `${nickname} 차단`,
		title: (nickname: string) => `${nickname}님을 차단하시겠습니까?`,
		confirm: '차단',
		collapsedComment: '차단한 회원의 댓글 — 보기',
		collapsedPost: '차단한 회원의 게시글 — 보기',
		blocked: (nickname: string) => `${nickname}님을 차단했습니다.`,
		unblock: '차단 해제',
		empty: '차단한 회원이 없습니다.',
	},
} as const;

/** A post of the general board by `authorId`, with a comment by `commenterId`. */
function postWithComment(channel: Community, authorId: number, commenterId: number, title: string, comment: string) {
	const body = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Body' }] }] });
	const [post] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at, comment_count)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${authorId}, '${title}', '${body}', 'Body', ${Date.now()}, 1) RETURNING id`,
	) as { id: number }[];
	execute(
		`INSERT INTO comments (channel_id, post_id, member_id, content, created_at) VALUES (${channel.index}, ${post!.id}, ${commenterId}, '${comment}', ${Date.now()})`,
	);
	execute(`UPDATE channels SET content_version = content_version + 1 WHERE id = ${channel.index}`);
	return post!.id;
}

/** No part of the page wider than the phone. */
async function expectNoOverflow(page: Page): Promise<void> {
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

for (const path of ['/starfall/global', '/starfall/kr'] as const) {
	test(`${path}: block from a comment's menu, the comment and the post collapsed and shown, unblock from Settings (390×844)`, async ({ page }) => {
		const texts = TEXTS[path];
		const channel = await community(path);
		await page.setViewportSize(PHONE);
		const blocker = freshMember('Blocker', channel.index);
		const poster = freshMember('Poster', channel.index);
		// The member blocked: the author of the newest post the board lists (a demo member; the block is the fresh blocker's alone).
		const [top] = execute(
			`SELECT p.member_id AS id, m.nickname, p.title FROM posts p JOIN members m ON m.id = p.member_id
			 WHERE p.board_id = ${boardOf(channel, 'general')} AND p.deleted_at IS NULL AND p.hidden_by_admin = 0 AND p.is_private = 0 AND p.is_notice = 0
			 AND m.withdrawn_at IS NULL ORDER BY p.board_pos DESC LIMIT 1`,
		) as { id: number; nickname: string; title: string }[];
		const blocked = top!;
		const theirTitle = top!.title;
		const comment = `A rude remark ${Date.now().toString(36)}`;
		const postId = postWithComment(channel, poster.id, blocked.id, `Calm post ${Date.now().toString(36)}`, comment);
		await signInContext(page.context(), channel, blocker.id);
		await page.goto(`${path}/posts/${postId}`);

		const entry = page.locator('li.comment').filter({ hasText: comment });
		await entry.locator('[data-action="menu"]').click();
		await page.getByRole('menuitem', { name: texts.menu(blocked.nickname) }).click();
		const dialog = page.locator('[data-block-dialog]');
		await expect(dialog).toBeVisible();
		await expect(dialog.getByRole('heading')).toHaveText(texts.title(blocked.nickname));
		await expect(dialog.getByRole('button', { name: texts.confirm, exact: true })).toBeInViewport();
		await reviewShot(page, test.info().outputPath('block-confirm.png'));
		await dialog.getByRole('button', { name: texts.confirm, exact: true }).click();
		await expect(page.getByRole('status').filter({ hasText: texts.blocked(blocked.nickname) })).toBeVisible();

		// Collapsed in place: the toggle alone, focused; a press shows the comment, without a reload.
		const toggle = page.locator('li.comment details[data-blocked-comment] > summary');
		await expect(toggle).toHaveText(texts.collapsedComment);
		await expect(toggle).toBeFocused();
		await expect(page.getByText(comment)).toBeHidden();
		await expectNoOverflow(page);
		await reviewShot(page, test.info().outputPath('comment-collapsed.png'));
		await toggle.click();
		await expect(page.getByText(comment)).toBeVisible();
		expect(execute(`SELECT blocked_id FROM member_blocks WHERE blocker_id = ${blocker.id}`)).toEqual([{ blocked_id: blocked.id }]);

		// On a reload the page comes collapsed from the server.
		await page.reload();
		await expect(page.locator('li.comment details[data-blocked-comment]:not([open]) > summary')).toHaveText(texts.collapsedComment);
		await expect(page.getByText(comment)).toBeHidden();

		// Their post in the board's list: the toggle alone, and the row once opened.
		await page.goto(`${path}/boards/${boardOf(channel, 'general')}`);
		const row = page.locator('li.post-row[data-blocked]').filter({ hasText: theirTitle }).first();
		await expect(row.locator('summary')).toHaveText(texts.collapsedPost);
		const theirRow = page.locator('li.post-row[data-blocked] .post-title').filter({ hasText: theirTitle }).first();
		await expect(theirRow).toBeHidden();
		await expectNoOverflow(page);
		await reviewShot(page, test.info().outputPath('list-collapsed.png'));
		await page.locator('li.post-row[data-blocked]').filter({ hasText: theirTitle }).first().locator('summary').click();
		await expect(theirRow).toBeVisible();

		// Settings lists them; Unblock takes them off the list, and the comment shows again.
		await page.goto(`${path}/mypage/settings`);
		const listed = page.locator('[data-blocked-row]');
		await expect(listed).toHaveCount(1);
		await expect(listed.getByRole('link')).toHaveText(blocked.nickname);
		await listed.scrollIntoViewIfNeeded();
		await expectNoOverflow(page);
		await reviewShot(page, test.info().outputPath('settings-blocked.png'));
		await listed.getByRole('button', { name: texts.unblock }).click();
		await expect(listed).toHaveCount(0);
		await expect(page.getByText(texts.empty)).toBeVisible();
		expect(execute(`SELECT count(*) AS n FROM member_blocks WHERE blocker_id = ${blocker.id}`)).toEqual([{ n: 0 }]);
		await page.goto(`${path}/posts/${postId}`);
		await expect(page.getByText(comment)).toBeVisible();
		await expect(page.locator('details[data-blocked-comment]')).toHaveCount(0);
	});
}

for (const [path, viewport] of [
	['/starfall/global', PHONE],
	['/starfall/kr', PHONE],
	['/starfall/global', { width: 1440, height: 900 }],
] as const) {
	test(`${path} (${viewport.width}px): blocking the post's author from the post's bar collapses their comments at once, unblocking opens them`, async ({
		page,
	}) => {
		const texts = TEXTS[path];
		const channel = await community(path);
		await page.setViewportSize(viewport);
		const blocker = freshMember('BarBlocker', channel.index);
		const author = freshMember('Author', channel.index);
		const other = freshMember('Other', channel.index);
		const mine = `The author answers ${Date.now().toString(36)}`;
		const postId = postWithComment(channel, author.id, author.id, `Authors post ${Date.now().toString(36)}`, mine);
		const theirs = `Someone else says ${Date.now().toString(36)}`;
		execute(
			`INSERT INTO comments (channel_id, post_id, member_id, content, created_at) VALUES (${channel.index}, ${postId}, ${other.id}, '${theirs}', ${Date.now()})`,
		);
		execute(`UPDATE posts SET comment_count = 2 WHERE id = ${postId}`);
		await signInContext(page.context(), channel, blocker.id);
		await page.goto(`${path}/posts/${postId}`);
		await expect(page.getByText(mine)).toBeVisible();

		// From the bar, before the comments were ever touched (their island still asleep).
		const bar = page.locator('[data-post-action-bar] button[data-post-action="block"]');
		await expect(bar).toHaveText(texts.menu(author.nickname));
		await bar.click();
		const dialog = page.locator('[data-block-dialog]');
		await dialog.getByRole('button', { name: texts.confirm, exact: true }).click();
		await expect(page.getByRole('status').filter({ hasText: texts.blocked(author.nickname) })).toBeVisible();
		// At once, without a reload: the author's comment collapsed, the other's shown; the bar says Unblock.
		const toggle = page.locator('li.comment details[data-blocked-comment] > summary');
		await expect(toggle).toHaveCount(1);
		await expect(toggle).toHaveText(texts.collapsedComment);
		await expect(page.getByText(mine)).toBeHidden();
		await expect(page.getByText(theirs)).toBeVisible();
		await expect(bar).toHaveText(new RegExp(texts.unblock));
		expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
		await reviewShot(page, test.info().outputPath(`bar-blocked-${path.split('/')[2]}-${viewport.width}.png`));
		expect(execute(`SELECT blocked_id FROM member_blocks WHERE blocker_id = ${blocker.id}`)).toEqual([{ blocked_id: author.id }]);

		// Unblock from the bar: the comment opens again, and the bar offers Block.
		await bar.click();
		await expect(page.getByText(mine)).toBeVisible();
		await expect(page.locator('details[data-blocked-comment]')).toHaveCount(0);
		await expect(bar).toHaveText(texts.menu(author.nickname));

		// The other way round, the island awake: a block from the author's comment menu turns the bar's into Unblock.
		await page.locator('li.comment').filter({ hasText: mine }).locator('[data-action="menu"]').click();
		await page.getByRole('menuitem', { name: texts.menu(author.nickname) }).click();
		await dialog.getByRole('button', { name: texts.confirm, exact: true }).click();
		await expect(toggle).toHaveCount(1);
		await expect(bar).toHaveText(new RegExp(texts.unblock));
		expect(execute(`SELECT count(*) AS n FROM member_blocks WHERE blocker_id = ${blocker.id}`)).toEqual([{ n: 1 }]);
	});
}

test("a guest's post page and board page carry nothing of blocking", async ({ request }) => {
	const channel = await community('/starfall/global');
	const poster = freshMember('Poster', channel.index);
	const other = freshMember('Other', channel.index);
	const postId = postWithComment(channel, poster.id, other.id, `Plain post ${Date.now().toString(36)}`, 'A plain comment');
	// The HTML as served to a guest: no browser is needed to read it.
	const response = await request.get(`${channel.path}/posts/${postId}`);
	expect(response.status()).toBe(200);
	const html = await response.text();
	// The markup (the pages' stylesheets name the attributes, for a blocker's page).
	expect(html).not.toContain('data-blocking=');
	expect(html).not.toContain('data-block-dialog');
	expect(html).not.toMatch(/<details[^>]*data-blocked-comment/);
	const board = await (await request.get(`${channel.path}/boards/${boardOf(channel, 'general')}`)).text();
	expect(board).not.toMatch(/<li[^>]*data-blocked/);
	expect(board).not.toContain('class="blocked-toggle"');
});
