/** The ban dialog's days: the app's yyyy.MM.dd, ended as the day ends in the channel's time zone (docs/reference/moderation.md). */
import { describe, expect, it } from 'vitest';
import { addDays, banEndsAt, banLastDay, dayFromToday, parseDay } from '@/lib/ban-days';

describe('ban days', () => {
	it('reads a day as the app writes it, and the usual other ways, but only a real calendar day', () => {
		expect(parseDay('2026.12.05')).toBe('2026.12.05');
		expect(parseDay('2026-12-05')).toBe('2026.12.05');
		expect(parseDay(' 2026/12/5 ')).toBe('2026.12.05');
		expect(parseDay('2026. 12. 5.')).toBe('2026.12.05');
		expect(parseDay('2026.02.30')).toBeNull();
		expect(parseDay('2026.13.01')).toBeNull();
		expect(parseDay('12/05/2026')).toBeNull();
		expect(parseDay('')).toBeNull();
	});

	it('ends a ban as its last day ends in the channel’s time zone, whatever the browser’s', () => {
		expect(banEndsAt('2026.12.05', 'en')).toBe(Date.UTC(2026, 11, 6));
		// Seoul and Tokyo are UTC+9, Taipei UTC+8.
		expect(banEndsAt('2026.12.05', 'ko')).toBe(Date.UTC(2026, 11, 5, 15));
		expect(banEndsAt('2026.12.05', 'ja')).toBe(Date.UTC(2026, 11, 5, 15));
		expect(banEndsAt('2026.12.05', 'zh')).toBe(Date.UTC(2026, 11, 5, 16));
		// Across a month's and a year's end.
		expect(banEndsAt('2026.12.31', 'en')).toBe(Date.UTC(2027, 0, 1));
	});

	it('lists the day picked: the last day of a ban that ends as a day ends, none for another end', () => {
		for (const language of ['en', 'ko', 'ja', 'zh'] as const) {
			expect(banLastDay(banEndsAt('2026.12.05', language), language)).toBe('2026.12.05');
		}
		expect(banLastDay(Date.UTC(2026, 11, 6, 15), 'en')).toBeNull();
	});

	it('counts days from today in the channel’s time zone', () => {
		// 2026-12-05 20:00 UTC is already the 6th in Seoul.
		const now = Date.UTC(2026, 11, 5, 20);
		expect(dayFromToday(1, now, 'en')).toBe('2026.12.06');
		expect(dayFromToday(1, now, 'ko')).toBe('2026.12.07');
		expect(addDays('2028.02.28', 1)).toBe('2028.02.29');
	});
});
