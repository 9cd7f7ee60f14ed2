/**
 * A community's moderation settings (migrations/0014), set by its administrators in the admin
 * area: the number of open reports at which a post or comment hides itself (null: never).
 */
import { logStatement } from './log';

/** The highest threshold an administrator may set. */
export const AUTO_HIDE_MAX = 1000;

export interface ModerationSettings {
	autoHideReports: number | null;
}

export async function moderationSettings(db: D1Database, channelId: number): Promise<ModerationSettings> {
	const row = await db.prepare('SELECT auto_hide_reports FROM channels WHERE id = ?1').bind(channelId).first<{ auto_hide_reports: number | null }>();
	return { autoHideReports: row?.auto_hide_reports ?? null };
}

/** Stores the settings; a change is logged (its new value as the entry's reason), the same ones are not. */
export async function setModerationSettings(db: D1Database, channelId: number, moderatorId: number | null, settings: ModerationSettings, now = Date.now()): Promise<void> {
	await db.batch([
		db.prepare('UPDATE channels SET auto_hide_reports = ?2 WHERE id = ?1 AND auto_hide_reports IS NOT ?2').bind(channelId, settings.autoHideReports),
		logStatement(db, channelId, moderatorId, 'SETTINGS', { type: 'CHANNEL', id: channelId }, `autoHideReports=${settings.autoHideReports ?? 'off'}`, now, 'changes() > 0'),
	]);
}
