import { describe, expect, it } from 'vitest';
import { $createParagraphNode, $createTextNode, $createLineBreakNode, $createTabNode, $getRoot, createEditor, type LexicalEditor } from 'lexical';
import { $createHeadingNode, $createQuoteNode, HeadingNode, QuoteNode } from '@lexical/rich-text';
import { $createListItemNode, $createListNode, ListItemNode, ListNode } from '@lexical/list';
import { $createLinkNode, LinkNode } from '@lexical/link';
import { $exportDocument, $importDocument, documentIsEmpty, emptyDocument } from '@/islands/editor/document';
import { $createImageNode, $createYouTubeNode, ImageNode, YouTubeNode } from '@/islands/editor/media-nodes';
import { normalizeLink } from '@/islands/editor/link-url';
import { $isGuidanceNode, GuidanceNode } from '@/islands/editor/guidance-node';
import { publishedDocument } from '@/schemas/guidance';
import { DocumentSchema, type ContentDocument } from '@/schemas/content';

/** A headless editor: Lexical without a root element keeps its state and runs updates in Node. */
function headlessEditor(): LexicalEditor {
	return createEditor({
		namespace: 'test',
		nodes: [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode, ImageNode, YouTubeNode, GuidanceNode],
		onError: (error) => {
			throw error;
		},
	});
}

function build(fill: () => void): ContentDocument {
	const editor = headlessEditor();
	editor.update(
		() => {
			$getRoot().clear();
			fill();
		},
		{ discrete: true },
	);
	const doc = editor.read(() => $exportDocument());
	// Whatever the editor held, the output is a document the server accepts.
	expect(DocumentSchema.parse(doc)).toEqual(doc);
	return doc;
}

function roundTrip(doc: ContentDocument): ContentDocument {
	const editor = headlessEditor();
	editor.update(() => $importDocument(doc), { discrete: true });
	return editor.read(() => $exportDocument());
}

const text = (value: string, ...formats: ('bold' | 'italic' | 'underline' | 'strikethrough' | 'code' | 'highlight' | 'subscript')[]) => {
	const node = $createTextNode(value);
	for (const format of formats) node.toggleFormat(format);
	return node;
};

const FULL: ContentDocument = {
	type: 'doc',
	blocks: [
		{ type: 'heading', level: 2, children: [{ text: 'Patch notes' }] },
		{
			type: 'paragraph',
			children: [
				{ text: 'Plain, ' },
				{ text: 'bold', bold: true },
				{ text: ' and ' },
				{ text: 'all of them', bold: true, italic: true, underline: true, strike: true },
				{ text: ', a ' },
				{ text: 'link', link: 'https://example.com/a?b=1' },
				{ text: ' and ' },
				{ text: 'a bold site link', bold: true, link: '/starfall/global/posts/3' },
				{ text: '.\nSecond line.' },
			],
		},
		{ type: 'heading', level: 3, children: [{ text: 'Fixes', italic: true }] },
		{ type: 'quote', children: [{ text: 'Quoted words' }] },
		{ type: 'list', ordered: false, items: [[{ text: 'one' }], [{ text: 'two', bold: true }]] },
		{ type: 'list', ordered: true, items: [[{ text: 'first' }], [{ text: 'second' }]] },
		{ type: 'image', src: '/uploads/AAAAAAAAAAAAAAAAAAAAAA.png', alt: 'A map', width: 640, height: 480 },
		{ type: 'youtube', videoId: 'dQw4w9WgXcQ' },
		{ type: 'paragraph', children: [] },
		{ type: 'paragraph', children: [{ text: '한국어 日本語 中文 😀' }] },
	],
};

describe('editor document conversion', () => {
	it('keeps every kind of block and mark through the editor and back', () => {
		expect(roundTrip(FULL)).toEqual(FULL);
	});

	it('loads an empty document as one empty paragraph and reads it back empty', () => {
		const editor = headlessEditor();
		editor.update(() => $importDocument(emptyDocument()), { discrete: true });
		expect(editor.read(() => $getRoot().getChildrenSize())).toBe(1);
		expect(editor.read(() => $exportDocument())).toEqual(emptyDocument());
	});

	it('leaves a paragraph after a closing image, video or list so the caret has a place', () => {
		const editor = headlessEditor();
		editor.update(() => $importDocument({ type: 'doc', blocks: [{ type: 'youtube', videoId: 'dQw4w9WgXcQ' }] }), { discrete: true });
		expect(editor.read(() => $getRoot().getLastChild()?.getType())).toBe('paragraph');
	});

	it('reads text formats, links and line breaks into runs and joins runs that look the same', () => {
		const doc = build(() => {
			const link = $createLinkNode('https://example.com/').append(text('lin'), text('k'));
			$getRoot().append(
				$createParagraphNode().append(text('a'), text('b'), text('c', 'bold'), $createLineBreakNode(), text('d'), link, $createTabNode()),
			);
		});
		expect(doc.blocks).toEqual([
			{
				type: 'paragraph',
				children: [{ text: 'ab' }, { text: 'c', bold: true }, { text: '\nd' }, { text: 'link', link: 'https://example.com/' }, { text: '\t' }],
			},
		]);
	});

	it('drops formats the schema does not have (code, highlight, subscript) and keeps the text', () => {
		const doc = build(() =>
			$getRoot().append($createParagraphNode().append(text('x = 1', 'code'), text(' marked', 'highlight', 'bold'), text('2', 'subscript'))),
		);
		expect(doc.blocks).toEqual([{ type: 'paragraph', children: [{ text: 'x = 1' }, { text: ' marked', bold: true }, { text: '2' }] }]);
	});

	it.each([
		['javascript:alert(1)'],
		['JaVaScRiPt:alert(1)'],
		['data:text/html,<script>alert(1)</script>'],
		['//evil.example/path'],
		['/\\evil.example'],
		['mailto:someone@example.com'],
		['https://user:pass@example.com/'],
	])('drops a link to %j and keeps its text', (url) => {
		const doc = build(() => $getRoot().append($createParagraphNode().append($createLinkNode(url).append(text('click')))));
		expect(doc.blocks).toEqual([{ type: 'paragraph', children: [{ text: 'click' }] }]);
	});

	it('raises an http link to https', () => {
		const doc = build(() => $getRoot().append($createParagraphNode().append($createLinkNode('http://example.com/x').append(text('x')))));
		expect(doc.blocks).toEqual([{ type: 'paragraph', children: [{ text: 'x', link: 'https://example.com/x' }] }]);
	});

	it('maps h1 to a heading 2 and h4–h6 to a heading 3', () => {
		const doc = build(() => {
			for (const tag of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const) $getRoot().append($createHeadingNode(tag).append(text(tag)));
		});
		expect(doc.blocks.map((block) => (block.type === 'heading' ? block.level : null))).toEqual([2, 2, 3, 3, 3, 3]);
	});

	it('flattens nested lists into the items of the outer list', () => {
		const doc = build(() => {
			const inner = $createListNode('number').append($createListItemNode().append(text('1.a')), $createListItemNode().append(text('1.b')));
			const outer = $createListNode('bullet').append(
				$createListItemNode().append(text('1')),
				$createListItemNode().append(inner),
				$createListItemNode().append(text('2')),
			);
			$getRoot().append(outer);
		});
		expect(doc.blocks).toEqual([{ type: 'list', ordered: false, items: [[{ text: '1' }], [{ text: '1.a' }], [{ text: '1.b' }], [{ text: '2' }]] }]);
	});

	it('reads a check list as a bulleted list', () => {
		const doc = build(() => $getRoot().append($createListNode('check').append($createListItemNode().append(text('todo')))));
		expect(doc.blocks).toEqual([{ type: 'list', ordered: false, items: [[{ text: 'todo' }]] }]);
	});

	it('drops images that are not uploads of this site and keeps its own', () => {
		const doc = build(() => {
			$getRoot().append(
				$createImageNode({ src: 'https://evil.example/tracker.gif', alt: 'x' }),
				$createImageNode({ src: '/uploads/BBBBBBBBBBBBBBBBBBBBBB.webp', alt: 'fine', width: 10, height: 20 }),
				$createImageNode({ src: '/api/not-an-upload', alt: 'x' }),
				$createImageNode({ src: '/uploads/../secret.png', alt: 'x' }),
				$createImageNode({ src: '/demo/map.png', alt: '' }),
			);
		});
		expect(doc.blocks).toEqual([
			{ type: 'image', src: '/uploads/BBBBBBBBBBBBBBBBBBBBBB.webp', alt: 'fine', width: 10, height: 20 },
			{ type: 'image', src: '/demo/map.png', alt: '' },
		]);
	});

	it('cuts an image description at 300 characters', () => {
		const doc = build(() => $getRoot().append($createImageNode({ src: '/uploads/CCCCCCCCCCCCCCCCCCCCCC.png', alt: 'd'.repeat(400) })));
		expect(doc.blocks[0]).toMatchObject({ type: 'image', alt: 'd'.repeat(300) });
	});

	it('drops trailing empty paragraphs and trailing line breaks, keeps empty paragraphs between', () => {
		const doc = build(() => {
			$getRoot().append(
				$createParagraphNode().append(text('a'), $createLineBreakNode()),
				$createParagraphNode(),
				$createParagraphNode().append(text('b')),
				$createParagraphNode(),
				$createParagraphNode(),
			);
		});
		expect(doc.blocks).toEqual([
			{ type: 'paragraph', children: [{ text: 'a' }] },
			{ type: 'paragraph', children: [] },
			{ type: 'paragraph', children: [{ text: 'b' }] },
		]);
	});

	it('splits a text over 10,000 characters into runs, never inside a surrogate pair', () => {
		const long = `${'a'.repeat(9999)}😀${'b'.repeat(5000)}`;
		const doc = build(() => $getRoot().append($createParagraphNode().append(text(long))));
		const block = doc.blocks[0];
		expect(block?.type).toBe('paragraph');
		const children = block?.type === 'paragraph' ? block.children : [];
		expect(children.map((run) => run.text).join('')).toBe(long);
		expect(children.every((run) => run.text.length <= 10000 && !/^[\uDC00-\uDFFF]/.test(run.text))).toBe(true);
	});

	it('splits a block of more than 500 runs into several blocks and a list of more than 200 items into several lists', () => {
		const doc = build(() => {
			const paragraph = $createParagraphNode();
			for (let index = 0; index < 1200; index++) paragraph.append(text(String(index % 10), index % 2 ? 'bold' : 'italic'));
			const list = $createListNode('number');
			for (let index = 0; index < 450; index++) list.append($createListItemNode().append(text(`item ${index}`)));
			$getRoot().append(paragraph, list);
		});
		expect(doc.blocks.map((block) => block.type)).toEqual(['paragraph', 'paragraph', 'paragraph', 'list', 'list', 'list']);
		expect(doc.blocks.flatMap((block) => (block.type === 'list' ? block.items : [])).length).toBe(450);
	});

	it('keeps at most the 1,000 blocks the schema allows', () => {
		const doc = build(() => {
			for (let index = 0; index < 1100; index++) $getRoot().append($createParagraphNode().append(text(`p${index}`)));
		});
		expect(doc.blocks).toHaveLength(1000);
	});

	it('reads a quote with a line break and a YouTube video', () => {
		const doc = build(() =>
			$getRoot().append($createQuoteNode().append(text('a'), $createLineBreakNode(), text('b')), $createYouTubeNode('dQw4w9WgXcQ')),
		);
		expect(doc.blocks).toEqual([
			{ type: 'quote', children: [{ text: 'a\nb' }] },
			{ type: 'youtube', videoId: 'dQw4w9WgXcQ' },
		]);
	});
});

describe('documentIsEmpty', () => {
	it('is true for no blocks, empty paragraphs and white space (ideographic spaces too)', () => {
		expect(documentIsEmpty(emptyDocument())).toBe(true);
		expect(
			documentIsEmpty({
				type: 'doc',
				blocks: [
					{ type: 'paragraph', children: [] },
					{ type: 'paragraph', children: [{ text: ' \n\t\u3000' }] },
				],
			}),
		).toBe(true);
		expect(documentIsEmpty({ type: 'doc', blocks: [{ type: 'list', ordered: false, items: [[], [{ text: ' ' }]] }] })).toBe(true);
	});

	it('is false with text, an image or a video', () => {
		expect(documentIsEmpty({ type: 'doc', blocks: [{ type: 'heading', level: 2, children: [{ text: 'x' }] }] })).toBe(false);
		expect(documentIsEmpty({ type: 'doc', blocks: [{ type: 'image', src: '/uploads/CCCCCCCCCCCCCCCCCCCCCC.png', alt: '' }] })).toBe(false);
		expect(documentIsEmpty({ type: 'doc', blocks: [{ type: 'youtube', videoId: 'dQw4w9WgXcQ' }] })).toBe(false);
	});
});

describe('normalizeLink', () => {
	it.each([
		['https://example.com/a', 'https://example.com/a'],
		['  https://example.com/a  ', 'https://example.com/a'],
		['http://example.com/a', 'https://example.com/a'],
		['HTTP://example.com/a', 'https://example.com/a'],
		['example.com/page?x=1', 'https://example.com/page?x=1'],
		['www.example.co.kr', 'https://www.example.co.kr'],
		['/starfall/global/posts/3', '/starfall/global/posts/3'],
		['http://localhost:8788/starfall/global/boards/12', '/starfall/global/boards/12'],
	])('takes %j as %j', (raw, expected) => {
		expect(normalizeLink(raw, 'http://localhost:8788')).toBe(expected);
	});

	it.each([
		'',
		'javascript:alert(1)',
		' javascript:alert(1)',
		'java\tscript:alert(1)',
		'data:text/html;base64,PHNjcmlwdD4=',
		'vbscript:x',
		'//evil.example',
		'/\\evil.example',
		'mailto:a@b.c',
		'ftp://example.com',
		'https://a b.com',
		'just words',
		'https://user:pw@example.com',
	])('refuses %j', (raw) => {
		expect(normalizeLink(raw, 'http://localhost:8788')).toBeNull();
	});
});

describe('constants the editor repeats to keep zod out of its bundle', () => {
	it('are the schemas’ own', async () => {
		const { YOUTUBE_ID } = await import('@/schemas/content');
		const { YOUTUBE_VIDEO_ID } = await import('@/lib/youtube-url');
		const upload = await import('@/islands/editor/upload');
		expect(YOUTUBE_VIDEO_ID.source).toBe(YOUTUBE_ID.source);
		const { IMAGE_ACCEPT } = await import('@/islands/editor/media-nodes');
		const { GUIDANCE_HINT_MAX_LENGTH } = await import('@/schemas/content');
		expect((await import('@/islands/editor/guidance-node')).GUIDANCE_HINT_MAX_LENGTH).toBe(GUIDANCE_HINT_MAX_LENGTH);
		expect(IMAGE_ACCEPT).toBe(upload.IMAGE_TYPES.join(','));
		// The limits the editor's and the write form's messages name are those the server enforces.
		const limits = await import('@/schemas/post-limits');
		const { IMAGE_MAX_DIMENSION, IMAGE_MAX_PIXELS } = await import('@/server/uploads/image-format');
		const { MAX_UPLOADS_PER_DOCUMENT } = await import('@/server/uploads/claims');
		const { RESULT_MESSAGES } = await import('@/lib/result-codes');
		expect(limits.UPLOAD_LIMIT_LABELS).toEqual({
			megapixels: IMAGE_MAX_PIXELS / 1_000_000,
			side: '10,000',
			images: limits.IMAGES_PER_DOCUMENT_MAX,
			dailyImages: 100,
			dailyMb: 200,
			unattached: 60,
		});
		expect([IMAGE_MAX_DIMENSION, MAX_UPLOADS_PER_DOCUMENT, limits.UPLOAD_BYTES_PER_DAY]).toEqual([
			10_000,
			limits.IMAGES_PER_DOCUMENT_MAX,
			limits.UPLOAD_MB_PER_DAY * 1024 * 1024,
		]);
		expect(RESULT_MESSAGES.ImageResolutionTooHigh).toContain(
			`${limits.IMAGE_MAX_MEGAPIXELS} megapixels and ${limits.UPLOAD_LIMIT_LABELS.side} pixels`,
		);
		expect(RESULT_MESSAGES.TooManyImages).toContain(`${limits.IMAGES_PER_DOCUMENT_MAX} images`);
		// The write screen fills the limits into their texts on the server, in every language.
		const { pick, translator } = await import('@/i18n');
		const { LIMIT_TEXT_KEYS } = await import('@/islands/write/texts');
		for (const language of ['en', 'ja', 'ko', 'zh'] as const) {
			const texts = pick(translator(language), LIMIT_TEXT_KEYS, limits.UPLOAD_LIMIT_LABELS);
			expect(
				Object.values(texts).filter((text) => text.includes('{{')),
				language,
			).toEqual([]);
			expect(texts['editor.message.imageResolution'], language).toMatch(/40.*10,000/);
			expect(texts['editor.message.uploadDailyLimit'], language).toMatch(/100.*200/);
			expect(texts['editor.message.unattachedLimit'], language).toContain('60');
			expect(texts['write.message.tooManyImages'], language).toContain('50');
		}
		const { isImageSrc } = await import('@/schemas/content');
		const { imagePathOnSite } = await import('@/islands/editor/media-nodes');
		for (const src of [
			'/uploads/AAAAAAAAAAAAAAAAAAAAAA.png',
			'/uploads/short.png',
			'/uploads/AAAAAAAAAAAAAAAAAAAAAA.svg',
			'/demo/shot-01.svg',
			'/demo/../x.svg',
			'/demo/Shot.svg',
			'https://example.com/a.png',
			'/other/a.png',
		]) {
			expect([src, imagePathOnSite(src) !== null]).toEqual([src, isImageSrc(src)]);
		}
	});
});

describe('template guidance in the editor (src/schemas/guidance.ts)', () => {
	const TEMPLATE: ContentDocument = {
		type: 'doc',
		blocks: [
			{ type: 'guidance', hint: 'Thanks for reporting!', children: [] },
			{ type: 'heading', level: 2, children: [{ text: 'Summary' }] },
			{ type: 'guidance', hint: 'What went wrong, in one sentence.', children: [] },
			{ type: 'paragraph', children: [{ text: 'Kept.' }] },
		],
	};

	it('keeps guidance blocks and their hints both ways, the hint never as text', () => {
		expect(roundTrip(TEMPLATE)).toEqual(TEMPLATE);
		const editor = headlessEditor();
		editor.update(() => $importDocument(TEMPLATE), { discrete: true });
		expect(editor.read(() => $getRoot().getTextContent())).not.toContain('Thanks for reporting');
		expect(
			editor.read(() =>
				$getRoot()
					.getChildren()
					.filter($isGuidanceNode)
					.map((node) => node.getHint()),
			),
		).toEqual(['Thanks for reporting!', 'What went wrong, in one sentence.']);
	});

	it('counts untouched guidance as empty, and publishes only what the writer typed into it', () => {
		expect(documentIsEmpty({ type: 'doc', blocks: [TEMPLATE.blocks[0]!, TEMPLATE.blocks[2]!] })).toBe(true);
		const editor = headlessEditor();
		editor.update(() => $importDocument(TEMPLATE), { discrete: true });
		// The writer types into the second guidance line.
		editor.update(() => $getRoot().getChildren().filter($isGuidanceNode)[1]!.append($createTextNode('It crashes.')), { discrete: true });
		const written = editor.read(() => $exportDocument());
		expect(written.blocks[2]).toEqual({ type: 'guidance', hint: 'What went wrong, in one sentence.', children: [{ text: 'It crashes.' }] });
		expect(publishedDocument(written).blocks).toEqual([
			{ type: 'heading', level: 2, children: [{ text: 'Summary' }] },
			{ type: 'paragraph', children: [{ text: 'It crashes.' }] },
			{ type: 'paragraph', children: [{ text: 'Kept.' }] },
		]);
	});
});
