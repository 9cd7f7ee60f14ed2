/**
 * The CSS custom properties of a channel's theme (docs/reference/product-rules.md#the-product: key, background and header colours),
 * with text colours derived from them so that every text meets WCAG 2.2 AA (4.5:1).
 */

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** WCAG AA's contrast for normal text. */
const TEXT_CONTRAST = 4.5;

const BLACK = '#000000';
const WHITE = '#ffffff';

/**
 * The card surfaces of each theme type, as global.css sets --surface and --surface-2; text in the
 * key colour sits on these.
 */
export const SURFACES = {
	LIGHT: ['#ffffff', '#f1f3f8'],
	DARK: ['#1f252b', '#262d34'],
} as const;

/** The share of the key colour in the tint behind the current board tree link (BoardTree.astro). */
const KEY_TINT = 0.12;

/** A colour from the channel's settings, or the fallback when it is not a plain hex colour. */
export function safeColor(value: string | null | undefined, fallback: string): string {
	return value && HEX.test(value) ? value : fallback;
}

function channels(hex: string): [number, number, number] {
	const full = hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
	return [1, 3, 5].map((offset) => parseInt(full.slice(offset, offset + 2), 16)) as [number, number, number];
}

/** WCAG 2's relative luminance of a hex colour, 0 (black) to 1 (white). */
function luminance(hex: string): number {
	const [r, g, b] = channels(hex).map((value) => {
		const c = value / 255;
		return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	}) as [number, number, number];
	return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two hex colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
	const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
	return (lighter + 0.05) / (darker + 0.05);
}

/** `share` of `a` mixed into `b` in sRGB, as CSS `color-mix(in srgb, a share, b)` does. */
export function mix(a: string, b: string, share: number): string {
	const from = channels(a);
	const to = channels(b);
	return `#${from
		.map((value, i) =>
			Math.round(value * share + (to[i] ?? 0) * (1 - share))
				.toString(16)
				.padStart(2, '0'),
		)
		.join('')}`;
}

/**
 * Black or white, whichever has the higher contrast on `background`: at least 4.58:1 on any
 * colour (the two are equal at a luminance of about 0.179).
 */
export function readableOn(background: string): string {
	return contrastRatio(BLACK, background) >= contrastRatio(WHITE, background) ? BLACK : WHITE;
}

/**
 * `color`, moved towards black or white (whichever reads better on the first background) just
 * far enough to reach 4.5:1 on every one of `backgrounds`, so that it keeps its hue. The extreme
 * itself when no step between reaches it.
 */
export function textSafe(color: string, backgrounds: readonly string[]): string {
	const [first = WHITE] = backgrounds;
	const towards = readableOn(first);
	for (let step = 0; step <= 50; step += 1) {
		const candidate = mix(towards, color, step / 50);
		if (backgrounds.every((background) => contrastRatio(candidate, background) >= TEXT_CONTRAST)) return candidate;
	}
	return towards;
}

export interface ThemeInput {
	themeType: 'LIGHT' | 'DARK';
	keyColor: string;
	backgroundColor: string;
	pcHeaderColor: string | null;
	/** The channel's banner: its colour shows behind and beside the banner image. */
	banner?: { backgroundColor: string } | null;
}

/** The theme of the pages outside a channel (the site root and the site-wide error pages). */
export const DEFAULT_THEME: ThemeInput = { themeType: 'LIGHT', keyColor: '#4f46e5', backgroundColor: '#f5f6fb', pcHeaderColor: null };

const THEME_MEMO_ENTRIES = 256;
const themes = new Map<string, string>();

/**
 * The theme as the text of the layouts' `<style>` element: custom properties on :root, built only
 * from validated hex colours, so it can never close the element or carry other CSS. The page's
 * policy allows this exact text by its hash, so no inline style needs 'unsafe-inline'. --key is for
 * fills and lines; --on-key for text on a key fill; --key-text for text in the key colour on the
 * cards (surfaces and the key's tint); --header-key for it on the header bar; --page-bg,
 * --header-bg, --header-text, and --banner-bg behind the banner image.
 */
export function themeCss(theme: ThemeInput): string {
	const key = JSON.stringify([
		theme.themeType,
		theme.keyColor,
		theme.backgroundColor,
		theme.pcHeaderColor,
		theme.banner ? theme.banner.backgroundColor : null,
	]);
	let css = themes.get(key);
	if (css === undefined) {
		css = buildThemeCss(theme);
		// Each page asks for its channel's theme; the contrast search behind it is worth remembering.
		if (themes.size >= THEME_MEMO_ENTRIES) themes.clear();
		themes.set(key, css);
	}
	return css;
}

function buildThemeCss(theme: ThemeInput): string {
	const dark = theme.themeType === 'DARK';
	const key = safeColor(theme.keyColor, '#4f46e5');
	const page = safeColor(theme.backgroundColor, dark ? '#15191d' : '#f5f6fb');
	const header = safeColor(theme.pcHeaderColor, dark ? '#1d2327' : '#ffffff');
	const surfaces = SURFACES[dark ? 'DARK' : 'LIGHT'];
	const properties = [
		`--key:${key}`,
		`--on-key:${readableOn(key)}`,
		`--key-text:${textSafe(key, [...surfaces, mix(key, surfaces[0], KEY_TINT)])}`,
		`--page-bg:${page}`,
		`--header-bg:${header}`,
		`--header-text:${readableOn(header)}`,
		`--header-key:${textSafe(key, [header])}`,
	];
	if (theme.banner) properties.push(`--banner-bg:${safeColor(theme.banner.backgroundColor, '#000000')}`);
	return `:root{${properties.join(';')}}`;
}
