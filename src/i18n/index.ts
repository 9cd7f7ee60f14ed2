/**
 * Texts: i18next with the bundled en, ja, ko and zh (Traditional) files; the channel's language
 * picks the locale and en fills any gap. Keys are flat and dotted, as docs/reference/product-rules.md#errors-and-texts names them.
 * Islands get resolved strings as props (see `pick`), so i18next never ships to the browser.
 * Korean particle pairs ({이/가}) take the form of the word before them once the values are in
 * (src/i18n/particles.ts).
 */
import i18next, { type TFunction } from 'i18next';
import en from './en.json';
import ja from './ja.json';
import ko from './ko.json';
import zh from './zh.json';
import type { Language } from '@/schemas/channel';
import { withParticles } from './particles';

export type MessageKey = keyof typeof en;

const i18n = i18next.createInstance();
void i18n.init({
	resources: { en: { translation: en }, ja: { translation: ja }, ko: { translation: ko }, zh: { translation: zh } },
	lng: 'en',
	fallbackLng: 'en',
	keySeparator: false,
	nsSeparator: false,
	interpolation: { escapeValue: false },
	initAsync: false,
});

export type Translate = (key: MessageKey, options?: Record<string, unknown>) => string;

const plainTexts = new Map<Language, Map<MessageKey, string>>();

/** The texts made with values, per language, remembered up to this many (the oldest go first). */
const VALUED_TEXTS = 1024;
/** A value longer than this (a search, a post's title) is not remembered with its text. */
const VALUE_MEMO_LENGTH = 100;
const valuedTexts = new Map<Language, Map<string, string>>();

/**
 * The memo key of a text with `options` when every value is a short string, a number or a boolean
 * (a nickname, a count: the same few again and again, like a post's author on each member's page);
 * null for any other, which i18next makes each time.
 */
function valuedKey(key: MessageKey, options: Record<string, unknown>): string | null {
	let memoKey: string = key;
	for (const name in options) {
		const value = options[name];
		if (typeof value === 'string' ? value.length > VALUE_MEMO_LENGTH : typeof value !== 'number' && typeof value !== 'boolean') return null;
		memoKey += `\u0000${name}\u0000${typeof value}:${String(value)}`;
	}
	return memoKey;
}

/** Stands for `{` in the values while particles are resolved: a value (a search, a title) is shown as written, never read as a particle pair. */
const GUARD = '\uE000';

function guarded(options: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(options).map(([name, value]) => [name, typeof value === 'string' ? value.replaceAll('{', GUARD) : value]));
}

/** A language's own map in `maps`, made on first use. */
function languageMap<K, V>(maps: Map<Language, Map<K, V>>, language: Language): Map<K, V> {
	let map = maps.get(language);
	if (!map) {
		map = new Map();
		maps.set(language, map);
	}
	return map;
}

/**
 * The texts of a language. A text without options is looked up in i18next once per isolate and
 * then read from a map: every page asks for dozens of them, and i18next's lookup is not cheap. A
 * text with short values is remembered with them too (valuedKey), a bounded number per language.
 */
export function translator(language: Language): Translate {
	const t: TFunction = i18n.getFixedT(language);
	const known = languageMap(plainTexts, language);
	const knownValued = languageMap(valuedTexts, language);
	const plainText = (key: MessageKey) => {
		let text = known.get(key);
		if (text === undefined) {
			text = withParticles(t(key, {}));
			known.set(key, text);
		}
		return text;
	};
	return (key, options) => {
		if (!options) return plainText(key);
		// Values for a text that has no place for them (pick hands one set to every text of an
		// island) change nothing: the remembered text, without i18next's lookup.
		const text = plainText(key);
		if (!text.includes('{{') && !Object.keys(options).some((name) => I18NEXT_OPTIONS.has(name))) return text;
		const memoKey = valuedKey(key, options);
		const remembered = memoKey === null ? undefined : knownValued.get(memoKey);
		if (remembered !== undefined) return remembered;
		const made = withParticles(t(key, guarded(options))).replaceAll(GUARD, '{');
		if (memoKey !== null) {
			if (knownValued.size >= VALUED_TEXTS) knownValued.delete(knownValued.keys().next().value as string);
			knownValued.set(memoKey, made);
		}
		return made;
	};
}

/** Options that i18next reads itself (plurals, context, another language…), which a text may answer differently with. */
const I18NEXT_OPTIONS = new Set([
	'count',
	'context',
	'ordinal',
	'defaultValue',
	'lng',
	'lngs',
	'fallbackLng',
	'ns',
	'keyPrefix',
	'returnObjects',
	'returnDetails',
	'joinArrays',
	'postProcess',
	'interpolation',
	'replace',
	'skipInterpolation',
]);

/** The strings an island needs, resolved on the server (with `values` filled in, when given). */
export function pick<K extends MessageKey>(t: Translate, keys: readonly K[], values?: Record<string, unknown>): Record<K, string> {
	return Object.fromEntries(keys.map((key) => [key, t(key, values)])) as Record<K, string>;
}

/** The value of the `lang` attribute for a channel language. */
export function htmlLang(language: Language): string {
	return language === 'zh' ? 'zh-Hant' : language;
}
