-- The edge cache while members talk.
--
-- channels.content_version turns every cached page of a community cold: it moves when lists change
-- (a post written, edited, deleted or hidden, a nickname, a withdrawal). A comment changes one
-- post's page only, so it moves one of POST_VERSION_BUCKETS counters instead (post id mod 1024,
-- src/server/channels/channels.ts touchPost): a JSON object from bucket to counter, where a bucket
-- never touched is 0. The row is already read once a second by every isolate, so the key of a
-- post's page and API reads carries its bucket's counter at no extra D1 read, and the column holds
-- at most 1024 small entries.
ALTER TABLE channels ADD COLUMN post_versions TEXT NOT NULL DEFAULT '{}';
