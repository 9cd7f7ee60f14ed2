import { describe, expect, it } from 'vitest';
import { dayOf, formatCount, formatFullDate, formatListDate } from '@/lib/format-date';

describe('dates (SPEC §9)', () => {
	const at = Date.UTC(2026, 10, 21, 9, 5);

	it('shows HH:mm for the same day and yyyy.MM.dd otherwise', () => {
		expect(formatListDate(at, 'en', dayOf(Date.UTC(2026, 10, 21, 23, 0), 'en'))).toBe('09:05');
		expect(formatListDate(at, 'en', dayOf(Date.UTC(2026, 10, 22, 0, 1), 'en'))).toBe('2026.11.21');
	});

	it('uses the channel language home time zone', () => {
		expect(formatFullDate(at, 'en')).toBe('2026.11.21 09:05');
		expect(formatFullDate(at, 'ko')).toBe('2026.11.21 18:05');
		expect(formatFullDate(Date.UTC(2026, 10, 21, 15, 30), 'ja')).toBe('2026.11.22 00:30');
		expect(formatFullDate(at, 'zh')).toBe('2026.11.21 17:05');
	});
});

describe('counts', () => {
	it('groups thousands with commas', () => {
		expect([0, 999, 1000, 4595, 1234567].map(formatCount)).toEqual(['0', '999', '1,000', '4,595', '1,234,567']);
	});
});
