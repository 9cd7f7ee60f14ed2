/**
 * The comparison key of a nickname: two nicknames with the same key are the same nickname.
 * NFKC folds full-width and compatibility forms (Ｓｔａｒ = Star, ｶﾅ = カナ), lower-casing folds case,
 * and invisible format characters (zero-width space, joiners, variation selectors) are dropped so
 * that they cannot make a look-alike of a taken name. This module has no imports so that the seed
 * script can load it too.
 */
export function nicknameKey(nickname: string): string {
	return nickname
		.normalize('NFKC')
		.replace(/[\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/gu, '')
		.toLowerCase();
}
