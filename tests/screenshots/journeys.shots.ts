/**
 * `npm run screenshots`: every step of the reader's and the writer's journeys (tests/e2e/journeys.ts)
 * in every demo community, at 390×844 and 1440×900, in the light and the dark theme, as PNGs of the
 * screen a person sees: screenshots/<domain>-<slug>/<size>-<theme>-<NN>-<step>.png.
 *
 * A community has one theme (its community file's `header.themeType`); for the other one the
 * community is switched as an operator's community file would switch it, in the run's own
 * database: the theme type, with that theme's default page and header colours (src/server/channels/theme.ts),
 * and the content version moved so that no cached page of the old theme is served. The browser
 * prefers the same scheme (`colorScheme`), as a person who reads a dark community on a dark device
 * does (the Turnstile widget follows it).
 *
 * The site's own pages (the directory at /) belong to no community and have the site's one theme,
 * light: they are photographed in the light walk only. Every shot is checked before it is kept: the
 * page's computed background is darker than its text in the dark theme and lighter in the light one,
 * so a "dark" shot that came out light fails the run instead of passing unseen.
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
/** The steps on the site's own pages, in the site's light theme whatever the community's (BareLayout's DEFAULT_THEME). */
const SITE_STEPS = new Set(['directory']);
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

/** Whether the page shows `theme`: its computed background darker than its text (DARK) or lighter (LIGHT). */
async function showsTheme(page: Page, theme: (typeof THEMES)[number]): Promise<{ background: string; text: string; ok: boolean }> {
	const { background, text } = await page.evaluate(() => {
		const style = getComputedStyle(document.body);
		return { background: style.backgroundColor, text: style.color };
	});
	/** The relative luminance (WCAG) of a computed rgb() colour. */
	const luminance = (colour: string): number => {
		const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
			const c = Number(value) / 255;
			return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
		}) as [number, number, number];
		return 0.2126 * r + 0.7152 * g + 0.0722 * b;
	};
	const darker = luminance(background) < luminance(text);
	return { background, text, ok: theme === 'DARK' ? darker : !darker };
}

/** One walk: a fresh browser context (a guest), both journeys, a PNG at each step. */
async function walk(browser: Browser, channel: Community, size: (typeof SIZES)[number], theme: (typeof THEMES)[number], address: string): Promise<void> {
	const context = await browser.newContext({
		baseURL: test.info().project.use.baseURL ?? '',
		viewport: size.viewport,
		hasTouch: size.hasTouch,
		colorScheme: theme === 'DARK' ? 'dark' : 'light',
		extraHTTPHeaders: { 'CF-Connecting-IP': address },
	});
	const page = await context.newPage();
	let count = 0;
	const shoot = async (step: string) => {
		count += 1;
		if (theme === 'DARK' && SITE_STEPS.has(step)) return;
		const shown = await showsTheme(page, theme);
		expect(shown.ok, `${size.name}-${theme.toLowerCase()} ${step}: background ${shown.background}, text ${shown.text}`).toBe(true);
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
