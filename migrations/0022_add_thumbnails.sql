-- Thumbnails of media posts in lists (docs/reference/thumbnails.md).
--
-- thumb_key: the R2 key of the small variant the editor made of this upload in the browser
-- (at most 320 px a side, at most 64 KB, JPEG or WebP), served like any upload at /uploads/{key}.
-- At most one per upload, set once (POST /uploads/{key}/thumbnail); the cleanup deletes its
-- object with the upload's. Not indexed: it is only read with the upload's row, by its key.
ALTER TABLE uploads ADD COLUMN thumb_key TEXT;

-- thumbnail: what a post's list row shows for its first image or video, chosen when the post is
-- written (src/lib/thumbnails.ts): `/uploads/{key}` (an upload's thumbnail), `/demo/{file}` (the
-- demo's own small images) or `youtube:{videoId}` (the video's poster from YouTube). NULL for a
-- post without one (text posts, and posts written before this change): the list shows ▣ or ▶.
ALTER TABLE posts ADD COLUMN thumbnail TEXT;
