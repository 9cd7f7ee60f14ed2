/**
 * The demo communities' own pictures (docs/reference/seo.md#share-images): each community's banner speaks its
 * language, and its share image is a PNG or JPEG of the size its file declares, small enough for a
 * preview, with an alt in its language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChannelFile } from '@/server/channels/channel-file';
import { imageSize } from '../image-size';

const DIR = path.join(process.cwd(), 'channels');
const communities = readdirSync(DIR)
	.filter((name) => name.endsWith('.json'))
	.map((name) => JSON.parse(readFileSync(path.join(DIR, name), 'utf8')) as ChannelFile);
/** A file the site serves from public/. */
const served = (url: string) => readFileSync(path.join(process.cwd(), 'public', url));

const HANGUL = /[\uAC00-\uD7A3]/;
const KANA = /[\u3041-\u30FF]/;
const HAN = /[\u4E00-\u9FFF]/;
const LATIN_WORD = /[A-Za-z]{2,}/;
/** Characters of Simplified Chinese that Traditional writes otherwise (坠 墜, 奥 奧, 赛 賽, 云 雲, 区 區, 战 戰, 机 機, 飞 飛). */
const SIMPLIFIED = /[坠奥赛云区战机飞]/;

/** Whether `text` is written in `language`: its script, and no words of another. */
function isIn(language: string, text: string): boolean {
	switch (language) {
		case 'en':
			return LATIN_WORD.test(text) && !HAN.test(text) && !KANA.test(text) && !HANGUL.test(text);
		case 'ko':
			return HANGUL.test(text) && !KANA.test(text) && !LATIN_WORD.test(text);
		case 'ja':
			return KANA.test(text) && !HANGUL.test(text) && !LATIN_WORD.test(text);
		case 'zh':
			return HAN.test(text) && !KANA.test(text) && !HANGUL.test(text) && !LATIN_WORD.test(text) && !SIMPLIFIED.test(text);
		default:
			return false;
	}
}

describe.each(communities.map((file) => [`${file.domain}/${file.slug}`, file] as const))('%s', (_name, file) => {
	const { language } = file.header;

	it('shows a banner whose words are in its language', () => {
		const svg = served(file.banner!.imageUrl).toString('utf8');
		const words = [...svg.matchAll(/<text[^>]*>([^<]+)<\/text>/g)].map((match) => match[1]!);
		if (words.length === 0) return; // a banner without words speaks every language
		for (const text of words) expect(isIn(language, text), text).toBe(true);
	});

	it('has a PNG or JPEG share image of the size it declares, under 300 KB, with an alt in its language', () => {
		const share = file.headerConfig.shareImage!;
		expect(share.url).toMatch(/\.(?:png|jpe?g)$/);
		const bytes = served(share.url);
		expect(bytes.length).toBeLessThan(300_000);
		expect(imageSize(bytes)).toEqual({ width: share.width, height: share.height });
		expect({ width: share.width, height: share.height }).toEqual({ width: 1200, height: 630 });
		expect(isIn(language, share.alt), share.alt).toBe(true);
	});
});

describe('the language check', () => {
	it('refuses a banner in another language or script', () => {
		expect(isIn('zh', 'STARFALL ODYSSEY')).toBe(false);
		expect(isIn('zh', '星坠奥德赛')).toBe(false);
		expect(isIn('zh', '星墜奧德賽')).toBe(true);
		expect(isIn('ja', '스타폴 오디세이')).toBe(false);
		expect(isIn('en', 'スターフォール')).toBe(false);
	});
});
