/**
 * Read-your-writes end to end (docs/reference/consistency.md): a member's comment is answered with
 * the D1 session's bookmark, in the X-D1-Bookmark header and a short-lived HttpOnly cookie, which
 * the browser sends with the next page; that page shows the comment. Local D1 has no replicas, so
 * this checks the plumbing; the lagging replica is tests/workers/read-your-writes.test.ts.
 */
import { expect, test } from './test';
import { execute } from './fixtures';
import { community, signInFreshMember } from './write-helpers';
import { BOOKMARK_COOKIE_SECONDS, BOOKMARK_HEADER } from '../../src/server/platform/d1-session';

const GLOBAL = '/starfall/global';
/** starfall/global lives in the content database DB_1 (scripts/seed/demo.mjs): its bookmarks name it. */
const BOOKMARK = /^DB_1~[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

test("a member's comment sets the bookmark cookie, and the next page, which sends it, shows the comment", async ({ page, context }) => {
	const channel = await community(GLOBAL);
	const [post] = execute(
		`SELECT id FROM posts WHERE channel_id = 1 AND board_id = 14 AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0 AND is_notice = 0
		 ORDER BY id DESC LIMIT 1`,
	) as { id: number }[];
	if (!post) throw new Error('No fan-art post');
	await signInFreshMember(page, channel, 'Bookmark', `${GLOBAL}/posts/${post.id}`);
	const comments = page.locator('[data-comments]');
	await expect(comments).toHaveAttribute('data-comments-loader', 'armed');
	// The page's view beacon is a write too, so a bookmark may be set already: the comment's replaces it.

	const text = `Read back ${Date.now().toString(36)}`;
	await page.locator('#comment-box-new').click();
	await page.locator('#comment-box-new').fill(text);
	const answered = page.waitForResponse(
		(response) => response.url().endsWith(`/posts/${post.id}/comments`) && response.request().method() === 'POST',
	);
	await comments.locator('[data-comment-form="new"]').getByRole('button', { name: 'Post', exact: true }).click();
	const answer = await answered;
	expect(answer.status()).toBe(200);
	const bookmark = (await answer.allHeaders())[BOOKMARK_HEADER.toLowerCase()];
	expect(bookmark).toMatch(BOOKMARK);
	const setCookie = (await answer.headersArray()).filter(({ name }) => name.toLowerCase() === 'set-cookie').map(({ value }) => value);
	expect(setCookie).toEqual([`__Host-d1-bookmark=${bookmark}; Max-Age=${BOOKMARK_COOKIE_SECONDS}; Path=/; HttpOnly; Secure; SameSite=Lax`]);
	const stored = (await context.cookies()).find((cookie) => cookie.name === '__Host-d1-bookmark');
	expect(stored).toMatchObject({ value: bookmark, path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });

	// The next page goes with the cookie, shows the comment, and sets no cookie of its own.
	const next = page.waitForResponse((response) => new URL(response.url()).pathname === `${GLOBAL}/posts/${post.id}`);
	await page.reload();
	const nextAnswer = await next;
	expect(await nextAnswer.request().headerValue('cookie')).toContain(`__Host-d1-bookmark=${bookmark}`);
	expect(await nextAnswer.headerValue('set-cookie')).toBeNull();
	await expect(comments.locator('li.comment .comment-text', { hasText: text })).toBeVisible();
});
