-- Comments reach guests without a cold page.
--
-- channels.post_versions moves for every change of a post's page (a comment written, edited,
-- deleted or hidden). A cached page of an older version may still be answered for a few seconds
-- while it is made again in the background (functions/edge-cache.ts), so a busy post's readers never
-- wait for its page. What is taken away must not be shown again: a deletion or a hide also moves
-- this column's counter of the post's bucket (the same buckets, post id mod 1024), which is part of
-- the cache key, so those entries are never answered again. Same shape as post_versions.
ALTER TABLE channels ADD COLUMN post_removal_versions TEXT NOT NULL DEFAULT '{}';
