import { describe, expect, it } from 'vitest';
import { dayOf, formatCount, formatFullDate, formatListDate } from '@/lib/format-date';

describe('dates (docs/reference/product-rules.md#limits)', () => {
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

describe('dates computed from a remembered zone offset', () => {
	/** The reference: ICU's own parts for every date, as the formatting did before the offsets were remembered. */
	const reference = (ms: number, timeZone: string) => {
		const format = new Intl.DateTimeFormat('en-CA', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		});
		const map: Record<string, string> = {};
		for (const part of format.formatToParts(new Date(ms))) map[part.type] = part.value;
		return `${map['year']}.${map['month']}.${map['day']} ${map['hour']}:${map['minute']}`;
	};
	const zones = { en: 'UTC', ko: 'Asia/Seoul', ja: 'Asia/Tokyo', zh: 'Asia/Taipei' } as const;

	it('agrees with ICU for 4,000 moments from 1970 to 2100 in every language, seconds and milliseconds included', () => {
		let seed = 12345;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		const differing: string[] = [];
		for (let i = 0; i < 1000; i += 1) {
			const ms = Math.floor(random() * 4_102_444_800_000);
			for (const [language, zone] of Object.entries(zones)) {
				const got = formatFullDate(ms, language as keyof typeof zones);
				if (got !== reference(ms, zone)) differing.push(`${ms} ${language}: ${got}`);
			}
		}
		expect(differing).toEqual([]);
	}, 120_000); // 32,000 ICU formats: CPU work, which a loaded machine (the suite beside it) slows several times over.

	it('agrees with ICU at the edges of a day and of a quarter hour', () => {
		const base = Date.UTC(2026, 10, 23, 14, 59, 59, 999);
		for (const ms of [base, base + 1, base - 14 * 60_000, Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), 0]) {
			for (const [language, zone] of Object.entries(zones))
				expect(formatFullDate(ms, language as keyof typeof zones), `${ms} ${language}`).toBe(reference(ms, zone));
		}
	});
});
