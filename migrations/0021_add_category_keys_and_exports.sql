-- A community file may name a category by a key of its own, as it names boards: a
-- rename then needs neither the database id nor the old name. Categories made before have a key
-- from their id, which `npm run channel -- apply` prints; a row written without one reads as the same.
ALTER TABLE board_subjects ADD COLUMN key TEXT;
UPDATE board_subjects SET key = 'category-' || id WHERE key IS NULL;
CREATE UNIQUE INDEX board_subjects_by_key ON board_subjects (board_id, key);

-- A member's export of their data (GET /v1/{domain}/{slug}/me/export): the reports a
-- member made, read by the member (keyset on id), and when the member last exported, so that one
-- member starts at most one export per EXPORT_INTERVAL (src/server/members/export.ts).
CREATE INDEX reports_by_reporter ON reports (reporter_id, id);
ALTER TABLE members ADD COLUMN last_export_at INTEGER;
