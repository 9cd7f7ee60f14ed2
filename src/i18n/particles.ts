/**
 * Korean particles that follow the word before them (docs/reference/messages.md). A Korean text writes the
 * two forms of a particle in braces, the form after a final consonant first: `{이/가}`, `{을/를}`,
 * `{은/는}`, `{과/와}`, `{으로/로}`, `{이에요/예요}`. Once the text's values are filled in, each pair
 * becomes the form the preceding word takes: 닉네임이 Ash{으로/로} → Ash로, ‘던전’{이/가} → ‘던전’이.
 * Closing quotes and brackets between the word and the particle are looked through. The sound is read
 * from a Hangul syllable's final consonant, from digits as Korean reads them (1 일, 3 삼, 10 십),
 * from Latin letters as Korean writes the word (acronyms by their letter names: PvP → 피, HTML → 엘)
 * and from kana (ん → ㄴ); where that cannot be decided (a Chinese character, an emoji, a word like
 * "boat" or "book"), both forms are written, as Korean does without this: 이(가), (으)로.
 *
 * No dependencies: the server's translator (src/i18n/index.ts) applies it to every text, and an
 * island that fills in a value itself applies it after.
 */

/** The final sound of a word: a final consonant, a final ㄹ (which takes 로, not 으로), none, or unknown. */
export type FinalSound = 'consonant' | 'rieul' | 'vowel' | null;

const PAIR = /\{([\uAC00-\uD7A3]+)\/([\uAC00-\uD7A3]+)\}/g;
/** Closing punctuation a particle may follow: quotes and brackets of the three scripts. */
const CLOSING = /[’”'"»)\]」』》〉）】]+$/;
/** Digits as Korean reads them: 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구 (10 십, 100 백, 1000 천: all a consonant). */
const DIGITS: FinalSound[] = ['consonant', 'rieul', 'vowel', 'consonant', 'vowel', 'vowel', 'consonant', 'rieul', 'rieul', 'vowel'];

/** The final sound of the end of `text`, looking through closing quotes and brackets. */
export function finalSound(text: string): FinalSound {
	const word = text.replace(CLOSING, '');
	const last = word.at(-1);
	if (last === undefined) return null;
	const code = last.charCodeAt(0);
	if (code >= 0xac00 && code <= 0xd7a3) {
		const final = (code - 0xac00) % 28;
		return final === 0 ? 'vowel' : final === 8 ? 'rieul' : 'consonant';
	}
	// A lone consonant is read by its name (기역, 리을, 이응): all end in a consonant; a lone vowel in itself.
	if (code >= 0x3131 && code <= 0x314e) return code === 0x3139 ? 'rieul' : 'consonant';
	if (code >= 0x314f && code <= 0x3163) return 'vowel';
	if (last >= '0' && last <= '9') return DIGITS[code - 48] ?? null;
	if (/[\u3041-\u30ff]/.test(last)) return last === 'ん' || last === 'ン' ? 'consonant' : 'vowel';
	const latin = /[A-Za-z]+$/.exec(word)?.[0];
	return latin ? latinSound(latin) : null;
}

/** A Latin word's final sound as Korean writes it (game 게임, level 레벨, player 플레이어, chat 챗, test 테스트). */
function latinSound(word: string): FinalSound {
	// An acronym (or one capital) is read letter by letter: 엘, 알 end in ㄹ; 엠, 엔 in a consonant; the others in a vowel.
	if (/^[A-Z]+$/.test(word) || /[a-z][A-Z]$/.test(word)) {
		const letter = word.at(-1);
		return letter === 'L' || letter === 'R' ? 'rieul' : letter === 'M' || letter === 'N' ? 'consonant' : 'vowel';
	}
	const lower = word.toLowerCase();
	if (/(?:m|n|ng|[^aeiou][aeiou](?:me|ne))$/.test(lower)) return 'consonant';
	if (/l$/.test(lower)) return 'rieul';
	// A short vowel before p, t, k or b closes the syllable: top 톱, chat 챗, pick 픽, web 웹.
	if (/(?:^|[^aeiou])[aeiou]c?[ptkb]$/.test(lower)) return 'consonant';
	// Two vowel letters before them read either way: boat 보트 but book 북.
	if (/[aeiou]{2}[ptkb]$/.test(lower)) return null;
	return 'vowel';
}

/** The form of a particle pair after `before`; both forms when the sound is unknown. */
function particle(before: string, afterConsonant: string, afterVowel: string): string {
	// A value not filled in yet ({{nickname}}): the island fills it in and applies this again.
	if (before.endsWith('}}')) return `{${afterConsonant}/${afterVowel}}`;
	const sound = finalSound(before);
	const eu = afterConsonant === `으${afterVowel}`;
	if (sound === 'vowel' || (sound === 'rieul' && eu)) return afterVowel;
	if (sound) return afterConsonant;
	return eu ? `(으)${afterVowel}` : `${afterConsonant}(${afterVowel})`;
}

/** `text` with each particle pair ({이/가}) in the form its preceding word takes. */
export function withParticles(text: string): string {
	if (!text.includes('/')) return text;
	let done = '';
	let from = 0;
	for (const match of text.matchAll(PAIR)) {
		done += text.slice(from, match.index);
		done += particle(done, match[1] ?? '', match[2] ?? '');
		from = match.index + match[0].length;
	}
	return done + text.slice(from);
}
