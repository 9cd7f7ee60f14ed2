/** What a post's list row shows for its first image or video (src/lib/thumbnails.ts). */
import { describe, expect, it } from 'vitest';
import { postThumbnailOf, thumbnailUrl, youTubePoster } from '@/lib/thumbnails';
import { isImageSrc } from '@/schemas/content';

const small = (src: string) => (src === '/uploads/AAAAAAAAAAAAAAAAAAAAAA.png' ? '/uploads/BBBBBBBBBBBBBBBBBBBBBB.webp' : null);

describe('postThumbnailOf', () => {
	it('takes the first image that has a small variant or the first video, whichever comes first', () => {
		expect(
			postThumbnailOf(
				[{ type: 'paragraph' }, { type: 'image', src: '/uploads/AAAAAAAAAAAAAAAAAAAAAA.png' }, { type: 'youtube', videoId: 'dQw4w9WgXcQ' }],
				small,
			),
		).toBe('/uploads/BBBBBBBBBBBBBBBBBBBBBB.webp');
		expect(
			postThumbnailOf(
				[
					{ type: 'youtube', videoId: 'dQw4w9WgXcQ' },
					{ type: 'image', src: '/uploads/AAAAAAAAAAAAAAAAAAAAAA.png' },
				],
				small,
			),
		).toBe('youtube:dQw4w9WgXcQ');
		// An image without a variant is passed over, not shown at full size.
		expect(
			postThumbnailOf(
				[
					{ type: 'image', src: '/uploads/CCCCCCCCCCCCCCCCCCCCCC.png' },
					{ type: 'youtube', videoId: 'M7lc1UVf-VE' },
				],
				small,
			),
		).toBe('youtube:M7lc1UVf-VE');
		expect(postThumbnailOf([{ type: 'image', src: '/uploads/CCCCCCCCCCCCCCCCCCCCCC.png' }], small)).toBeNull();
		expect(postThumbnailOf([{ type: 'paragraph' }], small)).toBeNull();
		expect(postThumbnailOf([{ type: 'youtube', videoId: 'not an id' }], small)).toBeNull();
	});
});

describe('thumbnailUrl', () => {
	it("answers a video's list poster on YouTube's image host, and this site's images as they are", () => {
		expect(thumbnailUrl('youtube:dQw4w9WgXcQ', isImageSrc)).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg');
		expect(youTubePoster('dQw4w9WgXcQ', 'hq')).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg');
		expect(thumbnailUrl('/uploads/BBBBBBBBBBBBBBBBBBBBBB.webp', isImageSrc)).toBe('/uploads/BBBBBBBBBBBBBBBBBBBBBB.webp');
		expect(thumbnailUrl('/demo/shot-01.svg', isImageSrc)).toBe('/demo/shot-01.svg');
	});

	it('answers nothing for a row without one, or a value that is not an image of this site or a video id', () => {
		for (const stored of [null, '', 'https://evil.example/x.png', '//evil.example/x.png', 'youtube:../../x', 'youtube:', 'javascript:alert(1)']) {
			expect(thumbnailUrl(stored, isImageSrc), String(stored)).toBeNull();
		}
	});
});
