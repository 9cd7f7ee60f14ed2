-- The audit log of moderation: every action of a community's administrators (and of
-- the operator commands, moderator_id NULL), who, what, on which target, why and when. Rows are
-- only ever added: no route or service changes or removes one (a community's removal aside).
CREATE TABLE moderation_log (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	moderator_id INTEGER REFERENCES members (id),
	action TEXT NOT NULL CHECK (action IN ('HIDE_POST', 'UNHIDE_POST', 'HIDE_COMMENT', 'UNHIDE_COMMENT', 'BAN', 'UNBAN', 'DISMISS_REPORTS', 'GRANT_ADMIN', 'REVOKE_ADMIN')),
	target_type TEXT NOT NULL CHECK (target_type IN ('POST', 'COMMENT', 'MEMBER')),
	target_id INTEGER NOT NULL,
	reason TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
CREATE INDEX moderation_log_by_channel ON moderation_log (channel_id, id);
