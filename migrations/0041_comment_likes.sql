-- Likes on comments (docs/reference/best-comments.md): a member likes a comment once, as a post
-- (post_likes, migration 0001). comments.like_count follows the rows exactly: the like's batch moves it
-- by one only when its row came or went (src/server/likes/comment-likes.ts).
CREATE TABLE comment_likes (
	comment_id INTEGER NOT NULL REFERENCES comments (id),
	member_id INTEGER NOT NULL REFERENCES members (id),
	post_id INTEGER NOT NULL REFERENCES posts (id),
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	created_at INTEGER NOT NULL,
	PRIMARY KEY (comment_id, member_id)
) WITHOUT ROWID;
-- A member's likes on one post's comments (their liked marks on its page), and their likes in time
-- order (the data export).
CREATE INDEX comment_likes_by_member ON comment_likes (member_id, post_id, comment_id);
CREATE INDEX comment_likes_by_time ON comment_likes (member_id, created_at);
ALTER TABLE comments ADD COLUMN like_count INTEGER NOT NULL DEFAULT 0;
-- The Best order of a post's comments: its top-level comments that are not deleted, most liked first,
-- ties oldest first. A Best read is one range of it, stopped by its LIMIT.
CREATE INDEX comments_best ON comments (post_id, like_count DESC, id) WHERE parent_id IS NULL AND deleted_at IS NULL;
