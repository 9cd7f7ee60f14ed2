/**
 * The nickname rules of docs/product-rules.md#validation, shared by the islands and the API. A nickname is 2 to 30
 * characters (Unicode code points after NFC), with no white space of any kind, no square brackets
 * or curly braces (also full-width ones), no emoji, no invisible or control characters, no mix of
 * Latin with Cyrillic or Greek letters (the usual look-alike trick), and none of the reserved
 * staff words. Whether it is free is the server's question (src/server/accounts.ts): names compare
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
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}]/u;
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
