/**
 * A community's moderation settings (migrations/0014 and 0016), set by its administrators in the
 * admin area: the number of open reports at which a post or comment hides itself (null: never), and
 * how old a membership must be (in hours) when a report is made for that report to count toward
 * that number. No record of upheld reports shortens the wait (docs/reference/moderation.md).
 */
import { AppError } from '@/server/platform/errors';
import { read, run, type Read } from '@/server/platform/reads';
import { logStatement } from './log';
import { AUTO_HIDE_MAX, REPORT_MIN_AGE_MAX_HOURS, REPORT_MIN_AGE_RECOMMENDED_HOURS } from '@/schemas/moderation-limits';

export interface ModerationSettings {
	autoHideReports: number | null;
	reportMinAgeHours: number;
}

/** What a PUT names; a setting left out keeps its stored value. */
export interface SettingsChange {
	autoHideReports?: unknown;
	reportMinAgeHours?: unknown;
}

/** The channel's moderation settings. */
export function moderationSettingsRead(db: Db, channelId: number): Read<ModerationSettings> {
	return read(db.prepare('SELECT auto_hide_reports, report_min_age_hours FROM channels WHERE id = ?1').bind(channelId), (result) => {
		const row = result.results[0] as { auto_hide_reports: number | null; report_min_age_hours: number } | undefined;
		return { autoHideReports: row?.auto_hide_reports ?? null, reportMinAgeHours: row?.report_min_age_hours ?? REPORT_MIN_AGE_RECOMMENDED_HOURS };
	});
}

export async function moderationSettings(db: Db, channelId: number): Promise<ModerationSettings> {
	return run(db, moderationSettingsRead(db, channelId));
}

const isWhole = (value: unknown, min: number, max: number): value is number =>
	typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/**
 * The settings a change leads to, each checked. @throws AppError AutoHideThresholdInvalid (not a whole
 * number from 1 to AUTO_HIDE_MAX, nor null), ReportMinAgeInvalid (not a whole number of hours from
 * 0 to REPORT_MIN_AGE_MAX_HOURS)
 */
function checkedSettings(change: SettingsChange, stored: ModerationSettings): ModerationSettings {
	const { autoHideReports = stored.autoHideReports, reportMinAgeHours = stored.reportMinAgeHours } = change;
	if (autoHideReports !== null && !isWhole(autoHideReports, 1, AUTO_HIDE_MAX)) throw new AppError('AutoHideThresholdInvalid');
	if (!isWhole(reportMinAgeHours, 0, REPORT_MIN_AGE_MAX_HOURS)) throw new AppError('ReportMinAgeInvalid');
	return { autoHideReports, reportMinAgeHours };
}

/**
 * The settings a change leads to (checkedSettings), with a read of the stored ones only when the
 * change leaves one out (the admin area's form names both).
 */
export async function changedSettings(db: Db, channelId: number, change: SettingsChange): Promise<ModerationSettings> {
	if (change.autoHideReports !== undefined && change.reportMinAgeHours !== undefined)
		return checkedSettings(change, { autoHideReports: null, reportMinAgeHours: REPORT_MIN_AGE_RECOMMENDED_HOURS });
	return checkedSettings(change, await moderationSettings(db, channelId));
}

/** The audit log's words for the settings (its reason column), e.g. `autoHideReports=3 reportMinAgeHours=72`. */
function settingsNote(settings: ModerationSettings): string {
	return `autoHideReports=${settings.autoHideReports ?? 'off'} reportMinAgeHours=${settings.reportMinAgeHours}`;
}

/** Stores the settings; a change is logged (the new values as the entry's reason), the same ones are not. */
export async function setModerationSettings(
	db: Db,
	channelId: number,
	moderatorId: number | null,
	settings: ModerationSettings,
	now = Date.now(),
): Promise<void> {
	await db.batch([
		db
			.prepare(
				'UPDATE channels SET auto_hide_reports = ?2, report_min_age_hours = ?3 WHERE id = ?1 AND (auto_hide_reports IS NOT ?2 OR report_min_age_hours IS NOT ?3)',
			)
			.bind(channelId, settings.autoHideReports, settings.reportMinAgeHours),
		logStatement(db, channelId, moderatorId, 'SETTINGS', { type: 'CHANNEL', id: channelId }, settingsNote(settings), now, 'changes() > 0'),
	]);
}
