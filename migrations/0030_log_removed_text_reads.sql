-- An administrator's read of a post's or comment's stored text (Show text in the admin area,
-- docs/reference/moderation.md) writes a row of the audit log: VIEW_POST_TEXT, VIEW_COMMENT_TEXT.
-- SQLite changes a CHECK only by building the table again (as migrations 0014 and 0016 did).
CREATE TABLE moderation_log_new (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	moderator_id INTEGER REFERENCES members (id),
	action TEXT NOT NULL CHECK (action IN ('HIDE_POST', 'UNHIDE_POST', 'HIDE_COMMENT', 'UNHIDE_COMMENT', 'BAN', 'UNBAN', 'DISMISS_REPORTS', 'GRANT_ADMIN', 'REVOKE_ADMIN', 'AUTO_HIDE_POST', 'AUTO_HIDE_COMMENT', 'SETTINGS', 'DELETE_POST', 'DELETE_COMMENT', 'VIEW_POST_TEXT', 'VIEW_COMMENT_TEXT')),
	target_type TEXT NOT NULL CHECK (target_type IN ('POST', 'COMMENT', 'MEMBER', 'CHANNEL')),
	target_id INTEGER NOT NULL,
	reason TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
INSERT INTO moderation_log_new SELECT id, channel_id, moderator_id, action, target_type, target_id, reason, created_at FROM moderation_log;
DROP TABLE moderation_log;
ALTER TABLE moderation_log_new RENAME TO moderation_log;
CREATE INDEX moderation_log_by_channel ON moderation_log (channel_id, id);
