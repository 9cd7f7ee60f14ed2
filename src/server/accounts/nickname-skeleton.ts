/**
 * The confusable skeleton of a nickname (Unicode UTS #39, section 4): two nicknames with the same
 * skeleton look alike, however different their code points (PixeIFarmTeam with a capital I and
 * PixelFarmTeam, Cyrillic а and Latin a, 0 and O, rn and m). The skeleton is NFD, then every
 * character through the prototype mapping of Unicode's confusables.txt, then NFD again; the data
 * is the mapping as the unhomoglyph package ships it (confusables.txt 13.0.0, all 6,300 entries).
 *
 * A nickname's skeleton is taken of its comparison form before case folding (nicknameKey without
 * the lower-casing: NFKC, invisible characters dropped), then lower-cased and mapped once more, so
 * that it compares case-insensitively as the key does: a capital I is an l before it could become
 * an i, and a lower-cased M still meets rn. The result is for comparison only, never shown.
 * Server and seed only: the table is about 100 KB and no island needs it.
 *
 * The bare skeleton is the skeleton without the accents of alphabets and without anything
 * invisible: two names that differ only by such marks (Pixèl and Pixel, Adḿin and Admin) have the
 * same one, and claims keep it under a UNIQUE index of its own (migration 0028).
 */
import confusables from 'unhomoglyph/data.json' with { type: 'json' };

const PROTOTYPES: Readonly<Record<string, string>> = confusables;

/** UTS #39 skeleton(X): NFD, each code point through its prototype, NFD again. */
export function skeleton(text: string): string {
	let mapped = '';
	for (const character of text.normalize('NFD')) mapped += PROTOTYPES[character] ?? character;
	return mapped.normalize('NFD');
}

/** The stored comparison skeleton of a nickname: two nicknames with the same one look alike. */
export function nicknameSkeleton(nickname: string): string {
	const shown = nickname.normalize('NFKC').replace(/[\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/gu, '');
	return skeleton(skeleton(shown).toLowerCase()).toLowerCase();
}

/**
 * Letters whose combining marks are accents on an alphabet (Latin, Greek, Cyrillic, Armenian,
 * Georgian, Hebrew and Arabic points), and characters of no script: a mark after one is left out of
 * the bare skeleton. The marks of syllabic scripts stay, as they make another syllable: the kana
 * voicing marks (か, が, ぱ are three names; the skeleton maps some kana to the ideographs they look
 * like, so a Han letter keeps its marks too), and the vowel signs of the Indic and Southeast Asian
 * scripts. Hangul needs none: its syllables decompose into jamo, which are letters.
 */
const ACCENTED = /[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}\p{sc=Armenian}\p{sc=Georgian}\p{sc=Hebrew}\p{sc=Arabic}\p{sc=Common}\p{sc=Inherited}]/u;
const MARK = /\p{M}/u;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

/** A skeleton without its accents (the marks after an ACCENTED letter) and its ignorable characters (Hangul fillers, joiners). */
export function bareSkeleton(text: string): string {
	let bare = '';
	let accents = true;
	for (const character of text.normalize('NFD')) {
		if (IGNORABLE.test(character)) continue;
		if (MARK.test(character)) {
			if (!accents) bare += character;
			continue;
		}
		accents = ACCENTED.test(character);
		bare += character;
	}
	return bare;
}

/** The stored bare skeleton of a nickname: two nicknames with the same one look alike but for accents or invisible characters. */
export function nicknameBareSkeleton(nickname: string): string {
	return bareSkeleton(nicknameSkeleton(nickname));
}
