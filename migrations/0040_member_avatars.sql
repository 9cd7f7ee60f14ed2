-- Avatars (docs/reference/avatars.md): a member's picture, in R2 under a key made of the community and
-- the member (one object per size, overwritten by a change, never accumulated), served from the
-- stable URL /{domain}/{slug}/avatars/{memberId}?s=96|256 without reading D1. This row says which
-- sizes are set (bit 1: 96 px, bit 2: 256 px; 0 once removed), when, and counts the day's changes
-- (at most AVATAR_CHANGES_PER_DAY in the 24 hours from day_started_at), for the export, the
-- administrators' removal and the daily limit. A removal keeps the row (sizes = 0) so that removing
-- and setting again does not start a new day; withdrawal deletes it. One row per member.
CREATE TABLE member_avatars (
	member_id INTEGER PRIMARY KEY REFERENCES members (id),
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	sizes INTEGER NOT NULL DEFAULT 0,
	updated_at INTEGER NOT NULL,
	day_started_at INTEGER NOT NULL,
	day_changes INTEGER NOT NULL DEFAULT 0
);

-- An administrator's removal of a member's avatar is audited: REMOVE_AVATAR. SQLite changes a CHECK
-- only by building the table again (as migrations 0014, 0016 and 0030 did).
CREATE TABLE moderation_log_new (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	moderator_id INTEGER REFERENCES members (id),
	action TEXT NOT NULL CHECK (action IN ('HIDE_POST', 'UNHIDE_POST', 'HIDE_COMMENT', 'UNHIDE_COMMENT', 'BAN', 'UNBAN', 'DISMISS_REPORTS', 'GRANT_ADMIN', 'REVOKE_ADMIN', 'AUTO_HIDE_POST', 'AUTO_HIDE_COMMENT', 'SETTINGS', 'DELETE_POST', 'DELETE_COMMENT', 'VIEW_POST_TEXT', 'VIEW_COMMENT_TEXT', 'REMOVE_AVATAR')),
	target_type TEXT NOT NULL CHECK (target_type IN ('POST', 'COMMENT', 'MEMBER', 'CHANNEL')),
	target_id INTEGER NOT NULL,
	reason TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
INSERT INTO moderation_log_new SELECT id, channel_id, moderator_id, action, target_type, target_id, reason, created_at FROM moderation_log;
DROP TABLE moderation_log;
ALTER TABLE moderation_log_new RENAME TO moderation_log;
CREATE INDEX moderation_log_by_channel ON moderation_log (channel_id, id);
