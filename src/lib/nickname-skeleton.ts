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
