import { describe, expect, it } from 'vitest';
import { highlightParts, matchExcerpt, normalizeSearchText, searchDocument, searchPhrase } from '@/server/search-index/search-text';

describe('normalizeSearchText', () => {
	it('folds full-width forms, case and white space', () => {
		expect(normalizeSearchText('  ＡＢＣ　Ｄｅｆ  ')).toBe('abc def');
		expect(normalizeSearchText('ｶﾀｶﾅ')).toBe('カタカナ');
		expect(normalizeSearchText('Ⅻ ①')).toBe('xii 1');
		expect(normalizeSearchText('a\n\t b')).toBe('a b');
	});
});

describe('terms', () => {
	it('are the bigrams of the normalised text, one per position', () => {
		expect(searchDocument('검색어')).toBe('검색 색어');
		expect(searchDocument('Ab')).toBe('ab');
		expect(searchDocument('x')).toBe('');
	});

	it('escape what the ascii tokenizer would split at or fold, so no query is FTS5 syntax', () => {
		const phrase = searchPhrase('a "b" OR c*');
		expect(phrase).not.toBeNull();
		// One phrase in double quotes, none inside it.
		expect(phrase!.slice(1, -1)).not.toContain('"');
		expect(phrase!.split(' ').every((term) => !/[^0-9a-z\u0080-\u{10FFFF}"]/u.test(term))).toBe(true);
		// Distinct bigrams stay distinct terms.
		expect(searchDocument('a b')).not.toBe(searchDocument('a-b'));
		expect(searchDocument('\u{F0000}a')).not.toBe(searchDocument(' a'));
	});

	it('has no phrase for less than two characters', () => {
		expect(searchPhrase(' a ')).toBeNull();
		expect(searchPhrase('ab')).toBe(`"ab"`);
	});
});

describe('highlightParts', () => {
	it('marks every match, whole characters, in the text as written', () => {
		expect(highlightParts('Raid and RAID', 'raid')).toEqual([
			{ text: 'Raid', mark: true },
			{ text: ' and ', mark: false },
			{ text: 'RAID', mark: true },
		]);
		expect(highlightParts('ＲＡＩＤ戦', 'raid')).toEqual([
			{ text: 'ＲＡＩＤ', mark: true },
			{ text: '戦', mark: false },
		]);
		expect(highlightParts('no match', 'zz')).toEqual([{ text: 'no match', mark: false }]);
		expect(highlightParts('<script>alert(1)</script>', 'script')).toEqual([
			{ text: '<', mark: false },
			{ text: 'script', mark: true },
			{ text: '>alert(1)</', mark: false },
			{ text: 'script', mark: true },
			{ text: '>', mark: false },
		]);
	});
});

describe('matchExcerpt', () => {
	it('shows the first match with text around it, cut at words', () => {
		const text = `${'word '.repeat(40)}the needle is here ${'tail '.repeat(40)}`;
		const parts = matchExcerpt(text, 'needle')!;
		expect(parts[0]).toEqual({ text: '…', mark: false });
		expect(parts.at(-1)).toEqual({ text: '…', mark: false });
		expect(parts.find((part) => part.mark)?.text).toBe('needle');
		expect(parts[1]!.text.startsWith('word ')).toBe(true);
		expect(matchExcerpt('short text', 'missing')).toBeNull();
		expect(matchExcerpt('短い本文です', '本文')).toEqual([
			{ text: '短い', mark: false },
			{ text: '本文', mark: true },
			{ text: 'です', mark: false },
		]);
	});
});

describe('searchKeywordProblem (docs/reference/product-rules.md#validation, counted as a person counts)', () => {
	it('requires a keyword and takes 2 to 20 characters', async () => {
		const { searchKeywordProblem, SearchKeywordSchema } = await import('@/schemas/search');
		expect(searchKeywordProblem('  ')).toBe('search.message.required');
		expect(searchKeywordProblem('가')).toBe('alert.message.minLength');
		expect(searchKeywordProblem('👍')).toBe('alert.message.minLength');
		expect(searchKeywordProblem('가나')).toBeNull();
		expect(searchKeywordProblem('👍🏽👍🏽')).toBeNull();
		expect(searchKeywordProblem('ＡＢ')).toBeNull();
		expect(searchKeywordProblem('字'.repeat(20))).toBeNull();
		expect(searchKeywordProblem('字'.repeat(21))).toBe('alert.message.minLength');
		expect(SearchKeywordSchema.safeParse(' 👍🏽👍🏽 ').data).toBe('👍🏽👍🏽');
		expect(SearchKeywordSchema.safeParse('👍').error?.issues[0]?.message).toBe('alert.message.minLength');
		expect(SearchKeywordSchema.safeParse('').error?.issues[0]?.message).toBe('search.message.required');
	});
});
