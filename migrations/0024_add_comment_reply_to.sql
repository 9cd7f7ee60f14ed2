-- Whom a reply answers.
--
-- Replies stay one level deep: parent_id is always the thread's top-level comment. A reply to a
-- reply is stored under that comment as before, and reply_to_id now names the reply it answered,
-- so the page can say "In reply to @nickname" and link to it. NULL for a top-level comment and for
-- a reply to the top-level comment itself (the answered comment is then parent_id), and for every
-- reply written before this migration. Read only by primary key (the comment's own row names it),
-- so it needs no index.
ALTER TABLE comments ADD COLUMN reply_to_id INTEGER REFERENCES comments (id);
