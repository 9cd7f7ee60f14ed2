-- Uploads attach to what shows them (src/server/uploads/claims.ts).
--
-- An upload is stored under a random key (r2_key: 128 random bits, base64url, and the extension of
-- the type sniffed from its bytes), the same in R2 and in its URL, /uploads/{key}. Its UNIQUE
-- constraint is the index of the lookup by key. Writing a post or a draft claims the uploads its
-- body shows: post_id is a post that shows it (the last one written with it), draft_id a draft
-- that keeps it. Deleting a draft releases its uploads (ON DELETE SET NULL: D1 enforces foreign
-- keys). Posts are never deleted as rows, so a post's images stay with it.
ALTER TABLE uploads ADD COLUMN post_id INTEGER REFERENCES posts (id);
ALTER TABLE uploads ADD COLUMN draft_id INTEGER REFERENCES drafts (id) ON DELETE SET NULL;

-- The scheduled cleanup reads the oldest unattached uploads first, and only those.
CREATE INDEX uploads_unattached ON uploads (created_at) WHERE post_id IS NULL AND draft_id IS NULL;
-- Deleting a draft finds the uploads it keeps.
CREATE INDEX uploads_by_draft ON uploads (draft_id) WHERE draft_id IS NOT NULL;
