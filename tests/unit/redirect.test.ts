import { describe, expect, it } from 'vitest';
import { safeRedirect } from '@/server/sign-in/redirect';
import { loginPageUrl } from '@/lib/urls';

const BASE = '/starfall/global';

describe('redirectUrl after login (no open redirect)', () => {
	it.each([
		['a board of the channel', '/starfall/global/boards/12?page=2', '/starfall/global/boards/12?page=2'],
		['the channel home', '/starfall/global', '/starfall/global'],
		['My Page with a fragment', '/starfall/global/mypage#top', '/starfall/global/mypage#top'],
	])('follows %s', (_, raw, expected) => {
		expect(safeRedirect(BASE, raw)).toBe(expected);
	});

	it.each([
		['another site', 'https://evil.example/starfall/global'],
		['a protocol-relative URL', '//evil.example/starfall/global'],
		['a backslash trick', '/\\evil.example'],
		['another channel', '/starfall/kr/boards/22'],
		['a channel whose slug starts alike', '/starfall/globalx/boards'],
		['a dot-segment escape', '/starfall/global/../kr/mypage'],
		['an encoded dot-segment escape', '/starfall/global/%2e%2e/kr'],
		['a javascript: URL', 'javascript:alert(1)'],
		['a relative path', 'boards/12'],
		['a control character', '/starfall/global/\nboards'],
		['the login route itself', '/starfall/global/login?redirectUrl=/starfall/global'],
		["the providers' return", '/starfall/global/oauth'],
		['an empty value', ''],
		['a missing value', null],
		['a very long value', `/starfall/global/${'a'.repeat(3000)}`],
	])('falls back to the channel home for %s', (_, raw) => {
		expect(safeRedirect(BASE, raw)).toBe(BASE);
	});

	it('builds the login route with the target encoded', () => {
		expect(loginPageUrl(BASE, '/starfall/global/boards/12?page=2')).toBe(
			'/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal%2Fboards%2F12%3Fpage%3D2',
		);
		expect(loginPageUrl(BASE, BASE, 'failed')).toBe('/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal&error=failed');
	});
});
