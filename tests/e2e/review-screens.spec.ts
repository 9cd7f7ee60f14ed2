/**
 * Photographs of the member features' screens for people to look at, not a check: avatars (My Page's
 * picker and crop dialog, the post, comments, profile, notifications, the header), the Best comments
 * and the order tabs, the live banner and the bell, saved posts (with a hidden and a deleted entry),
 * blocking (the profile's button, a comment's menu and confirm, the collapsed comment, Settings' list),
 * the "edited" mark and its dialog, and the Popular tabs: at 390 × 844 and 1440 × 900, in English,
 * Korean and Japanese (Starfall, light) and dark (Pixel Farm: the theme is a community's setting,
 * `channels.theme_type`, not the reader's colour scheme), and Korean, Japanese and Chinese again on the
 * dark theme (Starfall's kr, jp and tw set dark for the run, community-theme.ts). Run only with REVIEW_SHOTS set (`REVIEW_SHOTS=1 playwright test review-screens`):
 * test-results/review/{community}-{theme}-{width}-{screen}.png. Each screen's sideways overflow, the
 * open popups outside the viewport, the tap targets under 24 px and text under WCAG's contrast are written beside them
 * (test-results/review/findings.txt); the checks that hold them are in the features' own specs.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, freshMember, type Community } from './write-helpers';
import { mintSession, sessionCookieName, signInContext } from './sessions';
import { reviewShot } from './review-shot';
import { twoHalves } from './avatar-picture';
import { setTheme } from './community-theme';

test.skip(!process.env['REVIEW_SHOTS'], 'Photographs only: REVIEW_SHOTS=1');
test.describe.configure({ timeout: 600_000 });

const DIR = 'test-results/review';

/** What is wrong on the screen as a reader sees it: sideways overflow, popups outside it, small targets. */
async function findings(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const found: string[] = [];
		const root = document.documentElement;
		if (root.scrollWidth > root.clientWidth) found.push(`overflow ${root.scrollWidth - root.clientWidth}px`);
		const name = (element: Element) =>
			`${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''} "${(element.textContent ?? '').trim().slice(0, 30)}"`;
		for (const open of document.querySelectorAll('dialog[open], [role="menu"]')) {
			const box = open.getBoundingClientRect();
			if (box.width === 0) continue;
			if (box.left < 0 || box.top < 0 || box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5)
				found.push(
					`outside the viewport: ${name(open)} ${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}×${Math.round(box.height)}`,
				);
		}
		for (const target of document.querySelectorAll('button, a[href], [role="tab"], [role="menuitem"], input:not([type="hidden"]), select, summary')) {
			const box = target.getBoundingClientRect();
			if (box.width === 0 || box.height === 0 || getComputedStyle(target).visibility === 'hidden') continue;
			if (box.bottom < 0 || box.top > innerHeight) continue;
			// Links inside a sentence are exempt (WCAG 2.5.8's inline exception).
			if (target.tagName === 'A' && getComputedStyle(target).display === 'inline' && target.closest('p, li, td')) continue;
			if (box.height < 24 || box.width < 24) found.push(`small target ${Math.round(box.width)}×${Math.round(box.height)}: ${name(target)}`);
		}
		// Text under WCAG 1.4.3's contrast (4.5:1, 3:1 when large) on the backgrounds behind it, each
		// colour read back through a canvas, so any CSS colour (color-mix, alpha) is as painted.
		const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
		const rgba = (colour: string): [number, number, number, number] => {
			canvas.clearRect(0, 0, 1, 1);
			canvas.fillStyle = colour;
			canvas.fillRect(0, 0, 1, 1);
			const [red, green, blue, alpha] = canvas.getImageData(0, 0, 1, 1).data;
			return [red!, green!, blue!, alpha! / 255];
		};
		const over = (top: number[], under: number[]) => [0, 1, 2].map((i) => top[i]! * top[3]! + under[i]! * (1 - top[3]!));
		const behind = (element: Element): number[] => {
			const layers: number[][] = [];
			for (let at: Element | null = element; at; at = at.parentElement) {
				const fill = rgba(getComputedStyle(at).backgroundColor);
				if (fill[3] > 0) layers.push(fill);
				if (fill[3] === 1) break;
			}
			return layers.reduceRight<number[]>((under, layer) => over(layer, under), [255, 255, 255]);
		};
		const luminance = (colour: number[]) =>
			colour
				.slice(0, 3)
				.map((part) => (part / 255 <= 0.03928 ? part / 255 / 12.92 : ((part / 255 + 0.055) / 1.055) ** 2.4))
				.reduce((sum, part, i) => sum + part * [0.2126, 0.7152, 0.0722][i]!, 0);
		const seen = new Set<string>();
		for (const element of document.body.querySelectorAll('*')) {
			if (![...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '')) continue;
			const style = getComputedStyle(element);
			const box = element.getBoundingClientRect();
			if (
				box.width === 0 ||
				box.bottom < 0 ||
				box.top > innerHeight ||
				style.visibility === 'hidden' ||
				element.closest('[aria-hidden="true"], .visually-hidden')
			)
				continue;
			const background = behind(element);
			const text = over(rgba(style.color), background);
			const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a) as [number, number];
			const ratio = (light + 0.05) / (dark + 0.05);
			const size = parseFloat(style.fontSize);
			const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
			const key = `${name(element)}`;
			if (ratio < (large ? 3 : 4.5) && !seen.has(key)) {
				seen.add(key);
				found.push(`contrast ${ratio.toFixed(2)}:1: ${key} ${style.color} on rgb(${background.map(Math.round).join(', ')})`);
			}
		}
		return found;
	});
}

async function shoot(page: Page, label: string, screen: string): Promise<void> {
	const problems = await findings(page);
	appendFileSync(`${DIR}/findings.txt`, `${label}-${screen}: ${problems.length === 0 ? 'ok' : `\n  ${problems.join('\n  ')}`}\n`);
	await reviewShot(page, `${DIR}/${label}-${screen}.png`);
}

/** Runs one part of the screens; a failure is written down (with a shot) and the next part goes on. */
async function step(page: Page, label: string, part: string, run: () => Promise<void>): Promise<void> {
	try {
		await run();
	} catch (error) {
		appendFileSync(`${DIR}/findings.txt`, `${label}-${part}: FAILED ${String(error).split('\n')[0]}\n`);
		await reviewShot(page, `${DIR}/${label}-${part}-failed.png`).catch(() => undefined);
		await page.keyboard.press('Escape').catch(() => undefined);
	}
}

/** A post with twelve comments (three liked enough to be Best, one by the blocked member, one edited, a reply) and an edit. */
function stage(channel: Community, viewer: number, author: number, blocked: number): { postId: number; viewerComment: number } {
	const now = Date.now();
	const board = boardOf(channel, 'general');
	const doc = (text: string) => JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });
	const [post] = execute(
		`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at, edited_at, comment_count, like_count)
		 VALUES (${channel.index}, ${board}, ${author}, 'Lanterns over the harbour at dusk, a long title that wraps', '${doc('Lanterns over the harbour.')}', 'Lanterns', ${now - 7_200_000}, ${now - 3_600_000}, 12, 4) RETURNING id`,
	) as { id: number }[];
	const postId = post!.id;
	execute(
		`INSERT INTO revisions (channel_id, content_type, content_id, member_id, title, content, written_at, replaced_at)
		 VALUES (${channel.index}, 'POST', ${postId}, ${author}, 'Lanterns over the harbor', 'Lanterns over the harbor, first draft.', ${now - 7_200_000}, ${now - 3_600_000})`,
	);
	const writers = [author, blocked, viewer, author, author, author, author, author, author, author, author];
	const ids: number[] = [];
	writers.forEach((writer, i) => {
		const likes = [6, 0, 4, 3][i] ?? 0;
		const edited = i === 3 ? now - 3_000_000 : 'NULL';
		const [row] = execute(
			`INSERT INTO comments (channel_id, post_id, member_id, content, created_at, edited_at, like_count)
			 VALUES (${channel.index}, ${postId}, ${writer}, 'Comment number ${i + 1}: the lanterns were lovely tonight.', ${now - 6_000_000 + i * 1000}, ${edited}, ${likes}) RETURNING id`,
		) as { id: number }[];
		ids.push(row!.id);
	});
	execute(
		`INSERT INTO comments (channel_id, post_id, member_id, parent_id, content, created_at) VALUES (${channel.index}, ${postId}, ${author}, ${ids[2]}, 'A reply to the viewer.', ${now - 5_000_000})`,
	);
	execute(
		`INSERT INTO revisions (channel_id, content_type, content_id, member_id, content, written_at, replaced_at)
		 VALUES (${channel.index}, 'COMMENT', ${ids[3]}, ${author}, 'Comment number 4, before the edit.', ${now - 5_997_000}, ${now - 3_000_000})`,
	);
	execute(
		`INSERT INTO member_blocks (blocker_id, blocked_id, channel_id, created_at) VALUES (${viewer}, ${blocked}, ${channel.index}, ${now - 1000})`,
	);
	const gone = [
		['deleted_at', now - 500_000],
		['hidden_by_admin', 1],
	].map(([column, value]) => {
		const [row] = execute(
			`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at, ${column})
			 VALUES (${channel.index}, ${board}, ${author}, 'Gone', '${doc('Gone')}', 'Gone', ${now - 900_000}, ${value}) RETURNING id`,
		) as { id: number }[];
		return row!.id;
	});
	for (const [i, saved] of [postId, ...gone].entries()) {
		execute(
			`INSERT INTO saved_posts (member_id, post_id, channel_id, saved_at) VALUES (${viewer}, ${saved}, ${channel.index}, ${now - 100_000 + i})`,
		);
	}
	execute(
		`INSERT INTO notifications (channel_id, member_id, kind, dedupe_key, actor_id, post_id, comment_id, created_at, updated_at)
		 VALUES (${channel.index}, ${viewer}, 'REPLY', 'review-${postId}', ${author}, ${postId}, ${ids[2]}, ${now - 5_000_000}, ${now - 5_000_000})`,
	);
	return { postId, viewerComment: ids[2]! };
}

/**
 * The communities photographed, each in its own theme and, where `dark` is listed for a light one,
 * again with its theme set to dark for the run (restored after): no Korean, Japanese or Chinese
 * community is dark, so their text on the dark theme is looked at this way.
 */
const RUNS: { path: string; themes: ('light' | 'dark')[] }[] = [
	{ path: '/starfall/global', themes: ['light'] },
	{ path: '/starfall/kr', themes: ['light', 'dark'] },
	{ path: '/starfall/jp', themes: ['light', 'dark'] },
	{ path: '/starfall/tw', themes: ['dark'] },
	{ path: '/pixelfarm/main', themes: ['dark'] },
];

for (const { path, themes } of RUNS) {
	test(`screens of ${path}`, async ({ page, request }) => {
		test.setTimeout(600_000 * themes.length);
		mkdirSync(DIR, { recursive: true });
		const channel = await community(path);
		const viewer = freshMember('Viewer', channel.index).id;
		const author = freshMember('Author', channel.index);
		const blocked = freshMember('Blocked', channel.index);
		const { postId, viewerComment } = stage(channel, viewer, author.id, blocked.id);
		await signInContext(page.context(), channel, viewer);
		const authorCookie = `${sessionCookieName(channel)}=${await mintSession(channel, author.id)}`;
		const base = `${channel.domain}-${channel.slug}`;
		for (const theme of themes) {
			const restore = await setTheme(page.request, channel, theme);
			try {
				for (const [width, height] of [
					[390, 844],
					[1440, 900],
				] as const) {
					await page.setViewportSize({ width, height });
					const label = `${base}-${theme}-${width}`;
					await step(page, label, 'post', async () => {
						await page.goto(`${path}/posts/${postId}`);
						await shoot(page, label, 'post-top');
						await page.locator('[data-comments]').scrollIntoViewIfNeeded();
						await page.mouse.wheel(0, 200);
						await expect(page.locator('[data-best-mark]').first()).toBeVisible();
						await page.locator('[data-best-mark]').first().scrollIntoViewIfNeeded();
						await shoot(page, label, 'best');
						await page.locator('[data-blocked-comment]').first().scrollIntoViewIfNeeded();
						await shoot(page, label, 'collapsed-edited');
					});
					await step(page, label, 'menu', async () => {
						// A comment's menu.
						const menuButton = page.locator('[data-comments] [aria-haspopup="menu"]').first();
						await expect(page.locator('[data-comments]')).toHaveAttribute('data-comments-loader', 'armed');
						await menuButton.scrollIntoViewIfNeeded();
						await menuButton.click();
						// The press wakes the comments island, which opens the menu once it is there: the shot and the press
						// outside wait for it (a press outside before it cancels the menu, tests/e2e/comment-menu.spec.ts).
						await expect(page.locator('.comment-menu-list')).toBeVisible();
						await shoot(page, label, 'comment-menu');
						// A press outside closes it (as Escape does with the focus in it).
						await page.mouse.click(2, height / 2);
						await expect(page.locator('.comment-menu-list')).toBeHidden();
					});
					await step(page, label, 'revisions', async () => {
						// The post's "edited" mark opens its earlier versions.
						await page.locator('[data-revisions="post"]').click();
						await expect(page.locator('[data-revisions-list] li').first()).toBeVisible();
						await shoot(page, label, 'revisions');
						await page.keyboard.press('Escape');
					});
					await step(page, label, 'live', async () => {
						// Another member comments: the live banner (the bell counts when a reply is the viewer's).
						await page.locator('[data-comments]').scrollIntoViewIfNeeded();
						await page.mouse.wheel(0, 100);
						await expect(page.locator('[data-live-banner]')).toHaveAttribute('data-live', 'open');
						const answer = await request.post(`/v1/${channel.domain}/${channel.slug}/posts/${postId}/comments`, {
							headers: { cookie: authorCookie, origin: new URL(page.url()).origin },
							data: { content: `Live ${label}`, parentId: null },
						});
						expect(answer.status()).toBe(200);
						await expect(page.locator('[data-live-banner] button')).toBeVisible();
						await shoot(page, label, 'live-banner');
						const reply = await request.post(`/v1/${channel.domain}/${channel.slug}/posts/${postId}/comments`, {
							headers: { cookie: authorCookie, origin: new URL(page.url()).origin },
							data: { content: `Reply ${label}`, parentId: viewerComment },
						});
						expect(reply.status()).toBe(200);
						await expect(page.locator('[data-bell-count]')).toBeVisible();
						await page.evaluate(() => window.scrollTo(0, 0));
						await shoot(page, label, 'bell');
					});
					await step(page, label, 'profile', async () => {
						await page.goto(`${path}/users/${author.id}`);
						await shoot(page, label, 'profile');
						await page.locator('[data-block-toggle]').click();
						await expect(page.locator('dialog[data-block-dialog]')).toBeVisible();
						await shoot(page, label, 'block-confirm');
						await page.keyboard.press('Escape');
					});
					await step(page, label, 'settings', async () => {
						await page.goto(`${path}/mypage/settings`);
						await shoot(page, label, 'settings-top');
						await page.locator('[data-avatar-form]').scrollIntoViewIfNeeded();
						await shoot(page, label, 'settings-avatar');
						await page.locator('[data-blocked-members]').scrollIntoViewIfNeeded();
						await shoot(page, label, 'settings-blocked');
						await page.getByRole('heading', { level: 2 }).last().scrollIntoViewIfNeeded();
						await page.mouse.wheel(0, 10_000);
						await shoot(page, label, 'settings-bottom');
						await page.locator('[data-avatar-file]').setInputFiles({ name: 'picture.png', mimeType: 'image/png', buffer: await twoHalves(page) });
						await expect(page.locator('.avatar-dialog')).toBeVisible();
						await shoot(page, label, 'avatar-crop');
						await page.keyboard.press('Escape');
					});
					await step(page, label, 'lists', async () => {
						await page.goto(`${path}/mypage?tab=saved`);
						await shoot(page, label, 'saved');
						await page.goto(`${path}/mypage/notifications`);
						await shoot(page, label, 'notifications');
						await page.goto(`${path}/boards/${boardOf(channel, 'general')}?sort=popular`);
						await shoot(page, label, 'board-popular');
						await page.goto(`${path}/boards?sort=popular`);
						await shoot(page, label, 'all-popular');
					});
				}
			} finally {
				await restore();
			}
		}
	});
}
