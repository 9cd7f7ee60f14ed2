import { describe, expect, it } from 'vitest';
import { excerpt, sentenceExcerpt, storedText } from '@/server/platform/excerpt';
import { documentText } from '@/schemas/content';

const doc = (blocks: unknown[]) => JSON.stringify({ type: 'doc', blocks });

describe('post excerpts', () => {
	it('reads the text of a stored document, without markup, links, videos or images and their alt text', () => {
		const stored = doc([
			{ type: 'heading', level: 2, children: [{ text: 'Route' }] },
			{ type: 'paragraph', children: [{ text: 'Take the ' }, { text: 'north gate', bold: true, link: 'https://example.com' }, { text: '.' }] },
			{ type: 'youtube', videoId: 'dQw4w9WgXcQ' },
			{ type: 'image', src: '/demo/a.png', alt: 'The gate at dawn' },
		]);
		expect(storedText(stored)).toBe('Route\nTake the north gate.');
	});

	it('previews a body with an image between two sentences as the two sentences, without the alt text', () => {
		const stored = doc([
			{ type: 'paragraph', children: [{ text: 'I painted our flagship last night.' }] },
			{ type: 'image', src: '/demo/shot-05.svg', alt: 'A battleship under fire', width: 1280, height: 720 },
			{ type: 'paragraph', children: [{ text: 'The engine glow took longest.' }] },
		]);
		expect(excerpt(storedText(stored), 180)).toBe('I painted our flagship last night. The engine glow took longest.');
		// Search still finds what the picture shows.
		expect(documentText(JSON.parse(stored))).toContain('A battleship under fire');
	});

	it('ends a cut preview with the last whole sentence that keeps half its length, else at a word', () => {
		const text = `${'Sentence one is here. '.repeat(6)}And a last sentence that runs on far too long to fit whole in the preview.`;
		const cut = sentenceExcerpt(text, 180);
		expect(cut.endsWith('here.')).toBe(true);
		expect(cut.length).toBeLessThanOrEqual(180);
		expect(sentenceExcerpt('一文目です。二文目です。', 180)).toBe('一文目です。二文目です。');
		expect(sentenceExcerpt(`Short. ${'word '.repeat(60)}`, 100)).toMatch(/word…$/);
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

describe('post excerpts of long bodies', () => {
	/** The excerpt as segmenting the whole text would give it (the rule before only the head was read). */
	function reference(text: string, max: number): string {
		const line = text.replace(/\s+/g, ' ').trim();
		const all = Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(line), (part) => part.segment);
		if (all.length <= max) return line;
		const head = all.slice(0, max - 1).join('');
		const space = head.lastIndexOf(' ');
		return `${space > (head.length * 2) / 3 ? head.slice(0, space) : head.trimEnd()}…`;
	}

	it('reads only a head, with the same result as the whole text, in every script and across long whitespace', () => {
		const texts = [
			'word '.repeat(5000),
			'攻略'.repeat(4000),
			'공략 가이드 '.repeat(2000),
			`${' \n\t'.repeat(3000)}after a long run of whitespace ${'x'.repeat(400)}`,
			`${'a'.repeat(149)}e\u0301${'b'.repeat(500)}`,
			`${'a'.repeat(148)}👩‍👩‍👧👩‍👩‍👧${'c'.repeat(500)}`,
			`${'か'.repeat(149)}\u3099${'き'.repeat(300)}`,
			'e\u0301'.repeat(3000),
			'🇰🇷'.repeat(2000),
		];
		for (const text of texts)
			for (const max of [10, 149, 150, 151, 180, 5000]) expect(excerpt(text, max), `${text.slice(0, 12)} ${max}`).toBe(reference(text, max));
	});
});
