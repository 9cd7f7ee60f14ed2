/**
 * Korean particles follow the final sound of the word before them: the
 * translator picks 이 or 가, 을 or 를, (으)로 from the filled-in value, instead of writing "이(가)".
 */
import { describe, expect, it } from 'vitest';
import { finalSound, withParticles } from '@/i18n/particles';
import { translator } from '@/i18n';
import ko from '@/i18n/ko.json';

describe('the final sound of a word', () => {
	it.each([
		['던전', 'consonant'],
		['스타폴', 'rieul'],
		['베가', 'vowel'],
		['ㅋㅋ', 'consonant'],
		['ㄹ', 'rieul'],
		['1', 'rieul'],
		['2', 'vowel'],
		['3', 'consonant'],
		['10', 'consonant'],
		['1,000', 'consonant'],
		['7', 'rieul'],
		['PvP', 'vowel'],
		['HTML', 'rieul'],
		['GM', 'consonant'],
		['game', 'consonant'],
		['Ash_of_Vega', 'vowel'],
		['level', 'rieul'],
		['player', 'vowel'],
		['chat', 'consonant'],
		['pick', 'consonant'],
		['test', 'vowel'],
		['ring', 'consonant'],
		['book', null],
		['さくら', 'vowel'],
		['ラーメン', 'consonant'],
		['星', null],
		['🎮', null],
		['', null],
	] as const)('%s → %s', (word, sound) => {
		expect(finalSound(word)).toBe(sound);
	});

	it('looks through closing quotes and brackets', () => {
		expect(finalSound('‘던전’')).toBe('consonant');
		expect(finalSound('「베가」')).toBe('vowel');
		expect(finalSound('(스타폴)')).toBe('rieul');
	});
});

describe('particle pairs', () => {
	it('take the form of the word before them', () => {
		expect(withParticles('던전{이/가} 열렸습니다')).toBe('던전이 열렸습니다');
		expect(withParticles('베가{이/가} 왔습니다')).toBe('베가가 왔습니다');
		expect(withParticles('닉네임{을/를} 바꿨습니다')).toBe('닉네임을 바꿨습니다');
		expect(withParticles('베가{을/를} 신고')).toBe('베가를 신고');
		expect(withParticles('베가{은/는}')).toBe('베가는');
		expect(withParticles('던전{과/와} 베가')).toBe('던전과 베가');
		expect(withParticles('베가{과/와} 던전')).toBe('베가와 던전');
	});

	it('give (으)로 its ㄹ exception: 스타폴로, 던전으로, 베가로', () => {
		expect(withParticles('스타폴{으로/로}')).toBe('스타폴로');
		expect(withParticles('던전{으로/로}')).toBe('던전으로');
		expect(withParticles('베가{으로/로}')).toBe('베가로');
		expect(withParticles('Ash_of_Vega{으로/로}')).toBe('Ash_of_Vega로');
		expect(withParticles('level{으로/로}')).toBe('level로');
		expect(withParticles('game{으로/로}')).toBe('game으로');
	});

	it('write both forms only when the sound cannot be decided', () => {
		expect(withParticles('‘星’{이/가} 포함된')).toBe('‘星’이(가) 포함된');
		expect(withParticles('🎮{으로/로}')).toBe('🎮(으)로');
		expect(withParticles('book{을/를}')).toBe('book을(를)');
	});

	it('wait for a value that is not filled in yet, and leave other braces alone', () => {
		expect(withParticles('{{nickname}}{으로/로} 변경')).toBe('{{nickname}}{으로/로} 변경');
		expect(withParticles('중괄호({,})')).toBe('중괄호({,})');
		expect(withParticles('a/b {x/y}')).toBe('a/b {x/y}');
	});

	it('are applied by the translator to the Korean texts', () => {
		const t = translator('ko');
		expect(t('search.results.empty', { query: '던전' })).toBe('‘던전’이 포함된 게시글이 없습니다.');
		expect(t('search.results.empty', { query: '베가' })).toBe('‘베가’가 포함된 게시글이 없습니다.');
		expect(t('search.results.count', { query: 'PvP', count: 3 })).toBe('‘PvP’가 포함된 게시글 3건');
	});

	it('never rewrite a value: a search for a pair is shown as typed', () => {
		const t = translator('ko');
		expect(t('search.results.empty', { query: '던전{을/를}' })).toBe('‘던전{을/를}’이(가) 포함된 게시글이 없습니다.');
		expect(translator('en')('search.results.empty', { query: '{이/가}' })).toBe('No posts contain “{이/가}”.');
	});

	it('leave no combined form like 이(가) in the Korean file', () => {
		for (const [key, text] of Object.entries(ko)) expect([key, /[이을은과와](?:\((?:가|를|는|와|과)\))|\(으\)로/.test(text)]).toEqual([key, false]);
		// Every pair in the file is one the formatter knows.
		for (const pair of JSON.stringify(ko).match(/\{[^{}/]+\/[^{}]+\}/g) ?? [])
			expect(['{이/가}', '{을/를}', '{은/는}', '{과/와}', '{으로/로}', '{이에요/예요}']).toContain(pair);
	});
});
