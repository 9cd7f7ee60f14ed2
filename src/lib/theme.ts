/** The CSS custom properties of a channel's theme (SPEC §1: key, background and header colours). */

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A colour from the channel's settings, or the fallback when it is not a plain hex colour. */
export function safeColor(value: string | null | undefined, fallback: string): string {
	return value && HEX.test(value) ? value : fallback;
}

function luminance(hex: string): number {
	const full = hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
	const channel = (offset: number) => {
		const value = parseInt(full.slice(offset, offset + 2), 16) / 255;
		return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Black or white, whichever reads better on `background`. */
export function readableOn(background: string): string {
	return luminance(background) > 0.36 ? '#111111' : '#ffffff';
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

/**
 * The theme as the text of the layouts' `<style>` element: custom properties on :root, built only
 * from validated hex colours, so it can never close the element or carry other CSS. The page's
 * policy allows this exact text by its hash, so no inline style needs 'unsafe-inline'.
 */
export function themeCss(theme: ThemeInput): string {
	const dark = theme.themeType === 'DARK';
	const key = safeColor(theme.keyColor, '#4f46e5');
	const page = safeColor(theme.backgroundColor, dark ? '#15191d' : '#f5f6fb');
	const header = safeColor(theme.pcHeaderColor, dark ? '#1d2327' : '#ffffff');
	const properties = [
		`--key:${key}`,
		`--on-key:${readableOn(key)}`,
		`--page-bg:${page}`,
		`--header-bg:${header}`,
		`--header-text:${readableOn(header)}`,
	];
	if (theme.banner) properties.push(`--banner-bg:${safeColor(theme.banner.backgroundColor, '#000000')}`);
	return `:root{${properties.join(';')}}`;
}
