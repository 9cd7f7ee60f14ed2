import { describe, expect, it } from 'vitest';
import { NICKNAME_MESSAGE_KEYS, NicknameSchema, nicknameProblem, type NicknameProblem } from '@/schemas/nickname';
import en from '@/i18n/en.json';

/** docs/reference/product-rules.md#validation, rule by rule: the value, and the rule it breaks (null: allowed). */
const CASES: [string, string, NicknameProblem | null][] = [
	['an empty value', '', 'required'],
	['only spaces', '   ', 'required'],
	['one character', 'a', 'length'],
	['one Hangul syllable', '별', 'length'],
	['two characters', 'ab', null],
	['thirty characters', 'a'.repeat(30), null],
	['thirty-one characters', 'a'.repeat(31), 'length'],
	['thirty Japanese characters', 'あ'.repeat(30), null],
	['two emoji-free CJK characters', '星墜', null],
	['a space inside', 'star pilot', 'characters'],
	['a tab', 'star\tpilot', 'characters'],
	['an ideographic space', 'スター\u3000パイロット', 'characters'],
	['a no-break space', 'star\u00a0pilot', 'characters'],
	['a square bracket', 'star[1]', 'characters'],
	['a curly brace', 'star{x}', 'characters'],
	['a full-width bracket', 'star［1］', 'characters'],
	['an emoji', 'star🚀', 'characters'],
	['an emoji with a skin tone', 'hi👍🏽', 'characters'],
	['a flag', 'kr🇰🇷', 'characters'],
	['a keycap', 'no1️⃣', 'characters'],
	['a zero-width space', 'star\u200bpilot', 'unusable'],
	['a control character', 'star\u0007', 'unusable'],
	['a right-to-left override', 'star\u202epilot', 'unusable'],
	['a combining grapheme joiner (U+034F)', 'PixelFarm\u034FTeam', 'unusable'],
	['a combining grapheme joiner in a staff word', 'Adm\u034Fin', 'unusable'],
	['a Hangul choseong filler (U+115F)', '운영\u115F자', 'unusable'],
	['a Hangul jungseong filler (U+1160)', '운영\u1160자', 'unusable'],
	['a Hangul filler (U+3164)', '운영자\u3164', 'unusable'],
	['a half-width Hangul filler (U+FFA0)', '\uFFA0운영자', 'unusable'],
	['a Mongolian free variation selector (U+180B)', 'Ad\u180Bmin', 'unusable'],
	['a Mongolian free variation selector (U+180F)', 'Ad\u180Fmin', 'unusable'],
	['a variation selector (U+FE00)', 'Ad\uFE00min', 'unusable'],
	['a combining mark NFC does not compose', 'Adm\u0331in', 'unusable'],
	['a combining mark after a digit', 'R2\u0301D2', 'unusable'],
	['a Devanagari vowel sign after a Latin letter', 'Ada\u0941m', 'unusable'],
	['a stack of marks on a Latin letter', 'Zalgo\u0336\u0337\u0338', 'unusable'],
	['an accent NFC composes', 'Cafe\u0301', null],
	['Vietnamese', 'Nguyễn', null],
	['Hindi with vowel signs and a virama', 'कृष्ण', null],
	['Thai with a tone mark', 'สมชาย่', null],
	['Hebrew with points', 'שָׁלוֹם', null],
	['kana with a voicing mark NFC cannot compose', 'ㇷ\u309Aタ', null],
	['Japanese with voiced kana', 'ばなな', null],
	['Latin mixed with Cyrillic look-alikes', 'pаypal', 'unusable'],
	['a reserved staff word', 'Admin', 'unusable'],
	['a reserved word in full width', 'ＡＤＭＩＮ', 'unusable'],
	['Cyrillic alone', 'Пилот', null],
	['letters, digits, dot, hyphen and underscore', 'Star_Pilot-01.x', null],
	['Korean', '별빛조종사', null],
];

describe('nickname rules (docs/reference/product-rules.md#validation)', () => {
	it.each(CASES)('%s (%j) → %s', (_, value, expected) => {
		expect(nicknameProblem(value)).toBe(expected);
	});

	it('gives every broken rule its message in docs/reference/product-rules.md#validation', () => {
		const messages = Object.fromEntries(Object.entries(NICKNAME_MESSAGE_KEYS).map(([problem, key]) => [problem, en[key]]));
		expect(messages).toEqual({
			required: 'Enter your nickname.',
			length: 'Nickname must be between 2-30 characters.',
			characters: 'Spaces, brackets ([,]), braces ({,}), and emojis are not allowed.',
			unusable: 'This nickname cannot be used.',
			unchanged: 'Nickname currently in use.',
			taken: 'This nickname is already in use.',
		});
	});

	it('stores the NFC form, so a decomposed and a composed name are one', () => {
		const decomposed = 'Cafe\u0301';
		expect(NicknameSchema.parse(decomposed)).toBe('Café');
	});

	it('reports the broken rule as the schema issue the island shows', () => {
		const result = NicknameSchema.safeParse('a b');
		expect(result.success).toBe(false);
		expect(result.error?.issues[0]?.message).toBe('characters');
	});
});
