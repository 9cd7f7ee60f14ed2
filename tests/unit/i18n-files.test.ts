import { describe, expect, it } from 'vitest';
import en from '@/i18n/en.json';
import ja from '@/i18n/ja.json';
import ko from '@/i18n/ko.json';
import zh from '@/i18n/zh.json';

const keysOf = (texts: Record<string, string>) => Object.keys(texts).sort();
const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();

describe('text files', () => {
	it.each([
		['ja', ja],
		['ko', ko],
		['zh', zh],
	] as const)('%s has every English key, each with the same placeholders', (_, texts: Record<string, string>) => {
		expect(keysOf(texts)).toEqual(keysOf(en));
		for (const [key, text] of Object.entries(en)) expect([key, placeholders(texts[key] ?? '')]).toEqual([key, placeholders(text)]);
	});

	it.each([
		['ja', ja],
		['ko', ko],
		['zh', zh],
	] as const)('%s keeps the literal brackets of the nickname rule', (_, texts: Record<string, string>) => {
		expect(texts['nickname.message.characters']).toContain('[,]');
		expect(texts['nickname.message.characters']).toContain('{,}');
	});
});
