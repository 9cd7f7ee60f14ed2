-- Edit history (docs/reference/edit-history.md): the earlier versions of a post or comment, each
-- written by the edit that replaced it, in that edit's batch, when the edit came after the grace
-- period. Keyed by the content (`content_type`, `content_id`); at most 20 a content (the edit
-- deletes the oldest beyond that in the same batch), each at most its content's own maximum (a
-- post's title and 40,000 characters of text, a comment's 1,000 characters).
CREATE TABLE revisions (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	content_type TEXT NOT NULL CHECK (content_type IN ('POST', 'COMMENT')),
	content_id INTEGER NOT NULL,
	-- The content's author: the export lists a member's own revisions, withdrawal deletes them.
	member_id INTEGER NOT NULL REFERENCES members (id),
	-- A post's title as it was; NULL for a comment.
	title TEXT,
	-- The text as it was: a post's plain text (posts.content_text), a comment's text.
	content TEXT NOT NULL,
	-- When this version was written (the content's creation or the edit before) and when the edit replaced it.
	written_at INTEGER NOT NULL,
	replaced_at INTEGER NOT NULL
);
-- A content's revisions, newest first (the read, the cap's delete, the deletion's).
CREATE INDEX revisions_by_content ON revisions (content_type, content_id, id);
-- A member's revisions (the export, withdrawal).
CREATE INDEX revisions_by_member ON revisions (member_id, id);
