/**
 * What the screens say where a person could get stuck (docs/reference/messages.md#empty-lists), on a phone
 * (390×844) in English and Korean: every empty list says what to do next with a link; the
 * notifications page says "Notifications" once as its title (and once in the menu), offers "Mark
 * all read" only with something to mark, and Settings names notifications for what they are (알림,
 * not a bell's 종소리); Settings says the sign-in provider once and has Log out, after which the
 * home page says "You're logged out." The toast's 1.5 s run on Playwright's clock. Each test makes
 * a member of its own, with nothing written yet.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { texts } from './texts';
import { execute } from './fixtures';
import { community } from './write-helpers';
import { signInContext } from './sessions';
import { PHONE, scrollsSideways, smallTargets } from './phone-checks';

const CASES = [
	['/starfall/global', 'en'],
	['/starfall/kr', 'ko'],
] as const;

/** A member of the community made for this test: no posts, comments, drafts or notifications. */
async function newcomer(page: Page, channelPath: string): Promise<void> {
	const channel = await community(channelPath);
	const nickname = `Next${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
	const now = Date.now();
	const [member] = execute(
		`INSERT INTO members (channel_id, nickname, role, provider, recent_provider, joined_at, terms_agreed_at, privacy_agreed_at)
		 VALUES (${channel.index}, '${nickname}', 'MEMBER', 'GOOGLE', 'GOOGLE', ${now - 90 * 86_400_000}, ${now}, ${now}) RETURNING id`,
	) as { id: number }[];
	execute(
		`INSERT INTO nickname_claims (channel_id, nickname_key, nickname, member_id, claimed_at) VALUES (${channel.index}, '${nickname.toLowerCase()}', '${nickname}', ${member!.id}, ${now})`,
	);
	await signInContext(page.context(), channel, member!.id);
}

/** The empty list's sentence and its next step, which leads where it says. */
async function expectNextStep(page: Page, sentence: string, label: string, href: RegExp): Promise<void> {
	await expect(page.getByText(sentence, { exact: true })).toBeVisible();
	const next = page.locator('[data-empty-action]');
	await expect(next).toHaveText(label);
	await expect(next).toHaveAttribute('href', href);
	expect((await next.boundingBox())!.height).toBeGreaterThanOrEqual(44);
}

test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

for (const [channelPath, language] of CASES) {
	test.describe(`${channelPath} (${language})`, () => {
		const t = texts(language);
		const home = new RegExp(`${channelPath}$`);
		const write = new RegExp(`${channelPath}/write$`);

		test('empty lists say what to do next: my posts, comments, likes, drafts, notifications, watching, a search', async ({ page }) => {
			await newcomer(page, channelPath);
			await page.goto(`${channelPath}/mypage`);
			await expectNextStep(page, t('mypage.empty.posts'), t('empty.write'), write);
			await page.locator('[data-empty-action]').click();
			await expect(page).toHaveURL(write);
			for (const [tab, sentence, label, href] of [
				['comments', 'mypage.empty.comments', 'empty.browse', home],
				['likes', 'mypage.empty.likes', 'empty.browse', home],
				['drafts', 'mypage.empty.drafts', 'empty.write', write],
			] as const) {
				await page.goto(`${channelPath}/mypage?tab=${tab}`);
				await expectNextStep(page, t(sentence), t(label), href);
			}
			await page.goto(`${channelPath}/mypage/notifications`);
			await expectNextStep(page, t('notifications.empty'), t('empty.browse'), home);
			await page.goto(`${channelPath}/mypage/notifications?tab=watching`);
			await expectNextStep(page, t('watch.listEmpty'), t('empty.browse'), home);
			await page.goto(`${channelPath}/search?q=zzqqnothing`);
			await expect(page.locator('[data-search-empty]')).toContainText('zzqqnothing');
			await expectNextStep(page, (await page.locator('[data-search-empty]').textContent())!, t('empty.browse'), home);
			expect(await scrollsSideways(page)).toBe(false);
		});

		test('a board list with no posts offers to write the first one', async ({ page }) => {
			await newcomer(page, channelPath);
			const channel = await community(channelPath);
			// A category of its own in the community's last board with categories: its list is empty.
			const [board] = execute(
				`SELECT id FROM boards WHERE channel_id = ${channel.index} AND use_subjects = 1 AND notice_only = 0 AND is_public = 1 ORDER BY id DESC LIMIT 1`,
			) as { id: number }[];
			const [subject] = execute(
				`INSERT INTO board_subjects (channel_id, board_id, name, sort_order) VALUES (${channel.index}, ${board!.id}, 'Empty ${Date.now().toString(36)}', 99) RETURNING id`,
			) as { id: number }[];
			// A change of categories bumps the community's content version, as the channel command does:
			// its pages read the new layout within two seconds (src/server/channels/channels.ts).
			execute(`UPDATE channels SET content_version = content_version + 1 WHERE id = ${channel.index}`);
			await expect(async () => {
				await page.goto(`${channelPath}/boards/${board!.id}?subjectId=${subject!.id}`);
				await expect(page.locator('.subjects a[aria-current="page"]')).toHaveAttribute('href', new RegExp(`subjectId=${subject!.id}$`), {
					timeout: 1,
				});
			}).toPass({ timeout: 20_000 });
			await expectNextStep(page, t('board.empty'), t('board.emptyAction'), new RegExp(`${channelPath}/write\\?boardId=${board!.id}$`));
		});

		test('notifications: said once as the title, no Mark all read on an empty list; Settings says the provider once, and Log out says so', async ({
			page,
		}) => {
			await newcomer(page, channelPath);
			await page.goto(`${channelPath}/mypage/notifications`);
			const card = page.locator('.mypage');
			await expect(card.getByRole('heading', { level: 1 })).toHaveText(t('notifications.title'));
			// The menu item and the title; the list's tab is called what it holds.
			await expect(card.getByText(t('notifications.title'), { exact: true })).toHaveCount(2);
			await expect(card.getByRole('link', { name: t('notifications.tab.received'), exact: true })).toHaveAttribute('aria-current', 'page');
			await expect(page.getByRole('button', { name: t('notifications.markAllRead') })).toHaveCount(0);

			await page.goto(`${channelPath}/mypage/settings`);
			await expect(page.getByText(t('notifications.settingsDesc'), { exact: true })).toBeVisible();
			await expect(page.locator('.mypage')).not.toContainText('종소리');
			await expect(page.locator('.mypage-facts')).toContainText(t('settings.provider'));
			await expect(page.locator('.mypage-facts dd', { hasText: 'Google' })).toHaveCount(1);
			await expect(page.locator('.mypage-facts')).not.toContainText(t('settings.recentProvider'));
			expect(await smallTargets(page)).toEqual([]);
			expect(await scrollsSideways(page)).toBe(false);

			const logout = page.getByRole('button', { name: t('common.button.logout'), exact: true });
			await expect(logout).toBeEnabled();
			await page.clock.install();
			await logout.click();
			// The community's home (its first board, or all boards), as a guest.
			await expect(page).not.toHaveURL(/mypage/);
			await expect(page.locator('[data-toast]')).toHaveText(t('common.message.loggedOut'));
			await expect(page.locator('[data-guest-welcome]')).toBeVisible();
			await page.clock.runFor(1800);
			await expect(page.locator('[data-toast]')).toBeHidden();
		});
	});
}
