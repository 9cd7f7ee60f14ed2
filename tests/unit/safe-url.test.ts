import { describe, expect, it } from 'vitest';
import { isHttpsUrl, isSafeLink, isSitePath } from '@/lib/safe-url';
import { DocumentSchema } from '@/schemas/content';
import { BannerSchema, FooterConfigSchema, HeaderConfigSchema } from '@/schemas/channel';

/** Forms a browser would send to another site, or run, from a link on this one. */
const OFF_SITE = [
	['a protocol-relative URL', '//evil.example/x'],
	['a backslash after the slash', '/\\evil.example/x'],
	['backslashes only', '\\\\evil.example'],
	['a tab inside the slashes', '/\t/evil.example'],
	['a line break inside the slashes', '/\n/evil.example'],
	['a leading space', ' https://evil.example'],
	['a control character', 'https://good.example/\u0000'],
	['an invisible format character', 'https://good.example/\u200b'],
	['javascript:', 'javascript:alert(1)'],
	['mixed-case javascript:', 'JaVaScRiPt:alert(1)'],
	['an entity-encoded scheme', 'jav&#x61;script:alert(1)'],
	['data:', 'data:text/html,<script>alert(1)</script>'],
	['plain http', 'http://plain.example/x'],
	['https with one slash', 'https:/evil.example'],
	['https without slashes', 'https:evil.example'],
	['a user name and password', 'https://user:pass@evil.example'],
	['a relative path', 'boards/12'],
	['nothing', ''],
] as const;

describe('the URL rule of post bodies, channel settings and redirects', () => {
	it.each(OFF_SITE)('refuses %s', (_name, url) => {
		expect(isSafeLink(url)).toBe(false);
	});

	it.each([
		['an https URL with path, query and fragment', 'https://starfall.example/patch-notes?v=2#top'],
		['a site path', '/demo/shot-01.svg'],
		['a site path with a query', '/starfall/global/boards/12?page=2'],
	])('accepts %s', (_name, url) => {
		expect(isSafeLink(url)).toBe(true);
	});

	it('tells site paths from https URLs', () => {
		expect(isSitePath('/a')).toBe(true);
		expect(isSitePath('https://a.example')).toBe(false);
		expect(isHttpsUrl('https://a.example')).toBe(true);
		expect(isHttpsUrl('/a')).toBe(false);
	});

	it.each(OFF_SITE)('keeps %s out of a post body link and image', (_name, url) => {
		expect(DocumentSchema.safeParse({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'x', link: url }] }] }).success).toBe(false);
		expect(DocumentSchema.safeParse({ type: 'doc', blocks: [{ type: 'image', src: url, alt: '' }] }).success).toBe(false);
	});
});

describe('channel settings', () => {
	it('leave out menu, policy, logo and social links whose URL breaks the rule, and keep the rest', () => {
		const header = HeaderConfigSchema.parse({
			gameBiIcon: 'javascript:alert(1)',
			topPinnedHome: 'Y',
			topPinnedBoard: 'Y',
			topPinnedTargetBoards: [],
			externalLinks: [
				{ key: 'Shop', value: 'https://shop.example' },
				{ key: 'Evil', value: '/\\evil.example' },
			],
		});
		expect(header.gameBiIcon).toBeNull();
		expect(header.externalLinks).toEqual([{ key: 'Shop', value: 'https://shop.example' }]);
		const footer = FooterConfigSchema.parse({
			channels: [
				{ key: 'Global', value: 'global' },
				{ key: 'Elsewhere', value: '../../evil' },
			],
			company: 'Nebula Forge',
			companyCiIcons: [
				{ key: 'data:image/svg+xml,<svg onload=alert(1)>', value: 'https://nebula.example' },
				{ key: '/demo/logo.svg', value: 'javascript:alert(1)' },
				{ key: '/demo/logo.svg', value: 'https://nebula.example' },
			],
			copyright: '©',
			policyItems: [{ key: 'Terms', value: 'JaVaScRiPt:alert(1)' }],
			snsLinks: [
				{ key: 'X', value: 'https://x.com/starfall' },
				{ key: 'LINE', value: '//evil.example' },
			],
		});
		expect(footer.channels).toEqual([{ key: 'Global', value: 'global' }]);
		expect(footer.companyCiIcons).toEqual([{ key: '/demo/logo.svg', value: 'https://nebula.example' }]);
		expect(footer.policyItems).toEqual([]);
		expect(footer.snsLinks).toEqual([{ key: 'X', value: 'https://x.com/starfall' }]);
	});

	it('refuse a banner image that breaks the rule', () => {
		expect(BannerSchema.safeParse({ backgroundColor: '#000', imageUrl: 'data:image/png;base64,AAAA' }).success).toBe(false);
		expect(BannerSchema.safeParse({ backgroundColor: '#000', imageUrl: '/demo/banner.svg' }).success).toBe(true);
	});
});
