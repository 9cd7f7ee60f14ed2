/**
 * Dates as docs/reference/product-rules.md#limits shows them: HH:mm for today, yyyy.MM.dd otherwise, yyyy.MM.dd HH:mm in full.
 * A channel's dates are shown in its language's home time zone (en: UTC), the same for every
 * reader, so that a cached page never disagrees with itself.
 */
import type { Language } from '@/schemas/channel';

const TIME_ZONES: Record<Language, string> = { en: 'UTC', ko: 'Asia/Seoul', ja: 'Asia/Tokyo', zh: 'Asia/Taipei' };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
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
	return formatter;
}

/** Zone offsets change (daylight saving, law) only on a quarter hour: one ICU lookup per quarter hour and zone. */
const QUARTER_HOUR_MS = 900_000;
const OFFSET_MEMO_ENTRIES = 4096;
const offsets = new Map<string, number>();

/**
 * The zone's offset from UTC at `ms`, in ms. ICU's formatToParts is the one exact source, but it
 * costs more than the rest of a date's formatting: a page of 100 comments asked it 100 times.
 */
function offsetAt(ms: number, timeZone: string): number {
	const key = timeZone + Math.floor(ms / QUARTER_HOUR_MS);
	let offset = offsets.get(key);
	if (offset === undefined) {
		const wall = Object.fromEntries(
			formatterOf(timeZone)
				.formatToParts(ms)
				.map((part) => [part.type, Number(part.value)]),
		);
		// The wall clock read as UTC, less the moment without its seconds (which the parts leave out).
		offset = Date.UTC(wall['year']!, wall['month']! - 1, wall['day'], wall['hour'], wall['minute']) - ms + (((ms % 60_000) + 60_000) % 60_000);
		if (offsets.size >= OFFSET_MEMO_ENTRIES) offsets.clear();
		offsets.set(key, offset);
	}
	return offset;
}

function parts(ms: number, language: Language) {
	// yyyy-MM-ddTHH:mm… of the wall clock.
	const wall = new Date(ms + offsetAt(ms, TIME_ZONES[language])).toISOString();
	return { date: wall.slice(0, 10).replaceAll('-', '.'), time: wall.slice(11, 16) };
}

/** The name of the time zone a language's dates are shown in, for a date that must say it (a ban's end). */
export const TIME_ZONE_NAMES: Record<Language, string> = { en: 'UTC', ko: 'KST', ja: 'JST', zh: 'UTC+8' };

/** yyyy.MM.dd HH:mm */
export function formatFullDate(ms: number, language: Language): string {
	const { date, time } = parts(ms, language);
	return `${date} ${time}`;
}

/** The yyyy.MM.dd of `ms` in the channel's time zone; lists compute today's once. */
export function dayOf(ms: number, language: Language): string {
	return parts(ms, language).date;
}

/**
 * The moment the calendar day `year.month.day` begins in the channel's time zone (the zone its
 * dates are shown in). `day` may run past the month's end: day 32 of December is January 1st.
 */
export function dayStartOf(year: number, month: number, day: number, language: Language): number {
	const wall = Date.UTC(year, month - 1, day);
	const timeZone = TIME_ZONES[language];
	// The offset at the wall time read as UTC, then at the moment found: right across a change of offset too.
	const guess = wall - offsetAt(wall, timeZone);
	return wall - offsetAt(guess, timeZone);
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
