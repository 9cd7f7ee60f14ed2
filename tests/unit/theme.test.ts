import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DEMO_CHANNELS } from '../../scripts/seed/demo.mjs';
import { contrastRatio, mix, readableOn, safeColor, SURFACES, textSafe, themeCss } from '@/server/channels/theme';

/** The custom properties of `themeCss`'s one :root rule. */
function properties(css: string): Record<string, string> {
	const body = /^:root\{(.*)\}$/.exec(css)?.[1] ?? '';
	return Object.fromEntries(body.split(';').map((declaration) => declaration.split(':') as [string, string]));
}

describe('theme', () => {
	it('keeps only plain hex colours, so a setting cannot inject CSS', () => {
		expect(safeColor('#4f46e5', '#000')).toBe('#4f46e5');
		expect(safeColor('red;background:url(x)', '#000')).toBe('#000');
		expect(safeColor(null, '#fff')).toBe('#fff');
	});

	it('measures contrast as WCAG 2 does', () => {
		expect(contrastRatio('#000000', '#ffffff')).toBe(21);
		expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
		expect(contrastRatio('#fff', '#000')).toBe(21);
		expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
		expect(contrastRatio('#4f46e5', '#ffffff')).toBeCloseTo(6.29, 2);
	});

	it('mixes colours in sRGB as color-mix does', () => {
		expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
		expect(mix('#c2410c', '#ffffff', 0.12)).toBe('#f8e8e2');
	});

	it('picks black or white text by the higher contrast, not by a luminance threshold', () => {
		expect(readableOn('#ffffff')).toBe('#000000');
		expect(readableOn('#4f46e5')).toBe('#ffffff');
		// Luminance 0.19 and 0.21: above the 0.179 crossover black reads better, below 0.36.
		expect(readableOn('#777777')).toBe('#000000');
		expect(contrastRatio('#000000', '#777777')).toBeCloseTo(4.69, 2);
		expect(contrastRatio('#ffffff', '#777777')).toBeCloseTo(4.48, 2);
		expect(readableOn('#0e7c66')).toBe('#ffffff');
		expect(readableOn('#84cc16')).toBe('#000000');
	});

	it('gives text on any key colour at least 4.5:1', () => {
		for (let value = 0; value < 0x1000000; value += 0x030507) {
			const key = `#${value.toString(16).padStart(6, '0')}`;
			expect(contrastRatio(readableOn(key), key)).toBeGreaterThanOrEqual(4.5);
		}
	});

	it('keeps a key colour that is already readable and moves one that is not just far enough', () => {
		expect(textSafe('#4f46e5', ['#ffffff'])).toBe('#4f46e5');
		const darker = textSafe('#c2410c', ['#ffffff', mix('#c2410c', '#ffffff', 0.12)]);
		expect(contrastRatio('#c2410c', mix('#c2410c', '#ffffff', 0.12))).toBeCloseTo(4.35, 2);
		expect(contrastRatio(darker, mix('#c2410c', '#ffffff', 0.12))).toBeGreaterThanOrEqual(4.5);
		expect(contrastRatio(darker, '#c2410c')).toBeLessThan(1.2);
		// On a dark surface it goes lighter.
		expect(textSafe('#4f46e5', ['#1f252b'])).not.toBe('#4f46e5');
		expect(contrastRatio(textSafe('#4f46e5', ['#1f252b']), '#1f252b')).toBeGreaterThanOrEqual(4.5);
	});

	it('uses the surfaces of global.css', () => {
		const css = readFileSync(new URL('../../src/styles/global.css', import.meta.url), 'utf8');
		const light = /:root \{[^}]*--surface: (#\w+);[^}]*--surface-2: (#\w+);/.exec(css);
		const dark = /:root\[data-theme='DARK'\] \{[^}]*--surface: (#\w+);[^}]*--surface-2: (#\w+);/.exec(css);
		expect(light?.slice(1)).toEqual([...SURFACES.LIGHT]);
		expect(dark?.slice(1)).toEqual([...SURFACES.DARK]);
	});

	it('is one :root rule of validated colours, with the banner colour when there is a banner', () => {
		const css = themeCss({
			themeType: 'LIGHT',
			keyColor: '#123456',
			backgroundColor: '}</style><script>',
			pcHeaderColor: null,
			banner: { backgroundColor: 'red;x:y' },
		});
		expect(css).toMatch(/^:root\{[^{}<>]*\}$/);
		expect(properties(css)).toMatchObject({ '--key': '#123456', '--page-bg': '#f5f6fb', '--banner-bg': '#000000' });
	});

	for (const channel of DEMO_CHANNELS) {
		it(`gives /${channel.domain}/${channel.slug} (${channel.themeType.toLowerCase()}) text colours of at least 4.5:1`, () => {
			const theme = properties(themeCss(channel));
			const surfaces = SURFACES[channel.themeType];
			expect(theme['--key']).toBe(channel.keyColor);
			expect(theme['--page-bg']).toBe(channel.backgroundColor);
			expect(contrastRatio(theme['--on-key'] ?? '', channel.keyColor)).toBeGreaterThanOrEqual(4.5);
			for (const background of [...surfaces, mix(channel.keyColor, surfaces[0], 0.12)]) {
				expect(contrastRatio(theme['--key-text'] ?? '', background)).toBeGreaterThanOrEqual(4.5);
			}
			expect(contrastRatio(theme['--header-key'] ?? '', theme['--header-bg'] ?? '')).toBeGreaterThanOrEqual(4.5);
			expect(contrastRatio(theme['--header-text'] ?? '', theme['--header-bg'] ?? '')).toBeGreaterThanOrEqual(4.5);
			// Recognisably the channel's colour: never far from it.
			expect(contrastRatio(theme['--key-text'] ?? '', channel.keyColor)).toBeLessThan(1.3);
		});
	}
});
