import { describe, expect, it } from 'vitest';
import { formatFullDate, formatListDate } from '../../src/lib/format-date';

describe('dates (SPEC §9)', () => {
	const at = Date.UTC(2026, 10, 21, 9, 5);

	it('shows HH:mm for the same day and yyyy.MM.dd otherwise', () => {
		expect(formatListDate(at, 'en', Date.UTC(2026, 10, 21, 23, 0))).toBe('09:05');
		expect(formatListDate(at, 'en', Date.UTC(2026, 10, 22, 0, 1))).toBe('2026.11.21');
	});

	it('uses the channel language home time zone', () => {
		expect(formatFullDate(at, 'en')).toBe('2026.11.21 09:05');
		expect(formatFullDate(at, 'ko')).toBe('2026.11.21 18:05');
		expect(formatFullDate(Date.UTC(2026, 10, 21, 15, 30), 'ja')).toBe('2026.11.22 00:30');
		expect(formatFullDate(at, 'zh')).toBe('2026.11.21 17:05');
	});
});
