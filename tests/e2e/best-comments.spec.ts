/**
 * Comment likes and Best comments on a phone (390 × 844), in English and Korean
 * (docs/reference/best-comments.md): the Best comments above the thread of a post with 12
 * comments, a member liking a comment (pressed at once, the count moved, kept on the next visit,
 * which is the guest's page with their parts), the Best order with its marks and a thread's link,
 * and a guest's Like asking them to log in.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { texts } from './texts';
import { boardOf, community, freshMember, memberIdOf, type Community } from './write-helpers';
import { signInContext } from './sessions';
import { reviewShot } from './review-shot';

// Each test makes its rows through wrangler's local D1 (a process per statement): an upper bound, not a timing.
test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 390, height: 844 } });

/** Like counts of the post's 12 top-level comments, oldest first: the Best comments are the 9, 7 and 5 (in that order). */
const LIKES = [0, 5, 2, 9, 0, 1, 7, 0, 3, 0, 0, 0];

/** A new post of the general board with 12 comments by demo members, with LIKES' counts; a reply under the most liked. */
function postWithComments(channel: Community, title: string): { postId: number; comments: number[]; reply: number } {
	const body = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Which boss was hardest?' }] }] });
	const now = Date.now();
	const [post] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, comment_count, created_at)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, 5)}, '${title}', '${body}', 'Which boss', 13, ${now - 3_600_000}) RETURNING id`,
	) as { id: number }[];
	const postId = post!.id;
	const comments = LIKES.map((likes, i) => {
		const [row] = execute(
			`INSERT INTO comments (channel_id, post_id, member_id, content, created_at, like_count)
			 VALUES (${channel.index}, ${postId}, ${memberIdOf(channel, 6 + (i % 4))}, 'Comment number ${i + 1}', ${now - 3_000_000 + i * 60_000}, ${likes}) RETURNING id`,
		) as { id: number }[];
		return row!.id;
	});
	const [reply] = execute(
		`INSERT INTO comments (channel_id, post_id, parent_id, member_id, content, created_at)
		 VALUES (${channel.index}, ${postId}, ${comments[3]}, ${memberIdOf(channel, 7)}, 'A reply to the best one', ${now - 60_000}) RETURNING id`,
	) as { id: number }[];
	return { postId, comments, reply: reply!.id };
}

async function fitsTheWidth(page: Page): Promise<void> {
	expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

const likeOf = (page: Page, scope: string, commentId: number) => page.locator(`${scope} button[data-action="like"][data-comment-id="${commentId}"]`);

for (const [path, language] of [
	['/starfall/global', 'en'],
	['/starfall/kr', 'ko'],
] as const) {
	test(`${language}: a member likes a comment, sees the Best comments, and switches to the Best order`, async ({ page }, testInfo) => {
		const t = texts(language);
		const channel = await community(path);
		const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
		const { postId, comments, reply } = postWithComments(channel, `Hardest boss ${suffix}`);
		const best = [comments[3]!, comments[6]!, comments[1]!];

		// A guest sees the Best comments above the thread, marked, and the orders; a Like asks them to log in.
		await page.goto(`${path}/posts/${postId}`);
		const block = page.getByRole('region', { name: t('commentLikes.best.heading') });
		await expect(block.locator('li[data-best-comment]')).toHaveCount(3);
		expect(
			await block.locator('li[data-best-comment]').evaluateAll((items) => items.map((item) => Number((item as HTMLElement).dataset['commentId']))),
		).toEqual(best);
		await expect(block.getByText(t('commentLikes.best.mark'), { exact: true })).toHaveCount(3);
		await likeOf(page, '#comments ol.comments > li[id]', comments[0]!).click();
		await expect(page.locator('[data-login-required-dialog]')).toBeVisible();
		await page.keyboard.press('Escape');

		const member = freshMember('Liker', channel.index);
		await signInContext(page.context(), channel, member.id);
		await page.goto(`${path}/posts/${postId}`);
		const target = comments[8]!; // 3 likes
		const inThread = likeOf(page, `li#comment-${target}`, target).first();
		await expect(inThread).toHaveAttribute('aria-pressed', 'false');
		await expect(inThread).toContainText('3');
		const size = await inThread.boundingBox();
		expect(size!.height).toBeGreaterThanOrEqual(44);
		expect(size!.width).toBeGreaterThanOrEqual(44);
		await inThread.click();
		await expect(inThread).toHaveAttribute('aria-pressed', 'true');
		await expect(inThread).toContainText('4');
		await expect
			.poll(() =>
				execute(
					`SELECT like_count AS n, (SELECT count(*) FROM comment_likes WHERE comment_id = ${target}) AS rows FROM comments WHERE id = ${target}`,
				),
			)
			.toEqual([{ n: 4, rows: 1 }]);
		await fitsTheWidth(page);
		await reviewShot(page.locator('#comments'), testInfo.outputPath(`best-block-${language}.png`));

		// The next visit is the guest's page with the member's parts: the Like pressed.
		const again = await page.goto(`${path}/posts/${postId}`);
		expect(again?.headers()['x-member-page']).toBe('REWRITTEN');
		await expect(likeOf(page, `li#comment-${target}`, target).first()).toHaveAttribute('aria-pressed', 'true');

		// The Best order: most liked first, ties oldest first, the three Best marked in place, replies under their comment.
		const orders = page.getByRole('navigation', { name: t('commentLikes.order.label') });
		const bestTab = orders.getByRole('link', { name: t('commentLikes.order.best'), exact: true });
		expect((await bestTab.boundingBox())!.height).toBeGreaterThanOrEqual(44);
		await bestTab.click();
		await expect(page).toHaveURL(`${path}/posts/${postId}?commentsSort=best#comments`);
		await expect(bestTab).toHaveAttribute('aria-current', 'page');
		const order = LIKES.map((likes, i) => ({ id: comments[i]!, likes: likes + (comments[i] === target ? 1 : 0) }))
			.sort((a, b) => b.likes - a.likes || a.id - b.id)
			.map((row) => row.id);
		// The new page may still be arriving when its address has changed: the whole list first.
		const thread = page.locator('#comments ol.comments > li[data-comment-id]');
		await expect(thread).toHaveCount(order.length);
		const shown = await thread.evaluateAll((items) => items.map((item) => Number((item as HTMLElement).dataset['commentId'])));
		expect(shown).toEqual(order);
		await expect(page.locator(`li#comment-${reply}`)).toBeVisible();
		await expect(page.locator('#comments [data-best-mark]')).toHaveCount(3);
		await expect(page.getByRole('region', { name: t('commentLikes.best.heading') })).toHaveCount(0);
		await fitsTheWidth(page);
		await reviewShot(page, testInfo.outputPath(`best-order-${language}.png`), { fullPage: true });
	});
}

/** `count` top-level comments on a new post of the general board, comment i with `100 - i` likes (ids ascending); the post's id and theirs. */
function postWithManyComments(channel: Community, title: string, count: number): { postId: number; comments: number[] } {
	const body = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Which boss was hardest?' }] }] });
	const now = Date.now();
	const [post] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, comment_count, created_at)
		 VALUES (${channel.index}, ${boardOf(channel, 'general')}, ${memberIdOf(channel, 5)}, '${title}', '${body}', 'Which boss', ${count}, ${now - 3_600_000}) RETURNING id`,
	) as { id: number }[];
	const rows = execute(
		`INSERT INTO comments (channel_id, post_id, member_id, content, created_at, like_count)
		 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
		 SELECT ${channel.index}, ${post!.id}, ${memberIdOf(channel, 6)}, 'Many comments number ' || i, ${now - 3_000_000} + i, 100 - i FROM n RETURNING id`,
	) as { id: number }[];
	return { postId: post!.id, comments: rows.map((row) => row.id).sort((a, b) => a - b) };
}

for (const [path, language] of [
	['/starfall/global', 'en'],
	['/starfall/kr', 'ko'],
] as const) {
	test(`${language}: a comment the member likes shows pressed when "Show more comments" loads it, oldest first and in the Best order`, async ({
		page,
	}) => {
		const channel = await community(path);
		const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
		// 105 comments: oldest first, the page shows 100; in the Best order (most liked first: the oldest), 20.
		const { postId, comments } = postWithManyComments(channel, `Many bosses ${suffix}`, 105);
		const member = freshMember('LaterLiker', channel.index);
		// The 103rd, with 75 likes (the member's among them): on the second page of either order (26th most liked).
		const later = comments[102]!;
		const likes = 75;
		execute(
			`INSERT INTO comment_likes (comment_id, member_id, post_id, channel_id, created_at) VALUES (${later}, ${member.id}, ${postId}, ${channel.index}, ${Date.now()})`,
		);
		execute(`UPDATE comments SET like_count = ${likes} WHERE id = ${later}`);
		await signInContext(page.context(), channel, member.id);

		for (const query of ['', '?commentsSort=best']) {
			await page.goto(`${path}/posts/${postId}${query}`);
			await expect(page.locator(`li#comment-${later}`)).toHaveCount(0);
			const more = page.locator('[data-comments] [data-action="more"]');
			await more.click();
			const like = likeOf(page, `li#comment-${later}`, later).first();
			await expect(like).toHaveAttribute('aria-pressed', 'true');
			await expect(like).toContainText(String(likes));
			await fitsTheWidth(page);
			await reviewShot(page, test.info().outputPath(`show-more-liked-${language}${query ? '-best' : ''}.png`));
		}
		// A press now takes the like back (it does not like again).
		const like = likeOf(page, `li#comment-${later}`, later).first();
		await like.click();
		await expect(like).toHaveAttribute('aria-pressed', 'false');
		await expect
			.poll(() => execute(`SELECT count(*) AS rows FROM comment_likes WHERE comment_id = ${later} AND member_id = ${member.id}`))
			.toEqual([{ rows: 0 }]);
	});
}
