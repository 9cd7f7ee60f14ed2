-- Notifications, mentions and watching (docs/reference/notifications.md).
--
-- A write that concerns other members (a comment, a post, a like, a moderator's hide or show, a
-- ban) sends one message to the notifications queue; its consumer writes these rows in batches
-- (src/server/notifications/). Nothing here is written by the request that wrote the content.

-- One row per notification a member has. dedupe_key names the event (`comment:12`, `like:7`, …):
-- a message delivered twice meets the UNIQUE index and writes nothing. A like is one row per post
-- that updates (its latest liker and time), so updated_at is the list's order. read_at is set when
-- the member opens it; everything at or before members.notifications_read_before is read too
-- ("mark all read" writes that one column). The newest 500 per member are kept (the cron prunes).
CREATE TABLE notifications (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	member_id INTEGER NOT NULL REFERENCES members (id),
	kind TEXT NOT NULL CHECK (
		kind IN ('COMMENT', 'REPLY', 'MENTION', 'LIKE', 'WATCHED_POST', 'WATCHED_BOARD', 'HIDDEN', 'SHOWN', 'BAN', 'BAN_END')
	),
	dedupe_key TEXT NOT NULL,
	-- Who did it (the commenter, the latest liker); NULL for a moderator's action, which never names them.
	actor_id INTEGER,
	post_id INTEGER,
	comment_id INTEGER,
	board_id INTEGER,
	-- A temporary ban's end (BAN).
	ends_at INTEGER,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	read_at INTEGER
);
CREATE UNIQUE INDEX notifications_by_key ON notifications (member_id, dedupe_key);
CREATE INDEX notifications_by_member ON notifications (member_id, updated_at DESC, id DESC);

-- The unread count, kept in the consumer's batch and read in one row; the number of notification
-- rows, for the cron's pruning (a partial index finds the members past 500 without a scan); the kinds a
-- member turned off (a bit each, src/server/notifications/kinds.ts); where "mark all read" put its mark.
ALTER TABLE members ADD COLUMN unread_notifications INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN notification_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN notifications_off INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN notifications_read_before INTEGER NOT NULL DEFAULT 0;
CREATE INDEX members_over_notification_keep ON members (notification_count) WHERE notification_count > 500;

-- What a member watches (watching = 1) or stopped watching (0). A member watches their own posts
-- without a row; unwatching one writes a row with 0. At most 500 rows per member (WatchLimit).
CREATE TABLE watches (
	member_id INTEGER NOT NULL REFERENCES members (id),
	target TEXT NOT NULL CHECK (target IN ('POST', 'BOARD')),
	target_id INTEGER NOT NULL,
	channel_id INTEGER NOT NULL,
	watching INTEGER NOT NULL CHECK (watching IN (0, 1)),
	created_at INTEGER NOT NULL,
	PRIMARY KEY (member_id, target, target_id)
) WITHOUT ROWID;
-- The fan-out reads a target's watchers in member id order, 100 at a time.
CREATE INDEX watches_by_target ON watches (target, target_id, watching, member_id);

-- The members a post or comment mentions, as [[memberId, "nickname as written"], …] (JSON), resolved
-- when it was written: the text keeps "@nickname", and a later nickname change keeps the link.
ALTER TABLE posts ADD COLUMN mentions TEXT;
ALTER TABLE comments ADD COLUMN mentions TEXT;

-- Messages the queue gave up on after its retries (the dead-letter queue's consumer writes them
-- here for the operators: docs/reference/notifications.md#runbook).
CREATE TABLE notification_dead_letters (
	id INTEGER PRIMARY KEY,
	message_id TEXT NOT NULL UNIQUE,
	body TEXT NOT NULL,
	attempts INTEGER NOT NULL,
	received_at INTEGER NOT NULL
);

-- A member's Web Push subscriptions (a browser each): the push service's endpoint and the keys the
-- payload is encrypted to (RFC 8291). Removed when the push service answers 404 or 410, when the
-- member turns push off, and on withdrawal.
CREATE TABLE push_subscriptions (
	id INTEGER PRIMARY KEY,
	member_id INTEGER NOT NULL REFERENCES members (id),
	endpoint TEXT NOT NULL UNIQUE,
	p256dh TEXT NOT NULL,
	auth TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_by_member ON push_subscriptions (member_id);

-- Email for replies and mentions, off until the member turns it on (and gives an address: no
-- provider tells us one). email_notifications: 1 on; the address is the member's own entry.
ALTER TABLE members ADD COLUMN notification_email TEXT;
