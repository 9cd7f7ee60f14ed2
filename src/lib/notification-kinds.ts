/**
 * The kinds of notification (docs/reference/notifications.md) and the setting each belongs to. A member turns
 * a setting off in mypage/settings; `members.notifications_off` keeps one bit per setting that is
 * off, so a new setting is on for everyone until they turn it off.
 */

/** The kinds of notification (migration 0025's CHECK lists the same). */
export type NotificationKind = 'COMMENT' | 'REPLY' | 'MENTION' | 'LIKE' | 'WATCHED_POST' | 'WATCHED_BOARD' | 'HIDDEN' | 'SHOWN' | 'BAN' | 'BAN_END';

/** The settings a member turns on or off, in the order mypage/settings lists them. */
export const NOTIFICATION_SETTINGS = ['COMMENT', 'REPLY', 'MENTION', 'LIKE', 'WATCHED', 'MODERATION', 'BAN'] as const;
export type NotificationSetting = (typeof NOTIFICATION_SETTINGS)[number];

const SETTING_OF: Record<NotificationKind, NotificationSetting> = {
	COMMENT: 'COMMENT',
	REPLY: 'REPLY',
	MENTION: 'MENTION',
	LIKE: 'LIKE',
	WATCHED_POST: 'WATCHED',
	WATCHED_BOARD: 'WATCHED',
	HIDDEN: 'MODERATION',
	SHOWN: 'MODERATION',
	BAN: 'BAN',
	BAN_END: 'BAN',
};

/** The bit of `members.notifications_off` that turns a setting off. */
export function settingBit(setting: NotificationSetting): number {
	return 1 << NOTIFICATION_SETTINGS.indexOf(setting);
}

/** The bit that turns a kind off. */
export function kindBit(kind: NotificationKind): number {
	return settingBit(SETTING_OF[kind]);
}

/** The settings as on/off, from the stored bits. */
export function settingsOf(off: number): Record<NotificationSetting, boolean> {
	return Object.fromEntries(NOTIFICATION_SETTINGS.map((setting) => [setting, (off & settingBit(setting)) === 0])) as Record<
		NotificationSetting,
		boolean
	>;
}

/** The stored bits of a set of settings (a setting left out keeps `previous`'s bit). */
export function offBits(settings: Partial<Record<NotificationSetting, boolean | undefined>>, previous = 0): number {
	let bits = previous;
	for (const setting of NOTIFICATION_SETTINGS) {
		const on = settings[setting];
		if (on === true) bits &= ~settingBit(setting);
		if (on === false) bits |= settingBit(setting);
	}
	return bits;
}

/** How many notifications a member keeps; the cron removes older ones. */
export const NOTIFICATIONS_KEPT = 500;
/** How many members one mention can reach from one post or comment (the rest still render as links). */
export const MENTIONS_NOTIFIED = 10;
/** How many watchers one queue message writes to; more go on in a message of their own. */
export const WATCHERS_PER_MESSAGE = 100;
/** How many posts and boards one member may watch or unwatch by a row (WatchLimit past it). */
export const WATCHES_KEPT = 500;

// The bounds of what one member can make the site send another (docs/reference/notifications.md#bounds).
// The per-board author rate and the email budget are also written into migration 0027's indexes.

const HOUR_MS = 60 * 60 * 1000;
/** How long the per-sender, per-board and email counts look back (and a like's quiet interval): an hour. */
export const NOTIFICATION_WINDOW_MS = HOUR_MS;
/** MENTION and REPLY notifications one sender can give one recipient in an hour; past it, none. */
export const SENDER_NOTIFICATIONS_PER_HOUR = 5;
/** Reply and mention emails one member gets in an hour; the rest go in one digest after the hour. */
export const EMAILS_PER_HOUR = 10;
/** At most one Web Push per member in this time; the notifications between are on the bell only. */
export const PUSH_INTERVAL_MS = 60 * 1000;
/** A like's notification of a post is raised again (unread, pushed) at most once in this time. */
export const LIKE_RAISE_INTERVAL_MS = HOUR_MS;
/** An author's posts in one board that tell its watchers in an hour; later ones tell them nothing. */
export const BOARD_POSTS_NOTIFIED_PER_HOUR = 3;
