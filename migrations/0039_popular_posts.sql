-- Popular order of a board's and All Posts' lists (docs/decisions/decisions.md, "Popular posts: a stored
-- hot score with a window"). A post's hot score, in seconds, is its creation time plus a bonus for its
-- engagement e = likes + 2 × comments that grows to at most 48 hours (172,800 s), half of it at e = 10:
--   hot = created_at / 1000 + 172800 * e / (e + 10)
-- It changes only with engagement, never with the clock, so it is stored and indexed, and the popular
-- page reads exactly the rows it shows by keyset over (hot, id). The writes that move like_count or
-- comment_count set it in the same UPDATE (src/server/posts/hot.ts). Integer arithmetic only: D1 does
-- not allow SQLite's math functions (log10).
ALTER TABLE posts ADD COLUMN hot INTEGER NOT NULL DEFAULT 0;
UPDATE posts SET hot = created_at / 1000 + 172800 * (like_count + 2 * comment_count) / (like_count + 2 * comment_count + 10);
-- The same posts as a board's and All Posts' lists (board_seq / channel_seq are set while listed).
CREATE INDEX posts_board_hot ON posts (board_id, hot DESC, id DESC) WHERE board_seq IS NOT NULL;
CREATE INDEX posts_channel_hot ON posts (channel_id, hot DESC, id DESC) WHERE channel_seq IS NOT NULL;
