/**
 * Finding one's way on a phone, in every demo community at 390×844:
 * the board drawer, the active board in the sideways top menu, the footer's channel switcher kept
 * on the screen, and a link to a comment landing below the sticky header. At 1440×900 the sidebar
 * shows and the drawer's button does not.
 */
import { expect, test } from './test';
import { DESKTOP, PHONE, boxOf, viewportOf, within } from './phone-checks';
import { reviewShot } from './review-shot';

/** Each community with the pinned board furthest along its top menu (off the phone's screen until scrolled to). */
const COMMUNITIES = [
	{ path: '/starfall/global', lastPinnedBoardId: 16, switcher: true },
	{ path: '/starfall/kr', lastPinnedBoardId: 26, switcher: true },
	{ path: '/starfall/jp', lastPinnedBoardId: 36, switcher: true },
	{ path: '/starfall/tw', lastPinnedBoardId: 56, switcher: true },
	{ path: '/pixelfarm/main', lastPinnedBoardId: 42, switcher: false },
];

/** The name a file of this community's screenshot carries. */
const fileName = (path: string) => path.slice(1).replace('/', '-');

test.describe('on a phone', () => {
	test.use({ viewport: PHONE });

	// One test per community, one load of each page it looks at: the board being read (the top menu,
	// then the drawer, whose link goes to All Posts), All Posts (the switcher, the link to a comment),
	// then the post. Each check is a step named as the test it was; the steps that change the page come
	// after those that only look at it.
	for (const community of COMMUNITIES) {
		test(`finding one's way in ${community.path}: the top menu, the board drawer, the channel switcher and a link to a comment`, async ({ page }) => {
			test.slow();
			const boardPath = `${community.path}/boards/${community.lastPinnedBoardId}`;
			await page.goto(boardPath);

			await test.step('the board being read is scrolled into view in the top menu', async () => {
				const list = page.locator('[data-menu-list]');
				const active = list.locator('a[aria-current="page"]');
				await expect(active, 'the active board in the top menu').toHaveAttribute('href', boardPath);
				// Visible: inside the menu's scrolled box, which is inside the screen.
				await expect.poll(async () => within(await boxOf(active), await boxOf(list)), { message: 'the active board inside the menu' }).toBe(true);
				expect(within(await boxOf(list), viewportOf(page)), 'the menu inside the screen').toBe(true);
				// Not under a scroll arrow: a tap at its middle reaches it.
				const box = await boxOf(active);
				expect(
					await page.evaluate(
						([x, y]) =>
							document
								.elementFromPoint(x ?? 0, y ?? 0)
								?.closest('a')
								?.getAttribute('aria-current'),
						[box.x + box.width / 2, box.y + box.height / 2],
					),
					'a tap at the middle of the active board reaches it',
				).toBe('page');
				await reviewShot(page, `test-results/phone-navigation/menu-${fileName(community.path)}.png`);
			});

			await test.step('the board drawer opens from the header, is used by keyboard and closes back to its button', async () => {
				const button = page.locator('[data-drawer-button]');
				const drawer = page.getByRole('dialog');
				await expect(button).toBeVisible();
				await expect(button).toHaveAttribute('aria-haspopup', 'dialog');
				const name = await button.getAttribute('aria-label');
				expect(name, "the drawer button's name").toBeTruthy();
				// The button sits in the sticky header, on the first screen.
				expect(within(await boxOf(button), await boxOf(page.locator('.top-bar'))), 'the drawer button in the sticky header').toBe(true);

				await button.click();
				await expect(drawer).toBeVisible();
				await expect(drawer).toHaveAccessibleName(name ?? '');
				// The tree is in the sheet, the board being read marked, and the sheet inside the screen.
				const tree = drawer.getByRole('navigation', { name: name ?? '' });
				await expect(tree).toBeVisible();
				const current = tree.locator(`a[href="${boardPath}"]`);
				await expect(current).toHaveAttribute('aria-current', 'page');
				const viewport = viewportOf(page);
				expect(within(await boxOf(drawer), viewport), 'the drawer inside the screen').toBe(true);
				// The sheet scrolls inside itself, not the page behind it.
				const body = drawer.locator('[data-drawer-body]');
				expect(await body.evaluate((element) => getComputedStyle(element).overflowY), 'the sheet scrolls inside itself').toBe('auto');
				expect(await page.evaluate(() => document.body.scrollWidth <= innerWidth), 'no sideways scroll').toBe(true);
				await reviewShot(page, `test-results/phone-navigation/drawer-${fileName(community.path)}.png`);

				// The focus moved into the dialog; Tab walks its links, inside the sheet.
				expect(await drawer.evaluate((element) => element.contains(document.activeElement)), 'the focus in the drawer').toBe(true);
				const reached: string[] = [];
				for (let step = 0; step < 6; step += 1) {
					await page.keyboard.press('Tab');
					const focused = await page.evaluate(() => {
						const element = document.activeElement;
						return {
							inDialog: Boolean(element?.closest('dialog[open]')),
							href: element instanceof HTMLAnchorElement ? element.getAttribute('href') : null,
						};
					});
					expect(focused.inDialog, 'Tab stays in the drawer').toBe(true);
					if (focused.href) reached.push(focused.href);
				}
				expect(reached, 'the links Tab reached').toContain(`${community.path}/boards`);

				// Escape closes it, the focus back on the button.
				await page.keyboard.press('Escape');
				await expect(drawer).toBeHidden();
				await expect(button).toBeFocused();
				// So does the close button.
				await button.click();
				await drawer.getByRole('button', { name: (await page.locator('.drawer-close').getAttribute('aria-label')) ?? '' }).click();
				await expect(drawer).toBeHidden();
				await expect(button).toBeFocused();

				// A link of the tree works: from the drawer to All Posts.
				await button.click();
				await drawer.locator(`a[href="${community.path}/boards"]`).click();
				await expect(page).toHaveURL(new RegExp(`${community.path}/boards$`));
				await expect(page.getByRole('dialog')).toBeHidden();
			});

			if (community.switcher) {
				await test.step("the footer's channel switcher opens inside the screen", async () => {
					const switcher = page.locator('[data-channel-switcher]');
					await switcher.locator('summary').click();
					const list = switcher.locator('ul');
					await expect(list).toBeVisible();
					// Inside the screen and clear of the footer's own margins, every name in it too.
					const footer = page.locator('.footer-inner');
					const inset = await footer.evaluate((element) => parseFloat(getComputedStyle(element).paddingLeft));
					const footerBox = await boxOf(footer);
					const content = { ...footerBox, x: footerBox.x + inset, width: footerBox.width - 2 * inset, y: 0, height: viewportOf(page).height * 10 };
					expect(within(await boxOf(list), content), 'the switcher inside the footer').toBe(true);
					for (const link of await list.locator('a').all())
						expect(within(await boxOf(link), content), 'a community name inside the footer').toBe(true);
					await list.scrollIntoViewIfNeeded();
					expect(within(await boxOf(list), { ...viewportOf(page), y: 0 }), 'the switcher inside the screen').toBe(true);
					await reviewShot(page, `test-results/phone-navigation/switcher-${fileName(community.path)}.png`);
				});
			}

			await test.step("a post's board is marked in the drawer; a link to a comment lands with the comment's author line below the sticky header", async () => {
				const href = await page.locator('.post-row:has(.comment-count) .post-title').first().getAttribute('href');
				if (!href) throw new Error(`${community.path} lists no post with comments`);
				await page.goto(href);
				const comments = page.locator('.comments .comment[id^="comment-"]');
				await expect(comments.first()).toBeVisible();
				// The post's board is where the reader is: the drawer shows it, its category open, marked as the current place.
				const board = await page.locator('.post-crumbs a').first().getAttribute('href');
				await page.locator('[data-drawer-button]').click();
				const inBoard = page.getByRole('dialog').locator(`a[href="${board}"]`);
				await expect(inBoard, "the post's board in the drawer").toBeVisible();
				await expect(inBoard, "the post's board in the drawer").toHaveAttribute('aria-current', 'true');
				await page.keyboard.press('Escape');
				await expect(page.getByRole('dialog')).toBeHidden();
				// The first comment: the page goes on below it, so it can scroll it to the top.
				const commentId = Number((await comments.first().getAttribute('id'))?.replace('comment-', ''));
				await page.goto(`${href}?commentId=${commentId}#comment-${commentId}`);
				const head = page.locator(`#comment-${commentId} .comment-head`).first();
				await expect(head).toBeVisible();
				await expect.poll(() => page.evaluate(() => scrollY), { message: 'the page scrolled to the comment' }).toBeGreaterThan(0);
				const header = await boxOf(page.locator('.top-bar'));
				const author = await boxOf(head);
				expect(author.y, 'the author line below the sticky header').toBeGreaterThanOrEqual(header.y + header.height);
				expect(author.y + author.height, 'the author line on the screen').toBeLessThanOrEqual(viewportOf(page).height);
				await reviewShot(page, `test-results/phone-navigation/comment-${fileName(community.path)}.png`);
			});
		});
	}
});

test.describe('on a desktop', () => {
	test.use({ viewport: DESKTOP });

	test("each community shows the sidebar's tree and no drawer button; a link to a comment lands below the sticky header", async ({ page }) => {
		test.slow();
		for (const community of COMMUNITIES) {
			await test.step(`${community.path} shows the sidebar's tree and no drawer button`, async () => {
				await page.goto(`${community.path}/boards/${community.lastPinnedBoardId}`);
				await expect(page.locator('[data-drawer-button]'), 'the drawer button').toBeHidden();
				await expect(page.locator('.sidebar [data-board-tree]'), "the sidebar's tree").toBeVisible();
				await reviewShot(page, `test-results/phone-navigation/desktop-${fileName(community.path)}.png`);
			});
		}

		await test.step("a post's board is marked in the sidebar; a link to a comment lands below the sticky header on a desktop too", async () => {
			await page.goto('/starfall/global/boards');
			const href = await page.locator('.post-row:has(.comment-count) .post-title').first().getAttribute('href');
			if (!href) throw new Error('no post with comments');
			await page.goto(href);
			// The post's board is marked in the sidebar's tree, its category open, and in the top menu when pinned there.
			const board = await page.locator('.post-crumbs a').first().getAttribute('href');
			const inTree = page.locator(`.sidebar [data-board-tree] a[href="${board}"]`);
			await expect(inTree, "the post's board in the sidebar").toBeVisible();
			await expect(inTree, "the post's board in the sidebar").toHaveAttribute('aria-current', 'true');
			const pinned = page.locator(`[data-menu-list] a[href="${board}"]`);
			if ((await pinned.count()) > 0) await expect(pinned, "the post's board in the top menu").toHaveAttribute('aria-current', 'true');
			const commentId = Number((await page.locator('.comments .comment[id^="comment-"]').first().getAttribute('id'))?.replace('comment-', ''));
			await page.goto(`${href}?commentId=${commentId}#comment-${commentId}`);
			const head = page.locator(`#comment-${commentId} .comment-head`).first();
			await expect(head).toBeVisible();
			const header = await boxOf(page.locator('.top-bar'));
			expect((await boxOf(head)).y, 'the author line below the sticky header').toBeGreaterThanOrEqual(header.y + header.height);
		});
	});
});
