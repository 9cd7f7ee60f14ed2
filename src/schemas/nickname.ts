/**
 * The nickname rules of docs/reference/product-rules.md#validation, shared by the islands and the API. A nickname is 2 to 30
 * characters (Unicode code points after NFC), with no white space of any kind, no square brackets
 * or curly braces (also full-width ones), no emoji, no invisible, ignorable or control characters
 * (Unicode's Default_Ignorable_Code_Point: joiners, the combining grapheme joiner, Hangul fillers,
 * variation selectors), no combining mark that its letter's script does not need (docs/reference/nicknames.md),
 * no mix of Latin with Cyrillic or Greek letters (the usual look-alike trick), and none of the
 * reserved staff words. Whether it is free is the server's question (src/server/accounts.ts): names compare
 * by `nicknameKey`, so case, full-width forms and invisible characters make no new name.
 */
import './zod-config';
import { z } from 'zod';
import { nicknameKey } from '@/lib/nickname-key';

const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 30;

/** What is wrong with a nickname before the server is asked; each has its text in the i18n files. */
export type NicknameProblem = 'required' | 'length' | 'characters' | 'unusable';

export const NICKNAME_MESSAGE_KEYS = {
	required: 'nickname.message.required',
	length: 'nickname.message.length',
	characters: 'nickname.message.characters',
	unusable: 'nickname.message.unusable',
	unchanged: 'nickname.message.unchanged',
	taken: 'nickname.message.taken',
} as const;

const FORBIDDEN = /[\s\p{Z}[\]{}]/u;
// Pictographs, flags, skin tones, the keycap mark and the emoji presentation selector.
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1F3FB}-\u{1F3FF}]|\u20E3|\uFE0F/u;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;
/**
 * The scripts whose writing needs combining marks that NFC leaves as marks: the vowel signs and
 * viramas of the Indic and Southeast Asian scripts, Hebrew and Arabic points, and the kana voicing
 * marks where no precomposed kana exists. Latin, Greek and Cyrillic letters with accents are
 * precomposed by NFC (é, ё, ά), so a mark still there after NFC is not needed by any name in them.
 */
const MARK_SCRIPTS = [
	'Arabic',
	'Hebrew',
	'Devanagari',
	'Bengali',
	'Gurmukhi',
	'Gujarati',
	'Oriya',
	'Tamil',
	'Telugu',
	'Kannada',
	'Malayalam',
	'Sinhala',
	'Thai',
	'Lao',
	'Tibetan',
	'Myanmar',
	'Khmer',
	'Hiragana',
	'Katakana',
];
/** A letter of one of MARK_SCRIPTS with the marks of that script that follow it. */
const SCRIPT_MARKS = new RegExp(MARK_SCRIPTS.map((script) => `\\p{sc=${script}}(?:(?=\\p{M})\\p{scx=${script}})+`).join('|'), 'gu');
const MARK = /\p{M}/u;
const LATIN = /\p{Script=Latin}/u;
const LOOK_ALIKE_SCRIPTS = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;
/** The reserved staff words (their look-alikes are refused by the server, src/server/accounts/nickname.ts). */
export const RESERVED_NICKNAMES = ['admin', 'administrator', 'moderator', 'operator', 'staff', 'system', 'manager', 'official'] as const;
const RESERVED = new Set<string>(RESERVED_NICKNAMES);

/** The first rule `value` breaks, or null. */
export function nicknameProblem(value: string): NicknameProblem | null {
	const nickname = value.normalize('NFC');
	if (nickname.trim() === '') return 'required';
	if (FORBIDDEN.test(nickname) || FORBIDDEN.test(nickname.normalize('NFKC')) || EMOJI.test(nickname)) return 'characters';
	if (INVISIBLE.test(nickname)) return 'unusable';
	// A mark left after NFC that is not a mark of its letter's own script (Adm + U+0301 + in, a
	// mark after a digit, a Devanagari sign after a Latin letter).
	if (MARK.test(nickname.replace(SCRIPT_MARKS, ''))) return 'unusable';
	if (LATIN.test(nickname) && LOOK_ALIKE_SCRIPTS.test(nickname)) return 'unusable';
	if (RESERVED.has(nicknameKey(nickname))) return 'unusable';
	const length = [...nickname].length;
	if (length < NICKNAME_MIN || length > NICKNAME_MAX) return 'length';
	return null;
}

/** A nickname as stored: NFC-normalised; the issue message is the NicknameProblem. */
export const NicknameSchema = z
	.string()
	.max(400)
	.transform((value) => value.normalize('NFC'))
	.superRefine((value, ctx) => {
		const problem = nicknameProblem(value);
		if (problem) ctx.addIssue({ code: 'custom', message: problem });
	});
