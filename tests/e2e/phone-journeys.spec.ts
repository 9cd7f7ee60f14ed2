/**
 * What a phone reader and writer can do: on a 390×844 phone, in every demo community (the seed's list, which the
 * directory must show), a reader's journey (directory → community → board drawer → post → image
 * viewer → comments → search) and, where the community offers a sign-in, a writer's (login → write
 * page → a post → a comment), each a test of its own (together they took close to the 60 s bound on a
 * busy machine). At every step: no sideways scroll,
 * every open popup inside the viewport, and no violation of axe's `target-size` (24 px). The walk
 * itself checks the drawer and the viewer by keyboard and the editor in the first screen
 * (tests/e2e/journeys.ts, shared with `npm run screenshots`).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { PHONE, popupsOutsideViewport, scrollsSideways, smallTargets, targetSizeViolations } from './phone-checks';
import { demoCommunities, readingJourney, writingJourney, type Step } from './journeys';
import { boardOf, community } from './write-helpers';

test.use({ viewport: PHONE, hasTouch: true });
// An upper bound, not a timing: a reader's walk is ten pages and states, each with axe's check, and took
// 48 s of the default 60 on a 2-core machine busy with other work.
test.describe.configure({ timeout: 120_000 });

const COMMUNITIES = await demoCommunities();

/** The checks of every step: what a person would see go wrong on the phone. */
function checks(page: Page, where: string, steps: string[]): Step {
	return async (name) => {
		steps.push(name);
		const at = `${where}, step ${name} (${page.url()})`;
		expect(await scrollsSideways(page), `no sideways scroll at ${at}`).toBe(false);
		expect(await popupsOutsideViewport(page), `popups outside the screen at ${at}`).toEqual([]);
		expect(await targetSizeViolations(page), `axe target-size at ${at}`).toEqual([]);
		// Stricter than axe, which lets a small target pass when nothing is near it: 24 px a side.
		expect(await smallTargets(page), `targets under 24 px at ${at}`).toEqual([]);
	};
}

test('the directory lists every demo community', async ({ request }) => {
	// The directory as served (each journey below walks it in the browser, from its first step).
	const html = await (await request.get('/')).text();
	const listed = [...html.matchAll(/<a [^>]*data-community="([^"]+)"/g)].map((match) => match[1]);
	expect(listed.toSorted()).toEqual(COMMUNITIES.toSorted());
});

for (const path of COMMUNITIES) {
	test(`a reader walks ${path} on a phone`, async ({ page }) => {
		const channel = await community(path);
		const steps: string[] = [];
		await readingJourney(page, channel, checks(page, `${path} reading`, steps));
		// Every step of the reader's walk was taken: the seed gives each community image posts with
		// comments and (but Pixel Farm, alone on its domain) a channel switcher.
		const switcher = path.startsWith('/starfall/') ? ['channel-switcher'] : [];
		expect(steps).toEqual(['directory', 'home', 'drawer', 'board', 'post', 'viewer', 'comments', 'comment-menu', ...switcher, 'search']);
	});

	test(`a writer walks ${path} on a phone`, async ({ page }) => {
		const channel = await community(path);
		if (channel.providers.length === 0) {
			// starfall/jp offers no sign-in: no writer's journey, and nothing offers one.
			await page.goto(`${path}/boards/${boardOf(channel, 'general')}`);
			await expect(page.locator('.board-header a[data-write]')).toHaveCount(0);
			return;
		}
		const steps: string[] = [];
		await writingJourney(page, channel, checks(page, `${path} writing`, steps));
		expect(steps).toEqual(['login', 'write', 'write-filled', 'published', 'commented', 'my-comment-menu']);
	});
}
