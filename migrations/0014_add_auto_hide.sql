-- Moderation settings and reads of the admin area.
-- A community may hide a post or comment by itself when it reaches this many open reports (NULL:
-- never). The reports stay open, so the target stays in the queue until a moderator keeps it hidden
-- (resolving them) or shows it again.
ALTER TABLE channels ADD COLUMN auto_hide_reports INTEGER CHECK (auto_hide_reports IS NULL OR auto_hide_reports BETWEEN 1 AND 1000);
-- The admin area's list of bans in force: a channel's bans not lifted, newest first.
CREATE INDEX bans_open ON bans (channel_id, created_at) WHERE lifted_at IS NULL;
-- The audit log's actions gain the automatic hide (no moderator) and a change of the moderation
-- settings (target CHANNEL): SQLite changes a CHECK only by building the table again.
CREATE TABLE moderation_log_new (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	moderator_id INTEGER REFERENCES members (id),
	action TEXT NOT NULL CHECK (action IN ('HIDE_POST', 'UNHIDE_POST', 'HIDE_COMMENT', 'UNHIDE_COMMENT', 'BAN', 'UNBAN', 'DISMISS_REPORTS', 'GRANT_ADMIN', 'REVOKE_ADMIN', 'AUTO_HIDE_POST', 'AUTO_HIDE_COMMENT', 'SETTINGS')),
	target_type TEXT NOT NULL CHECK (target_type IN ('POST', 'COMMENT', 'MEMBER', 'CHANNEL')),
	target_id INTEGER NOT NULL,
	reason TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
INSERT INTO moderation_log_new SELECT id, channel_id, moderator_id, action, target_type, target_id, reason, created_at FROM moderation_log;
DROP TABLE moderation_log;
ALTER TABLE moderation_log_new RENAME TO moderation_log;
CREATE INDEX moderation_log_by_channel ON moderation_log (channel_id, id);
