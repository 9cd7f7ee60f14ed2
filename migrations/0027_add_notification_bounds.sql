-- The bounds of what one member can make the site send another (docs/reference/notifications.md#bounds;
-- src/lib/notification-kinds.ts holds the numbers, and the two written here must stay equal to them).

-- MENTION and REPLY notifications from one sender to one recipient are counted over the last hour
-- (SENDER_NOTIFICATIONS_PER_HOUR): this index holds those two kinds alone, so the count reads at most
-- the cap's entries, and the other kinds' rows cost no entry of it.
CREATE INDEX notifications_by_sender ON notifications (member_id, actor_id, created_at) WHERE kind IN ('MENTION', 'REPLY');

-- An author's posts in one board tell its watchers at most BOARD_POSTS_NOTIFIED_PER_HOUR times an
-- hour: the consumer counts the author's earlier posts in that board in the hour before the post by
-- this index (deleted ones too, so deleting and posting again gains nothing).
CREATE INDEX posts_by_board_author ON posts (board_id, member_id, created_at);

-- The reply and mention emails of a member's current hour (EMAILS_PER_HOUR = 10 are sent, the rest
-- wait for one digest): the hour's start and how many the hour asked for. The hourly cron finds the
-- members owed a digest (count past 10, hour over) by the partial index, without a scan.
ALTER TABLE members ADD COLUMN notification_emails_window INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN notification_emails_count INTEGER NOT NULL DEFAULT 0;
CREATE INDEX members_email_digest_due ON members (notification_emails_window) WHERE notification_emails_count > 10;

-- When the member's browsers were last pushed to: at most one push a minute (PUSH_INTERVAL_MS).
ALTER TABLE members ADD COLUMN notification_pushed_at INTEGER NOT NULL DEFAULT 0;
