-- Moderation that cannot be abused.
--
-- Reports count toward a community's automatic hide only from members whose membership is at least
-- this many hours old, or who had a report upheld before (a report of theirs RESOLVED by a
-- moderator's hide). 72 hours by default: two accounts made minutes earlier no longer hide anything.
-- 0 counts every member's report; at most a year.
ALTER TABLE channels ADD COLUMN report_min_age_hours INTEGER NOT NULL DEFAULT 72 CHECK (report_min_age_hours BETWEEN 0 AND 8760);
-- Whether a hidden post or comment was hidden by the automatic hide (1) rather than by a moderator
-- (0): readers are told "hidden after reports from members", not "by the administrator". A
-- moderator's hide (or Keep hidden) and showing it again set it back to 0.
ALTER TABLE posts ADD COLUMN auto_hidden INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comments ADD COLUMN auto_hidden INTEGER NOT NULL DEFAULT 0;
-- Whether a reporter had a report upheld: one index seek per report at the threshold.
CREATE INDEX reports_upheld ON reports (reporter_id) WHERE status = 'RESOLVED';
-- The audit log's actions gain an administrator's deletion of someone else's post or comment.
-- SQLite changes a CHECK only by building the table again (as migration 0014 did).
CREATE TABLE moderation_log_new (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	moderator_id INTEGER REFERENCES members (id),
	action TEXT NOT NULL CHECK (action IN ('HIDE_POST', 'UNHIDE_POST', 'HIDE_COMMENT', 'UNHIDE_COMMENT', 'BAN', 'UNBAN', 'DISMISS_REPORTS', 'GRANT_ADMIN', 'REVOKE_ADMIN', 'AUTO_HIDE_POST', 'AUTO_HIDE_COMMENT', 'SETTINGS', 'DELETE_POST', 'DELETE_COMMENT')),
	target_type TEXT NOT NULL CHECK (target_type IN ('POST', 'COMMENT', 'MEMBER', 'CHANNEL')),
	target_id INTEGER NOT NULL,
	reason TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
INSERT INTO moderation_log_new SELECT id, channel_id, moderator_id, action, target_type, target_id, reason, created_at FROM moderation_log;
DROP TABLE moderation_log;
ALTER TABLE moderation_log_new RENAME TO moderation_log;
CREATE INDEX moderation_log_by_channel ON moderation_log (channel_id, id);
