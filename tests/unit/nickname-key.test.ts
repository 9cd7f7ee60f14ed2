import { describe, expect, it } from 'vitest';
import { nicknameKey } from '@/lib/nickname-key';

describe('nicknameKey', () => {
	it('treats case and full-width forms as the same nickname', () => {
		expect(nicknameKey('StarPilot')).toBe(nicknameKey('starpilot'));
		expect(nicknameKey('Ｓｔａｒ')).toBe(nicknameKey('star'));
		expect(nicknameKey('ｶﾅ')).toBe(nicknameKey('カナ'));
	});

	it('drops invisible characters that would make a look-alike', () => {
		expect(nicknameKey('star\u200Bpilot')).toBe('starpilot');
	});

	it('keeps different nicknames apart', () => {
		expect(nicknameKey('별빛')).not.toBe(nicknameKey('별빗'));
	});
});
