-- Comments and replies.
--
-- A post's comments are read a page at a time in thread order: a top-level comment, then its
-- replies oldest first, then the next top-level comment. Replies are one level deep, so a comment's
-- thread is coalesce(parent_id, id) (a reply's parent is always a top-level comment), and this index
-- holds the comments of a post in exactly that order: a page after any item is a range of it, read
-- from the item on and stopped by the page's LIMIT, however many comments the post has. It also
-- finds the replies of a comment (post_id, thread) and replaces the index by post and id.
CREATE INDEX comments_in_thread_order ON comments (post_id, coalesce(parent_id, id), id);
DROP INDEX comments_by_post;

-- A UUID the comment box makes once per comment: a retried or double-sent request creates one comment.
ALTER TABLE comments ADD COLUMN request_id TEXT;
CREATE UNIQUE INDEX comments_by_request ON comments (member_id, request_id) WHERE request_id IS NOT NULL;
