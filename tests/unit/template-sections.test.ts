import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Block, ContentDocument } from '@/schemas/content';
import { emptySections, withSectionLines } from '@/schemas/template-sections';
import { publishedDocument } from '@/schemas/guidance';
import { SPAM_TEXT_KEYS, spamFailureText, type SpamTexts } from '@/lib/spam-failure';
import { pluralForm } from '@/lib/plural';
import { ResponseError } from '@/lib/api-client';

const heading = (text: string, level: 2 | 3 = 2): Block => ({ type: 'heading', level, children: [{ text }] });
const paragraph = (text: string): Block => ({ type: 'paragraph', children: text === '' ? [] : [{ text }] });
const guidance = (hint: string, text = ''): Block => ({ type: 'guidance', hint, children: text === '' ? [] : [{ text }] });
const list = (...items: string[]): Block => ({ type: 'list', ordered: false, items: items.map((text) => [{ text }]) });
const doc = (...blocks: Block[]): ContentDocument => ({ type: 'doc', blocks });

/** Pixel Farm's bug report, as channels/pixelfarm-main.json has it (shortened hints). */
const TEMPLATE = doc(
	guidance('Fill in each part below.'),
	heading('Summary'),
	guidance('What went wrong.'),
	heading('Actual result'),
	guidance('What happened instead.'),
	heading('Device and version'),
	guidance('Your platform and version.'),
	list('Platform:', 'Game version:'),
);

describe("a template's empty sections, named before publishing", () => {
	it('the template untouched: every section is empty, in order, with its heading number', () => {
		expect(emptySections(TEMPLATE, TEMPLATE)).toEqual([
			{ heading: 'Summary', headingIndex: 0 },
			{ heading: 'Actual result', headingIndex: 1 },
			{ heading: 'Device and version', headingIndex: 2 },
		]);
	});

	it('white space, empty guidance, empty bullets and labels left as they are count as empty; any answer does not', () => {
		const written = doc(
			heading('Summary'),
			guidance('What went wrong.', 'The hull turns black.'),
			heading('Actual result'),
			paragraph('   '),
			list('', ' '),
			heading('Device and version'),
			guidance('Your platform and version.'),
			list('Platform: ', 'Game version:'),
		);
		expect(emptySections(written, TEMPLATE).map((section) => section.heading)).toEqual(['Actual result', 'Device and version']);
		const filled = doc(...written.blocks.slice(0, 6), list('Platform: Switch', 'Game version:'));
		expect(emptySections(filled, TEMPLATE).map((section) => section.heading)).toEqual(['Actual result']);
		const withImage = doc(heading('Actual result'), { type: 'image', src: '/demo/a.png', alt: '' });
		expect(emptySections(withImage, TEMPLATE)).toEqual([]);
	});

	it("a writer's own sub-heading with text under it fills the section; their own headings are never named", () => {
		const written = doc(heading('Actual result'), heading('On Switch', 3), paragraph('It crashes.'), heading('My notes'), heading('Summary'));
		expect(emptySections(written, TEMPLATE)).toEqual([{ heading: 'Summary', headingIndex: 3 }]);
	});

	it('no template: nothing to name', () => {
		expect(emptySections(TEMPLATE, null)).toEqual([]);
	});
});

describe('a post opened for editing gets a line under each empty heading', () => {
	it("an empty template section gets the template's guidance back; a filled one is left as it is", () => {
		const published = publishedDocument(
			doc(
				heading('Summary'),
				guidance('What went wrong.', 'Black hull.'),
				heading('Actual result'),
				heading('Device and version'),
				list('Platform:', 'Game version:'),
			),
		);
		expect(withSectionLines(published, TEMPLATE).blocks).toEqual([
			heading('Summary'),
			paragraph('Black hull.'),
			heading('Actual result'),
			guidance('What happened instead.'),
			heading('Device and version'),
			guidance('Your platform and version.'),
			list('Platform:', 'Game version:'),
		]);
	});

	it('a heading with nothing under it and no guidance in the template gets an empty line, which is not published if left empty', () => {
		const opened = withSectionLines(doc(heading('My notes'), heading('More')), TEMPLATE);
		expect(opened.blocks).toEqual([heading('My notes'), guidance(' '), heading('More'), guidance(' ')]);
		expect(publishedDocument(opened)).toEqual(doc(heading('My notes'), heading('More')));
	});

	it('a post without empty sections comes back as it was', () => {
		const post = doc(heading('Summary'), paragraph('Black hull.'));
		expect(withSectionLines(post, TEMPLATE)).toBe(post);
		expect(withSectionLines(post, null)).toBe(post);
	});
});

describe("the new-member limits' texts take the count's plural form", () => {
	afterEach(() => vi.unstubAllGlobals());
	const texts = (language: string) => {
		const messages = JSON.parse(readFileSync(`src/i18n/${language}.json`, 'utf8')) as Record<string, string>;
		return Object.fromEntries(SPAM_TEXT_KEYS.map((key) => [key, messages[key]])) as SpamTexts;
	};
	const refusal = (limit: number) => new ResponseError({ isSuccessful: false, resultCode: -4031463, resultMessage: '' }, { limit });

	it('"up to 1 image or video", "up to 2 images or videos" in English; one form in Japanese, Korean and Chinese', () => {
		vi.stubGlobal('window', {});
		expect(spamFailureText(refusal(1), texts('en'), 'en')).toContain('up to 1 image or video to a post');
		expect(spamFailureText(refusal(2), texts('en'), 'en')).toContain('up to 2 images or videos to a post');
		expect(spamFailureText(refusal(1), texts('ko'), 'ko')).toContain('이미지나 동영상을 1개까지');
		expect(spamFailureText(refusal(3), texts('zh'), 'zh')).toContain('最多只能加入 3 張圖片或影片');
		expect(spamFailureText(refusal(1), texts('ja'), 'ja')).toContain('画像・動画が1件まで');
	});

	it('each language has both forms of every counted text, the editor note and its refusal', () => {
		for (const language of ['en', 'ja', 'ko', 'zh']) {
			const messages = JSON.parse(readFileSync(`src/i18n/${language}.json`, 'utf8')) as Record<string, string>;
			for (const key of [...SPAM_TEXT_KEYS, 'editor.mediaLimit.note.one', 'editor.mediaLimit.note.other', 'editor.mediaLimit.refused.one'])
				expect(messages[key], `${language} ${key}`).toBeTruthy();
		}
		expect([pluralForm('en', 1), pluralForm('en', 0), pluralForm('en', 2), pluralForm('ko', 1), pluralForm('zh', 1)]).toEqual([
			'one',
			'other',
			'other',
			'other',
			'other',
		]);
	});
});
