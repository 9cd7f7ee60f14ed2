/**
 * The plural form of a count in a language (Intl.PluralRules), as the texts have it: a key with
 * `.one` for a count English says in the singular, `.other` for every other count. Japanese,
 * Korean and Chinese have one form, so their `.one` and `.other` texts are the same sentence.
 */
import type { Language } from '@/schemas/channel';

export function pluralForm(language: Language, count: number): 'one' | 'other' {
	return new Intl.PluralRules(language === 'zh' ? 'zh-TW' : language).select(count) === 'one' ? 'one' : 'other';
}
