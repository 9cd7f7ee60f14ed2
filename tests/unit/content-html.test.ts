import { describe, expect, it } from 'vitest';
import { renderContentHtml } from '@/server/posts/content-html';
import { DocumentSchema, documentText } from '@/schemas/content';

const labels = { playVideo: 'Play video', openImage: 'Open image' };
const doc = (blocks: unknown[]) => JSON.stringify({ type: 'doc', blocks });

describe('renderContentHtml', () => {
	it('never renders a guidance hint: a filled guidance block is a paragraph, an empty one nothing', () => {
		const html = renderContentHtml(
			doc([
				{ type: 'guidance', hint: 'Say what broke.', children: [] },
				{ type: 'guidance', hint: 'Steps.', children: [{ text: 'Open the barn.' }] },
			]),
			labels,
		);
		expect(html).toBe('<p>Open the barn.</p>');
	});

	it('escapes markup in text so a body cannot inject HTML', () => {
		const html = renderContentHtml(doc([{ type: 'paragraph', children: [{ text: '<script>alert(1)</script> & "q"' }] }]), labels);
		expect(html).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;</p>');
	});

	it('renders marks, headings, lists and links with safe rel attributes', () => {
		const html = renderContentHtml(
			doc([
				{ type: 'heading', level: 2, children: [{ text: 'Rewards' }] },
				{
					type: 'paragraph',
					children: [
						{ text: 'bold', bold: true },
						{ text: ' site', link: 'https://starfall.example' },
					],
				},
				{ type: 'list', ordered: true, items: [[{ text: 'one' }], [{ text: 'two' }]] },
			]),
			labels,
		);
		expect(html).toContain('<h2>Rewards</h2>');
		expect(html).toContain('<strong>bold</strong>');
		expect(html).toContain('<a href="https://starfall.example" rel="noopener noreferrer nofollow ugc" target="_blank"> site</a>');
		expect(html).toContain('<ol><li>one</li><li>two</li></ol>');
	});

	it('renders a YouTube block as a facade link, not an iframe', () => {
		const html = renderContentHtml(doc([{ type: 'youtube', videoId: 'dQw4w9WgXcQ' }]), labels);
		expect(html).toContain('data-youtube-id="dQw4w9WgXcQ"');
		expect(html).not.toContain('<iframe');
	});

	it("gives a YouTube facade the video's poster from YouTube's image host and the post's title, escaped", () => {
		const html = renderContentHtml(doc([{ type: 'youtube', videoId: 'dQw4w9WgXcQ' }]), { ...labels, videoTitle: 'Raid <b>"night"</b>' });
		expect(html).toContain(
			'<img class="youtube-poster" src="https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" alt="" width="480" height="360" loading="lazy" decoding="async" referrerpolicy="no-referrer">',
		);
		expect(html).toContain('<span class="youtube-title">Raid &lt;b&gt;&quot;night&quot;&lt;/b&gt;</span>');
		// Without a title, none is shown.
		expect(renderContentHtml(doc([{ type: 'youtube', videoId: 'dQw4w9WgXcQ' }]), labels)).not.toContain('youtube-title');
	});

	it("leaves out an image of an older row that points off the site's uploads, and keeps the rest", () => {
		const html = renderContentHtml(
			doc([
				{ type: 'paragraph', children: [{ text: 'Before' }] },
				{ type: 'image', src: 'https://tracker.example/pixel.png', alt: 'pixel', width: 1, height: 1 },
				{ type: 'image', src: '/uploads/AAAAAAAAAAAAAAAAAAAAAA.webp', alt: 'mine', width: 300, height: 20 },
			]),
			labels,
		);
		expect(html).toBe(
			'<p>Before</p>\n<figure class="content-image"><a class="content-image-link" href="/uploads/AAAAAAAAAAAAAAAAAAAAAA.webp"><img src="/uploads/AAAAAAAAAAAAAAAAAAAAAA.webp" alt="mine" width="300" height="20" loading="lazy" decoding="async"></a></figure>',
		);
	});

	it('wraps each image in a link to its file (the viewer without JavaScript), named by its alt text or the label', () => {
		const html = renderContentHtml(
			doc([
				{ type: 'image', src: '/demo/shot-01.svg', alt: 'Ship', width: 1280, height: 720 },
				{ type: 'image', src: '/demo/shot-02.svg', alt: ' ' },
			]),
			{ playVideo: 'Play video', openImage: 'Open "image"' },
		);
		expect(html).toContain('<a class="content-image-link" href="/demo/shot-01.svg"><img src="/demo/shot-01.svg" alt="Ship"');
		expect(html).toContain(
			'<a class="content-image-link" href="/demo/shot-02.svg" aria-label="Open &quot;image&quot;"><img src="/demo/shot-02.svg" alt=" "',
		);
	});

	it('falls back to one escaped paragraph for a body that does not parse', () => {
		expect(renderContentHtml('<b>old</b>', labels)).toBe('<p>&lt;b&gt;old&lt;/b&gt;</p>');
		expect(renderContentHtml(doc([{ type: 'image', src: 'javascript:alert(1)', alt: '' }]), labels)).not.toContain('<img');
	});
});

describe('DocumentSchema', () => {
	it('refuses javascript: and protocol-relative URLs', () => {
		for (const src of ['javascript:alert(1)', '//evil.example/x.png', 'http://plain.example/x.png']) {
			expect(DocumentSchema.safeParse({ type: 'doc', blocks: [{ type: 'image', src, alt: '' }] }).success).toBe(false);
		}
	});

	it("lets an image point only at this site's uploads and the demo's files", () => {
		const accepts = (src: string) => DocumentSchema.safeParse({ type: 'doc', blocks: [{ type: 'image', src, alt: '' }] }).success;
		expect(accepts('/uploads/AAAAAAAAAAAAAAAAAAAAAA.png')).toBe(true);
		expect(accepts('/uploads/a-b_CdEfGhIjKlMnOpQrSt.jpg')).toBe(true);
		expect(accepts('/demo/shot-01.svg')).toBe(true);
		for (const src of [
			'https://starfall.example/shot.png',
			'/uploads/AAAAAAAAAAAAAAAAAAAAAA.svg',
			'/uploads/AAAAAAAAAAAAAAAAAAAAAA.png?x=1',
			'/uploads/../demo/shot-01.svg',
			'/uploads/short.png',
			'/demo/../uploads/x.png',
			'/demo/Shot.SVG',
			'/starfall/global/boards/12',
			'/UPLOADS/AAAAAAAAAAAAAAAAAAAAAA.png',
		]) {
			expect(accepts(src), src).toBe(false);
		}
	});

	it('accepts site images, and extracts the plain text', () => {
		const parsed = DocumentSchema.parse({
			type: 'doc',
			blocks: [
				{ type: 'paragraph', children: [{ text: 'Hello' }] },
				{ type: 'image', src: '/demo/shot-01.svg', alt: 'A ship' },
			],
		});
		expect(documentText(parsed)).toBe('Hello\nA ship');
	});
});
