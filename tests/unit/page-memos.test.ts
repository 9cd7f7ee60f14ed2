import { describe, expect, it } from 'vitest';
import { layoutPathOf, layoutPlaceOf, rememberLayoutHtml } from '@/server/channels/layout-html';
import type { Channel } from '@/server/channels/channels';
import type { LayoutData } from '@/server/channels/layout';
import { translator } from '@/i18n';
import { mintSessionToken, sessionTokenState } from '@/server/sign-in/session-token';
import { parseStoredDocument } from '@/schemas/content';
import { excerpt } from '@/server/platform/excerpt';

const SECRET = 'a-session-secret-of-at-least-32-characters';

describe('what pages remember in the isolate', () => {
	it('renders a layout piece once per channel row and layout data, and again for a new row or other data', async () => {
		const channel = { id: 7 } as Channel;
		const layout = {} as LayoutData;
		let renders = 0;
		const render = () => Promise.resolve(`html ${(renders += 1)}`);
		expect(await rememberLayoutHtml(channel, layout, 'footer', render)).toBe('html 1');
		expect(await rememberLayoutHtml(channel, layout, 'footer', render)).toBe('html 1');
		expect(await rememberLayoutHtml(channel, layout, 'header:guest:', render)).toBe('html 2');
		expect(await rememberLayoutHtml({ id: 7 } as Channel, layout, 'footer', render)).toBe('html 3');
		expect(await rememberLayoutHtml(channel, {} as LayoutData, 'footer', render)).toBe('html 4');
	});

	it('keys a page path by what the layout marks as current: home, All Posts or a board, else nothing', () => {
		expect(layoutPathOf('/a/b', '/a/b')).toBe('/a/b');
		expect(layoutPathOf('/a/b', '/a/b/boards')).toBe('/a/b/boards');
		expect(layoutPathOf('/a/b', '/a/b/boards/12')).toBe('/a/b/boards/12');
		expect(layoutPathOf('/a/b', '/a/b/posts/12')).toBe('');
		expect(layoutPathOf('/a/b', '/a/b/boards/12/x')).toBe('');
		expect(layoutPathOf('/a/b', '/a/bc/boards')).toBe('');
		// A post's pieces vary by its board, which they mark; a board's page by its own path.
		expect(layoutPlaceOf('/a/b', '/a/b/posts/12', 7)).toBe('in-board:7');
		expect(layoutPlaceOf('/a/b', '/a/b/posts/12', undefined)).toBe('');
		expect(layoutPlaceOf('/a/b', '/a/b/boards/12', 7)).toBe('/a/b/boards/12');
	});

	it('answers a remembered text as i18next does, and still interpolates options', () => {
		const t = translator('en');
		expect(t('post.comments')).toBe(t('post.comments'));
		expect(translator('ko')('post.comments')).not.toBe(t('post.comments'));
		expect(t('layout.welcome', { title: 'Starfall' })).toContain('Starfall');
		expect(t('layout.welcome', { title: 'Pixel' })).toContain('Pixel');
		// Values for a text with no place for them give the remembered text, as i18next would.
		expect(t('post.comments', { title: 'Pixel' })).toBe(t('post.comments'));
		expect(t('search.results.count', { count: 3, query: 'raid' })).toContain('3 posts contain “raid”');
	});

	it('remembers only tokens that verified, for their own channel and secret', async () => {
		const now = Date.now();
		const token = await mintSessionToken(SECRET, 3);
		expect(await sessionTokenState(SECRET, 3, token, now)).toBe('live');
		expect(await sessionTokenState(SECRET, 3, token, now)).toBe('live');
		expect(await sessionTokenState(SECRET, 4, token, now)).toBe('foreign');
		expect(await sessionTokenState(`${SECRET}-other`, 3, token, now)).toBe('foreign');
		// A character inside the MAC (the last one's low bits are padding: some changes there are the same MAC).
		const at = token.length - 10;
		expect(await sessionTokenState(SECRET, 3, `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`, now)).toBe('foreign');
	});

	it('reads the end a token carries: past it the token has ended, and a changed end or a token without one is not minted', async () => {
		const now = Date.now();
		const token = await mintSessionToken(SECRET, 3, now + 60_000);
		expect(await sessionTokenState(SECRET, 3, token, now + 59_000)).toBe('live');
		expect(await sessionTokenState(SECRET, 3, token, now + 61_000)).toBe('ended');
		const [random, end, mac] = token.split('.') as [string, string, string];
		const later = (parseInt(end, 36) + 3600).toString(36);
		expect(await sessionTokenState(SECRET, 3, `${random}.${later}.${mac}`, now + 61_000)).toBe('foreign');
		expect(await sessionTokenState(SECRET, 3, `${random}.${mac}`, now)).toBe('foreign');
	});

	it('parses a stored body once and answers the same document again; text that is not a document is null', () => {
		const stored = JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Hello' }] }] });
		const first = parseStoredDocument(stored);
		expect(first?.blocks).toHaveLength(1);
		expect(parseStoredDocument(stored)).toBe(first);
		expect(parseStoredDocument('plain words')).toBeNull();
		expect(parseStoredDocument('{"type":"other"}')).toBeNull();
	});

	it('keeps a text of exactly the excerpt length whole, and cuts one grapheme more', () => {
		expect(excerpt('a'.repeat(150), 150)).toBe('a'.repeat(150));
		expect(excerpt('a'.repeat(151), 150)).toBe(`${'a'.repeat(149)}…`);
	});
});
