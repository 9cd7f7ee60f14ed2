/**
 * The days of a temporary ban, as the app writes dates (yyyy.MM.dd) and in the channel's time zone
 * (src/lib/format-date.ts: en UTC, ko Seoul, ja Tokyo, zh Taipei), whatever the moderator's
 * browser is set to: the day picked in the ban dialog is the day every list shows, for the
 * moderators and the member alike (docs/reference/moderation.md, "A ban's last day").
 */
import type { Language } from '@/schemas/channel';
import { dayOf, dayStartOf } from '@/lib/format-date';

const pad = (value: number) => String(value).padStart(2, '0');

function split(day: string): [number, number, number] {
	const [year, month, date] = day.split('.').map(Number);
	return [year!, month!, date!];
}

/** A day as typed: 2026.12.05, and 2026-12-05, 2026/12/5 or 2026. 12. 5. too; null when it is no calendar day. */
export function parseDay(text: string): string | null {
	const match = /^\s*(\d{4})\s*[.\-/]\s*(\d{1,2})\s*[.\-/]\s*(\d{1,2})\s*\.?\s*$/.exec(text);
	if (!match) return null;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const check = new Date(Date.UTC(year, month - 1, day));
	if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
	return `${year}.${pad(month)}.${pad(day)}`;
}

/** The day `days` after `day` (both yyyy.MM.dd). */
export function addDays(day: string, days: number): string {
	const [year, month, date] = split(day);
	const next = new Date(Date.UTC(year, month - 1, date + days));
	return `${next.getUTCFullYear()}.${pad(next.getUTCMonth() + 1)}.${pad(next.getUTCDate())}`;
}

/** Today in the channel's time zone, plus `days`. */
export function dayFromToday(days: number, now: number, language: Language): string {
	return addDays(dayOf(now, language), days);
}

/** When a ban whose last day is `day` ends: as that day ends (the next one begins) in the channel's time zone. */
export function banEndsAt(day: string, language: Language): number {
	const [year, month, date] = split(day);
	return dayStartOf(year, month, date + 1, language);
}

/** The last day of a ban that ends as a day ends in the channel's time zone, or null for one that ends at another time (an operator's). */
export function banLastDay(endsAt: number, language: Language): string | null {
	const last = dayOf(endsAt - 1, language);
	return banEndsAt(last, language) === endsAt ? last : null;
}

/** The native date picker's value (yyyy-MM-dd) and back. */
export const pickerValue = (day: string) => day.replaceAll('.', '-');
