/** A language's texts as the product has them (src/i18n/*.json), for the browser tests' expectations. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The texts of `language`; a key it lacks is an error, not an empty expectation. */
export function texts(language: string): (key: string) => string {
	const messages = JSON.parse(readFileSync(path.join('src', 'i18n', `${language}.json`), 'utf8')) as Record<string, string>;
	return (key) => {
		const text = messages[key];
		if (text === undefined) throw new Error(`No text ${key}`);
		return text;
	};
}
