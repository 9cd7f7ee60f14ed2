-- A member's blocks (docs/reference/blocking.md): the blocker no longer sees the blocked member's posts
-- and comments but collapsed, and hears nothing of them. At most 500 rows per blocker (BlockLimitReached,
-- checked inside the block's batch). Withdrawal deletes the rows by and of the member.
CREATE TABLE member_blocks (
	blocker_id INTEGER NOT NULL REFERENCES members (id),
	blocked_id INTEGER NOT NULL REFERENCES members (id),
	channel_id INTEGER NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (blocker_id, blocked_id)
) WITHOUT ROWID;
-- Settings lists a member's blocks newest first.
CREATE INDEX member_blocks_by_time ON member_blocks (blocker_id, created_at);
-- Withdrawal deletes the blocks of the member (the primary key finds those by them).
CREATE INDEX member_blocks_by_blocked ON member_blocks (blocked_id);
