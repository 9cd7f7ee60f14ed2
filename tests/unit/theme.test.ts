import { describe, expect, it } from 'vitest';
import { readableOn, safeColor, themeCss } from '@/lib/theme';

describe('theme', () => {
	it('keeps only plain hex colours, so a setting cannot inject CSS', () => {
		expect(safeColor('#4f46e5', '#000')).toBe('#4f46e5');
		expect(safeColor('red;background:url(x)', '#000')).toBe('#000');
		expect(safeColor(null, '#fff')).toBe('#fff');
	});

	it('picks readable text for the key colour', () => {
		expect(readableOn('#ffffff')).toBe('#111111');
		expect(readableOn('#4f46e5')).toBe('#ffffff');
		expect(themeCss({ themeType: 'DARK', keyColor: '#84cc16', backgroundColor: '#15191d', pcHeaderColor: null })).toContain('--page-bg:#15191d');
	});

	it('is one :root rule of validated colours, with the banner colour when there is a banner', () => {
		const css = themeCss({ themeType: 'LIGHT', keyColor: '#123456', backgroundColor: '}</style><script>', pcHeaderColor: null, banner: { backgroundColor: 'red;x:y' } });
		expect(css).toBe(':root{--key:#123456;--on-key:#ffffff;--page-bg:#f5f6fb;--header-bg:#ffffff;--header-text:#111111;--banner-bg:#000000}');
	});
});
