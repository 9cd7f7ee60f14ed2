import { expect, test } from './test';
import { execute } from './fixtures';
import { community, freshMember } from './write-helpers';
import { signInContext } from './sessions';
import { DESKTOP, PHONE, scrollsSideways } from './phone-checks';

for (const [path, lang, scheme] of [
	['/starfall/global', 'en', 'light'],
	['/starfall/kr', 'ko', 'light'],
	['/starfall/kr', 'ko', 'dark'],
	['/pixelfarm/main', 'en', 'dark'],
] as const) {
	test(`shots ${path} ${lang} ${scheme}`, async ({ browser }) => {
		const channel = await community(path);
		const m = freshMember('Shot', channel.index);
		const [post] = execute(
			`SELECT p.id, p.title FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.channel_id = ${channel.index} AND b.is_public = 1 AND p.is_private = 0 AND p.hidden_by_admin = 0 AND p.deleted_at IS NULL ORDER BY p.id DESC LIMIT 1`,
		) as { id: number; title: string }[];
		execute(
			`INSERT INTO notifications (channel_id, member_id, kind, dedupe_key, post_id, reason, created_at, updated_at) VALUES (${channel.index}, ${m.id}, 'HIDDEN', 'shot:${m.id}', ${post!.id}, 'Links to a gold seller are not allowed in this board, please read the rules.', ${Date.now()}, ${Date.now()})`,
		);
		execute(`UPDATE posts SET member_id = member_id WHERE id = ${post!.id}`);
		for (const [size, vp] of [
			['phone', PHONE],
			['desktop', DESKTOP],
		] as const) {
			const context = await browser.newContext({ viewport: vp, colorScheme: scheme });
			const page = await context.newPage();
			await signInContext(context, channel, m.id);
			await page.goto(`${path}/mypage/notifications`);
			await page.screenshot({ path: `test-results/shot-notif-${lang}-${scheme}-${size}-${channel.index}.png` });
			expect(await scrollsSideways(page)).toBe(false);
			await page.goto(`${path}/posts/${post!.id}`);
			execute(
				`INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (${channel.index}, ${m.id}, 'TEMPORARY', ${Date.UTC(2027, 0, 15, 9, 30)}, 'Insults in three threads', ${Date.now()})`,
			);
			await page.locator('[data-post-action="like"], [data-like-button]').first().click();
			await expect(page.getByRole('dialog')).toBeVisible();
			await page.screenshot({ path: `test-results/shot-bandialog-${lang}-${scheme}-${size}-${channel.index}.png` });
			await page.reload();
			await expect(page.locator('[data-ban-notice]')).toBeVisible();
			await page.screenshot({ path: `test-results/shot-bannotice-${lang}-${scheme}-${size}-${channel.index}.png` });
			expect(await scrollsSideways(page)).toBe(false);
			execute(`UPDATE bans SET lifted_at = ${Date.now()} WHERE member_id = ${m.id} AND lifted_at IS NULL`);
			await context.close();
		}
	});
}
