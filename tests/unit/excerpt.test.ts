import { describe, expect, it } from 'vitest';
import { excerpt, storedText } from '@/lib/excerpt';

const doc = (blocks: unknown[]) => JSON.stringify({ type: 'doc', blocks });

describe('post excerpts', () => {
	it('reads the text of a stored document, without markup, links or videos', () => {
		const stored = doc([
			{ type: 'heading', level: 2, children: [{ text: 'Route' }] },
			{ type: 'paragraph', children: [{ text: 'Take the ' }, { text: 'north gate', bold: true, link: 'https://example.com' }, { text: '.' }] },
			{ type: 'youtube', videoId: 'dQw4w9WgXcQ' },
			{ type: 'image', src: '/demo/a.png', alt: 'The gate at dawn' },
		]);
		expect(storedText(stored)).toBe('Route\nTake the north gate.\nThe gate at dawn');
	});

	it('takes a body that is not a document as its text', () => {
		expect(storedText('plain <b>words</b>')).toBe('plain <b>words</b>');
		expect(storedText('{"type":"other"}')).toBe('{"type":"other"}');
	});

	it('keeps a short text whole, on one line', () => {
		expect(excerpt('  Hello\n\nworld  ')).toBe('Hello world');
	});

	it('cuts a long text at a space, with an ellipsis, within the length', () => {
		const text = 'word '.repeat(60);
		const cut = excerpt(text, 150);
		expect(cut.length).toBeLessThanOrEqual(150);
		expect(cut).toMatch(/word…$/);
	});

	it('cuts text without spaces (Japanese) between characters, never inside an emoji', () => {
		const cut = excerpt('攻略'.repeat(100), 150);
		expect(Array.from(cut)).toHaveLength(150);
		expect(cut.endsWith('…')).toBe(true);
		const emoji = excerpt('👩‍👩‍👧'.repeat(20), 10);
		expect(emoji).toBe(`${'👩‍👩‍👧'.repeat(9)}…`);
	});
});
