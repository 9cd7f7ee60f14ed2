/**
 * The screen and the API say the same sentence for the same failure: each result code a page or
 * island shows has its i18n key (src/i18n/result-texts.ts), the English text is the catalogue's
 * message word for word, the other languages have it too, and every code an island or page script
 * matches is either shown by that text or only decides what happens (a dialog, a redirect).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import en from '@/i18n/en.json';
import ja from '@/i18n/ja.json';
import ko from '@/i18n/ko.json';
import zh from '@/i18n/zh.json';
import { RESULT_MESSAGES, type ResultCodeName } from '@/lib/result-codes';
import { RESULT_TEXT_KEYS } from '@/i18n/result-texts';
import { DRAFT_LIMIT, IMAGE_MAX_SIZE_LABEL, IMAGES_PER_DOCUMENT_MAX, TITLE_MAX_LENGTH, UPLOAD_LIMIT_LABELS } from '@/schemas/post-limits';
import { REPORT_DETAIL_MAX_LENGTH } from '@/schemas/report-limits';

/** The placeholders' values, per key: the limits the catalogue's messages state. */
const VALUES: Record<string, Record<string, string | number>> = {
	'write.message.titleTooLong': { length: TITLE_MAX_LENGTH },
	'write.message.draftLimit': { count: DRAFT_LIMIT },
	'editor.message.imageTooLarge': IMAGE_MAX_SIZE_LABEL,
	'report.detailTooLong': { length: REPORT_DETAIL_MAX_LENGTH },
	'editor.message.imageResolution': UPLOAD_LIMIT_LABELS,
	'editor.message.uploadDailyLimit': UPLOAD_LIMIT_LABELS,
	'editor.message.unattachedLimit': UPLOAD_LIMIT_LABELS,
	'write.message.tooManyImages': { images: IMAGES_PER_DOCUMENT_MAX },
};

const fill = (key: string, text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(VALUES[key]?.[name] ?? `{{${name}}}`));

/**
 * Codes the islands and page scripts match only to decide what to do (the login alert, the ban
 * dialog, a reload, a not-found state, a reply re-sent to its thread when the reply it answered went), never
 * to show their message.
 */
const DECIDING_ONLY: readonly ResultCodeName[] = [
	'CommentNotFound',
	'Banned',
	'SessionExpired',
	'SessionRevoked',
	'SignupExpired',
	'DraftNotFound',
	'Forbidden',
	'InvalidParameter',
	'PayloadTooLarge',
];

function sources(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		return statSync(path).isDirectory() ? sources(path) : /\.(?:ts|tsx|astro)$/.test(name) ? [path] : [];
	});
}

describe('the texts of result codes', () => {
	it.each(Object.entries(RESULT_TEXT_KEYS))('%s: the English text is the API message', (code, key) => {
		const texts: Record<string, string> = en;
		expect(fill(key, texts[key] ?? '')).toBe(RESULT_MESSAGES[code as ResultCodeName]);
	});

	it.each([
		['ja', ja],
		['ko', ko],
		['zh', zh],
	] as const)('%s has a text of its own for every code', (_, texts: Record<string, string>) => {
		for (const key of Object.values(RESULT_TEXT_KEYS)) {
			expect(texts[key], key).toBeTruthy();
			if (key !== 'editor.message.imageTooLarge') expect(texts[key], key).not.toBe((en as Record<string, string>)[key]);
		}
	});

	it('covers every code the islands and page scripts match', () => {
		const matched = new Set<string>();
		for (const file of [...sources('src/islands'), ...sources('src/page-scripts')]) {
			for (const [, names] of readFileSync(file, 'utf8').matchAll(/import \{([^}]+)\} from '(?:@\/lib|\.)\/result-codes'/g)) {
				for (const name of names!.split(',')) matched.add(name.trim());
			}
		}
		const shown = new Set<string>(Object.keys(RESULT_TEXT_KEYS));
		expect([...matched].filter((name) => name && !shown.has(name) && !DECIDING_ONLY.includes(name as ResultCodeName)).sort()).toEqual([]);
	});
});
