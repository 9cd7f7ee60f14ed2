-- Writing posts.
--
-- Lists without renumbering. A post takes a position in each list it joins (its board's, its
-- category's and "All Posts") when it first joins it: one more than the list's top (list_top), so
-- positions follow the order posts were listed, are never reused and never change. board_seq,
-- subject_seq and channel_seq hold the position while the post is listed and are NULL while it is
-- not (deleted, hidden, private, a notice in its board's lists); *_pos keep it for when the post
-- comes back. A removal leaves a gap, counted in list_gaps: a Fenwick tree (binary indexed tree)
-- over each list's positions, one row per node that holds a gap, so that removing a post writes
-- at most 25 rows per list and page N finds its first position by one descent of at most 25
-- nodes (src/server/posts/list-positions.ts), whatever the list's size.
ALTER TABLE posts ADD COLUMN board_pos INTEGER;
ALTER TABLE posts ADD COLUMN subject_pos INTEGER;
ALTER TABLE posts ADD COLUMN channel_pos INTEGER;
UPDATE posts SET board_pos = board_seq, subject_pos = subject_seq, channel_pos = channel_seq;

ALTER TABLE channels ADD COLUMN list_top INTEGER NOT NULL DEFAULT 0;
ALTER TABLE boards ADD COLUMN list_top INTEGER NOT NULL DEFAULT 0;
ALTER TABLE board_subjects ADD COLUMN list_top INTEGER NOT NULL DEFAULT 0;
UPDATE channels SET list_top = listed_count;
UPDATE boards SET list_top = listed_count;
UPDATE board_subjects SET list_top = listed_count;

-- kind: 1 a board's list, 2 a category's, 3 the channel's "All Posts"; list_id the board, subject
-- or channel id; node a Fenwick index; removed the number of gaps among the positions it covers.
CREATE TABLE list_gaps (
	kind INTEGER NOT NULL CHECK (kind IN (1, 2, 3)),
	list_id INTEGER NOT NULL,
	node INTEGER NOT NULL,
	removed INTEGER NOT NULL,
	PRIMARY KEY (kind, list_id, node)
) WITHOUT ROWID;

-- Edits are checked against the version the editor opened (PostChanged otherwise).
ALTER TABLE posts ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
-- The editor's id for one post being written: a retried or double-clicked submit creates one post.
ALTER TABLE posts ADD COLUMN request_id TEXT;
CREATE UNIQUE INDEX posts_by_request ON posts (member_id, request_id) WHERE request_id IS NOT NULL;

-- A board's write template: a document of src/schemas/content.ts, or NULL for none.
ALTER TABLE boards ADD COLUMN write_template TEXT;
-- 1 for a board only administrators write in (announcements).
ALTER TABLE boards ADD COLUMN notice_only INTEGER NOT NULL DEFAULT 0;

-- Never holds a row: a batch asserts what it read (a post's version, say) with
-- `INSERT INTO batch_assertions (ok) SELECT 0 WHERE NOT <condition>`, whose CHECK failure rolls the
-- whole batch back when another write got there first (src/server/platform/batch.ts).
CREATE TABLE batch_assertions (ok INTEGER NOT NULL CHECK (ok = 1));
