/**
 * Dates as SPEC §9 shows them: HH:mm for today, yyyy.MM.dd otherwise, yyyy.MM.dd HH:mm in full.
 * A channel's dates are shown in its language's home time zone (en: UTC), the same for every
 * reader, so that a cached page never disagrees with itself.
 */
import type { Language } from '@/schemas/channel';

const TIME_ZONES: Record<Language, string> = { en: 'UTC', ko: 'Asia/Seoul', ja: 'Asia/Tokyo', zh: 'Asia/Taipei' };

const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(ms: number, language: Language) {
	const timeZone = TIME_ZONES[language];
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-CA', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		});
		formatters.set(timeZone, formatter);
	}
	const map: Record<string, string> = {};
	for (const part of formatter.formatToParts(new Date(ms))) map[part.type] = part.value;
	return { date: `${map['year']}.${map['month']}.${map['day']}`, time: `${map['hour']}:${map['minute']}` };
}

/** yyyy.MM.dd HH:mm */
export function formatFullDate(ms: number, language: Language): string {
	const { date, time } = parts(ms, language);
	return `${date} ${time}`;
}

/** The yyyy.MM.dd of `ms` in the channel's time zone; lists compute today's once. */
export function dayOf(ms: number, language: Language): string {
	return parts(ms, language).date;
}

/** HH:mm when `ms` falls on `today` (a dayOf value, default: now), yyyy.MM.dd otherwise. */
export function formatListDate(ms: number, language: Language, today: string = dayOf(Date.now(), language)): string {
	const when = parts(ms, language);
	return when.date === today ? when.time : when.date;
}

/** 1234567 → 1,234,567, without a locale lookup per number. */
export function formatCount(value: number): string {
	return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The machine-readable form for a <time datetime>. */
export function isoDate(ms: number): string {
	return new Date(ms).toISOString();
}
