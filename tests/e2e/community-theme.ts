/**
 * A community's theme set for one test (`channels.theme_type`, with the page and header colours that go
 * with it), as `npm run channel -- apply` sets it: the content version moves too, so no cached page of the
 * community keeps the other theme (docs/reference/edge-cache.md). No Korean or Chinese community of the
 * demo is dark; the review screens and review-fixes.spec.ts look at their text on the dark theme this way.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect } from './test';
import { execute } from './fixtures';
import type { Community } from './write-helpers';

/** Pixel Farm's dark colours (channels/pixelfarm-main.json); the community keeps its key colour. */
const DARK = { background: '#15191d', header: '#1d2327' };
/** The light theme's page and header colours (src/server/channels/theme.ts's defaults). */
const LIGHT = { background: '#f5f6fb', header: '#ffffff' };

/**
 * Sets the theme and waits until a signed-in member's pages (never edge-cached; `request` carries the
 * session) are served with it: the Worker remembers a channel row for up to two seconds
 * (src/server/channels/channels.ts). Answers the function that puts the community's own theme back.
 */
export async function setTheme(request: APIRequestContext, channel: Community, theme: 'light' | 'dark'): Promise<() => Promise<void>> {
	const [before] = execute(`SELECT theme_type, background_color, pc_header_color FROM channels WHERE id = ${channel.index}`, channel) as {
		theme_type: string;
		background_color: string;
		pc_header_color: string | null;
	}[];
	const apply = async (type: string, background: string, header: string | null) => {
		execute(
			`UPDATE channels SET theme_type = '${type}', background_color = '${background}', pc_header_color = ${header === null ? 'NULL' : `'${header}'`},
			 content_version = content_version + 1 WHERE id = ${channel.index}`,
			channel,
		);
		await expect
			.poll(async () => /<html[^>]*data-theme="([A-Z]+)"/.exec(await (await request.get(`${channel.path}/boards`)).text())?.[1], { timeout: 30_000 })
			.toBe(type);
	};
	if (before!.theme_type === theme.toUpperCase()) return async () => undefined;
	const colours = theme === 'dark' ? DARK : LIGHT;
	await apply(theme.toUpperCase(), colours.background, colours.header);
	return () => apply(before!.theme_type, before!.background_color, before!.pc_header_color);
}
