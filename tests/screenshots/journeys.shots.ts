/**
 * `npm run screenshots`: every step of the reader's and the writer's journeys (tests/e2e/journeys.ts)
 * in every demo community, at 390×844 and 1440×900, in the light and the dark theme, as PNGs of the
 * screen a person sees: screenshots/<domain>-<slug>/<size>-<theme>-<NN>-<step>.png.
 *
 * A community has one theme (its community file's `header.themeType`); for the other one the
 * community is switched as an operator's community file would switch it, in the run's own
 * database: the theme type, with that theme's default page and header colours (src/server/channels/theme.ts),
 * and the content version moved so that no cached page of the old theme is served.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { execute } from '../e2e/fixtures';
import { DESKTOP, PHONE } from '../e2e/phone-checks';
import { demoCommunities, readingJourney, writingJourney } from '../e2e/journeys';
import { community, type Community } from '../e2e/write-helpers';

const OUT = path.join(process.cwd(), 'screenshots');
const SIZES = [
	{ name: 'phone', viewport: PHONE, hasTouch: true },
	{ name: 'desktop', viewport: DESKTOP, hasTouch: false },
] as const;
const THEMES = ['LIGHT', 'DARK'] as const;
/** The default page and header colours of each theme (src/server/channels/theme.ts), for a community shown in the theme it was not made for. */
const DEFAULT_COLOURS = { LIGHT: { background: '#f5f6fb', header: '#ffffff' }, DARK: { background: '#15191d', header: '#1d2327' } };

const COMMUNITIES = await demoCommunities();

/** Puts the community in `theme`: its own colours in its own theme, the defaults in the other. */
async function setTheme(page: Page, channel: Community, theme: (typeof THEMES)[number]): Promise<void> {
	const file = JSON.parse(readFileSync(path.join('channels', `${channel.domain}-${channel.slug}.json`), 'utf8')) as { header: { themeType: string; backgroundColor: string; pcHeaderColor: string | null } };
	const own = file.header.themeType === theme;
	const background = own ? file.header.backgroundColor : DEFAULT_COLOURS[theme].background;
	const header = own ? file.header.pcHeaderColor : DEFAULT_COLOURS[theme].header;
	execute(
		`UPDATE channels SET theme_type = '${theme}', background_color = '${background}', pc_header_color = ${header ? `'${header}'` : 'NULL'},
		 content_version = content_version + 1 WHERE id = ${channel.index}`,
	);
	// The Worker keeps a channel for a second or two (src/server/channels/channels.ts): asked again until it answers in the theme.
	await expect(async () => {
		await page.goto(`${channel.path}/boards`);
		await expect(page.locator('html')).toHaveAttribute('data-theme', theme, { timeout: 1000 });
	}).toPass();
}

/** One walk: a fresh browser context (a guest), both journeys, a PNG at each step. */
async function walk(browser: Browser, channel: Community, size: (typeof SIZES)[number], theme: string, address: string): Promise<void> {
	const context = await browser.newContext({ baseURL: test.info().project.use.baseURL ?? '', viewport: size.viewport, hasTouch: size.hasTouch, extraHTTPHeaders: { 'CF-Connecting-IP': address } });
	const page = await context.newPage();
	let count = 0;
	const shoot = async (step: string) => {
		count += 1;
		await page.evaluate(() => document.fonts.ready);
		const file = path.join(OUT, `${channel.domain}-${channel.slug}`, `${size.name}-${theme.toLowerCase()}-${String(count).padStart(2, '0')}-${step}.png`);
		await page.screenshot({ path: file, animations: 'disabled' });
	};
	try {
		await readingJourney(page, channel, shoot);
		if (channel.providers.length > 0) await writingJourney(page, channel, shoot);
	} finally {
		await context.close();
	}
}

COMMUNITIES.forEach((channelPath, index) => {
	test(`screenshots of ${channelPath}`, async ({ browser, page }) => {
		const channel = await community(channelPath);
		for (const [themeIndex, theme] of THEMES.entries()) {
			await setTheme(page, channel, theme);
			for (const [sizeIndex, size] of SIZES.entries()) await walk(browser, channel, size, theme, `10.96.${index}.${themeIndex * 2 + sizeIndex + 1}`);
		}
	});
});
