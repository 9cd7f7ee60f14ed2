import { describe, expect, it } from 'vitest';
import { commentSegments, type CommentSegment } from '@/lib/comment-text';
import { isSafeLink } from '@/lib/safe-url';
import { COMMENT_MAX_LENGTH, commentLength, normalizeComment } from '@/schemas/comment-limits';
import { CreateCommentSchema, EditCommentSchema } from '@/schemas/comment';
import { HOSTILE_SCHEMES, OTHER_HOSTS } from '../fixtures/xss-corpus';

const link = (href: string): CommentSegment => ({ type: 'link', href, text: href });
const text = (value: string): CommentSegment => ({ type: 'text', text: value });

/** Every link segment's href is a safe https URL, and the segments put together give the text back. */
function expectSafe(input: string, segments: CommentSegment[]) {
	expect(segments.map((segment) => segment.text).join('')).toBe(input);
	for (const segment of segments) {
		if (segment.type !== 'link') continue;
		expect(segment.href).toBe(segment.text);
		expect(segment.href).toMatch(/^https:\/\/[^/\\]/i);
		expect(isSafeLink(segment.href)).toBe(true);
	}
}

describe('comment segments', () => {
	it('keeps plain text and line breaks as one text segment', () => {
		expect(commentSegments('gg\nwell played\n\n<b>not bold</b>')).toEqual([text('gg\nwell played\n\n<b>not bold</b>')]);
		expect(commentSegments('')).toEqual([]);
	});

	it('turns an https address into a link with the text around it', () => {
		expect(commentSegments('Patch notes: https://starfall.example/notes?v=2#fixes read them')).toEqual([
			text('Patch notes: '),
			link('https://starfall.example/notes?v=2#fixes'),
			text(' read them'),
		]);
		expect(commentSegments('https://a.example\nhttps://b.example')).toEqual([link('https://a.example'), text('\n'), link('https://b.example')]);
	});

	it('leaves the punctuation of the sentence out of the link', () => {
		expect(commentSegments('See https://starfall.example/guide.')).toEqual([text('See '), link('https://starfall.example/guide'), text('.')]);
		expect(commentSegments('(https://starfall.example/a), or')).toEqual([text('('), link('https://starfall.example/a'), text('), or')]);
		expect(commentSegments('https://en.wikipedia.org/wiki/Foo_(game)!')).toEqual([link('https://en.wikipedia.org/wiki/Foo_(game)'), text('!')]);
		expect(commentSegments('링크 https://starfall.example/공략。다음')).toEqual([
			text('링크 '),
			link('https://starfall.example/공략'),
			text('。다음'),
		]);
		expect(commentSegments('"https://starfall.example/q"')).toEqual([text('"'), link('https://starfall.example/q'), text('"')]);
	});

	it('does not link an address inside a word, or an http one', () => {
		expect(commentSegments('xhttps://starfall.example')).toEqual([text('xhttps://starfall.example')]);
		expect(commentSegments('http://starfall.example/page')).toEqual([text('http://starfall.example/page')]);
	});

	it.each([...HOSTILE_SCHEMES, ...OTHER_HOSTS])('keeps %s as text, alone and among words', (_what, url) => {
		for (const input of [url, `look ${url} here`, `${url}\n${url}`, `https://ok.example ${url}`]) {
			const segments = commentSegments(input);
			expectSafe(input, segments);
			// An https address inside it (blob:https://…) may become a link of its own, never the whole.
			expect(segments.filter((segment) => segment.type === 'link').map((segment) => segment.href)).not.toContain(url);
		}
	});

	it.each([
		'javascript:alert(1)//https://x.example',
		'https://evil.example/<script>alert(1)</script>',
		'https://evil.example/"onmouseover="alert(1)',
		"https://evil.example/'onmouseover='alert(1)",
		'https://\u200bevil.example',
		'https://evil.example\u202e/moc.elgoog',
		'https://user@evil.example/',
		'https:///evil.example',
		'https://',
		'data:text/html,https://evil.example',
		'//evil.example https:\\\\evil.example',
	])('never carries an unsafe href for %j', (input) => {
		expectSafe(input, commentSegments(input));
	});
});

describe('comment limits and schemas', () => {
	it('counts code points of the trimmed text, with CRLF as one line break', () => {
		expect(normalizeComment('  a\r\nb \r ')).toBe('a\nb');
		expect(commentLength('😀'.repeat(COMMENT_MAX_LENGTH))).toBe(COMMENT_MAX_LENGTH);
		expect(commentLength(' \n ')).toBe(0);
	});

	it('takes a comment, a reply and a request id, and refuses other shapes', () => {
		expect(CreateCommentSchema.safeParse({ content: 'hi' }).success).toBe(true);
		expect(CreateCommentSchema.safeParse({ content: 'hi', parentId: 3, requestId: crypto.randomUUID() }).success).toBe(true);
		expect(CreateCommentSchema.safeParse({ content: 'hi', parentId: null }).success).toBe(true);
		for (const bad of [
			{},
			{ content: 1 },
			{ content: 'hi', parentId: 0 },
			{ content: 'hi', parentId: '3' },
			{ content: 'hi', parentId: 1.5 },
			{ content: 'hi', extra: 1 },
			{ content: 'hi', requestId: 'x' },
		]) {
			expect(CreateCommentSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
		}
		expect(EditCommentSchema.safeParse({ content: 'x' }).success).toBe(true);
		expect(EditCommentSchema.safeParse({ content: 'x', parentId: 1 }).success).toBe(false);
	});
});
