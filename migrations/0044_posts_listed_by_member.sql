-- A member's listed posts, newest first: what search of type All reads for each member whose
-- nickname matches (src/server/search/search.ts). Only listed posts (those All Posts shows) are in
-- it, and it holds every column that read asks (channel_seq too, which SQLite's covering check
-- counts), so the read never opens a post's row: it steps through index entries only, newest
-- first, and stops once it has the page's or the count's, whatever the number of the member's posts.
CREATE INDEX posts_listed_by_member ON posts (member_id, id, channel_seq) WHERE channel_seq IS NOT NULL;
