import { describe, expect, it } from 'vitest';
import { nicknameBareSkeleton, nicknameSkeleton, skeleton } from '@/server/accounts/nickname-skeleton';
import { nicknameKey } from '@/lib/nickname-key';

describe('skeleton (UTS #39)', () => {
	it('maps characters to their confusables.txt prototypes', () => {
		expect(skeleton('I')).toBe(skeleton('l'));
		expect(skeleton('1')).toBe(skeleton('l'));
		expect(skeleton('0')).toBe(skeleton('O'));
		expect(skeleton('m')).toBe('rn');
		expect(skeleton('\u0430')).toBe('a'); // Cyrillic а
		expect(skeleton('\u03BF')).toBe('o'); // Greek omicron
	});
});

describe('nicknameSkeleton', () => {
	it('makes PixeIFarmTeam (capital I) the same name as PixelFarmTeam', () => {
		expect(nicknameKey('PixeIFarmTeam')).not.toBe(nicknameKey('PixelFarmTeam'));
		expect(nicknameSkeleton('PixeIFarmTeam')).toBe(nicknameSkeleton('PixelFarmTeam'));
	});

	it('folds I/l/1, 0/O and rn/m', () => {
		expect(nicknameSkeleton('Pixe1FarmTeam')).toBe(nicknameSkeleton('PixelFarmTeam'));
		expect(nicknameSkeleton('G00D')).toBe(nicknameSkeleton('GOOD'));
		expect(nicknameSkeleton('PixelFarrnTeam')).toBe(nicknameSkeleton('PixelFarmTeam'));
	});

	it('folds Cyrillic and Greek look-alikes and full-width forms', () => {
		expect(nicknameSkeleton('\u0430dmin')).toBe(nicknameSkeleton('admin')); // Cyrillic а
		expect(nicknameSkeleton('\u0420\u0430\u0441\u0435')).toBe(nicknameSkeleton('Pace')); // all Cyrillic Расе
		expect(nicknameSkeleton('\u0391\u0392\u0395\u039D')).toBe(nicknameSkeleton('ABEN')); // all Greek ΑΒΕΝ
		expect(nicknameSkeleton('\u039Aappa')).toBe(nicknameSkeleton('Kappa')); // Greek Kappa
		expect(nicknameSkeleton('Ｐｉｘｅｌ')).toBe(nicknameSkeleton('Pixel'));
	});

	it('compares case-insensitively as the nickname key does', () => {
		expect(nicknameSkeleton('PIXELFARMTEAM')).toBe(nicknameSkeleton('pixelfarmteam'.toUpperCase()));
		expect(nicknameSkeleton('pixelfarmteam')).toBe(nicknameSkeleton('PixelFarmTeam'));
		expect(nicknameSkeleton('MAX')).toBe(nicknameSkeleton('rnax'));
	});

	it('drops invisible characters as the key does', () => {
		expect(nicknameSkeleton('Pixel\u200BFarmTeam')).toBe(nicknameSkeleton('PixelFarmTeam'));
	});

	it('keeps ordinary distinct names apart', () => {
		expect(nicknameSkeleton('PixelFarmTeam')).not.toBe(nicknameSkeleton('PixelFarmTeam2'));
		expect(nicknameSkeleton('TurnipQueen')).not.toBe(nicknameSkeleton('TurnipKing'));
		expect(nicknameSkeleton('MossyBoots')).not.toBe(nicknameSkeleton('MossyBoats'));
	});

	it('leaves Korean, Japanese and Chinese names distinct', () => {
		const names = [
			'별빛',
			'별빗',
			'운영자_오리온',
			'운영자_오리',
			'스타폴운영',
			'スターフォール運営',
			'スターフォール',
			'星見の艦長',
			'星墜營運團隊',
			'星墜营运团队',
			'版主_小雨',
			'版主_小雪',
		];
		const skeletons = names.map(nicknameSkeleton);
		expect(new Set(skeletons).size).toBe(names.length);
		// Each stays the same name as itself written with full-width or half-width forms.
		expect(nicknameSkeleton('ｽﾀｰﾌｫｰﾙ')).toBe(nicknameSkeleton('スターフォール'));
	});

	it('is stable: a skeleton is its own skeleton', () => {
		for (const name of ['PixeIFarmTeam', 'G00D', '스타폴운영', 'スターフォール運営', '\u0430dmin']) {
			expect(nicknameSkeleton(nicknameSkeleton(name))).toBe(nicknameSkeleton(name));
		}
	});
});

describe('nicknameBareSkeleton', () => {
	it('is the skeleton without the accents of alphabets: names that differ only by them are one', () => {
		expect(nicknameSkeleton('PixèlFarmTeam')).not.toBe(nicknameSkeleton('PixelFarmTeam'));
		expect(nicknameBareSkeleton('PixèlFarmTeam')).toBe(nicknameBareSkeleton('PixelFarmTeam'));
		expect(nicknameBareSkeleton('Adḿin')).toBe(nicknameBareSkeleton('admin'));
		expect(nicknameBareSkeleton('Pixe\u0323lFarmTeam')).toBe(nicknameBareSkeleton('PixelFarmTeam'));
		expect(nicknameBareSkeleton('Zoë')).toBe(nicknameBareSkeleton('Zoe'));
		expect(nicknameBareSkeleton('Ёлка')).toBe(nicknameBareSkeleton('Елка'));
	});

	it('drops every invisible character: joiners, Hangul fillers, Mongolian selectors', () => {
		expect(nicknameBareSkeleton('PixelFarm\u034FTeam')).toBe(nicknameBareSkeleton('PixelFarmTeam'));
		expect(nicknameBareSkeleton('Ad\u180Bmin')).toBe(nicknameBareSkeleton('Admin'));
		for (const filler of ['\u115F', '\u1160', '\u3164', '\uFFA0'])
			expect(nicknameBareSkeleton(`운영${filler}자`)).toBe(nicknameBareSkeleton('운영자'));
	});

	it('keeps the marks of syllabic scripts: kana voicing marks and Indic vowel signs make other names', () => {
		const names = ['はなな', 'ばなな', 'ぱなな', 'カメラ', 'ガメラ', 'राम', 'रम', 'रीम', 'สมชาย', 'สมชาย่', '별빛', '벌빛'];
		expect(new Set(names.map(nicknameBareSkeleton)).size).toBe(names.length);
	});

	it('equals the skeleton for a name without marks or invisible characters', () => {
		for (const name of ['PixelFarmTeam', '스타폴운영', 'スターフォール運営', '星墜營運團隊'])
			expect(nicknameBareSkeleton(name)).toBe(nicknameSkeleton(name));
	});
});
