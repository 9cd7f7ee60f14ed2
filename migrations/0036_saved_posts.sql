-- Saved posts (docs/reference/saved-posts.md): a member's bookmarks of posts, found under My Page →
-- Saved. The primary key makes a save idempotent (a second save of the same post writes nothing).
-- The member's list reads newest saved first by keyset through saved_posts_by_member (covering: a
-- page reads its own rows and no others), which also answers the limit's count (at most 1,000 rows
-- a member, src/server/saved/saved.ts). A save writes this row and its index entry; nothing on
-- posts moves (no counter: nobody else sees a save).
CREATE TABLE saved_posts (
	member_id INTEGER NOT NULL REFERENCES members (id),
	post_id INTEGER NOT NULL REFERENCES posts (id),
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	saved_at INTEGER NOT NULL,
	PRIMARY KEY (member_id, post_id)
) WITHOUT ROWID;
CREATE INDEX saved_posts_by_member ON saved_posts (member_id, channel_id, saved_at DESC, post_id DESC);
